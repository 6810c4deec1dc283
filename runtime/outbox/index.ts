// Events delivered through an outbox (docs/language.md §2.8): `emit` stores an event in the
// action's transaction; after commit, each server's delivery loop sends it to every
// subscriber as a Standard Webhooks POST, retried with backoff, at least once.

import type { ServerSpec, StatementSpec, TableSpec } from "../types.js";
import { outboxStatementList, outboxTables } from "./table.js";

export { emit, afterCall } from "./emit.js";
export { Outbox, CONCURRENCY, type OutboxDepth } from "./outbox.js";
export { outboxHealth } from "./health.js";
export { signedHeaders, signingKey } from "./sign.js";
export { retryDelayMs, type BackoffPolicy } from "./backoff.js";
export { OUTBOX_TABLE, DELIVERIES_TABLE, outboxStatements, outboxTables } from "./table.js";
export type { EventsSpec, OutboxWake, SubscriberSpec } from "./types.js";

/** The outbox's tables, when the app declares events. */
export function outboxOwnTables(spec: Pick<ServerSpec, "events">): readonly TableSpec[] {
  return spec.events === undefined ? [] : outboxTables;
}

/** The outbox's statements, when the app declares events. */
export function outboxOwnStatements(spec: Pick<ServerSpec, "events">): readonly StatementSpec[] {
  return spec.events === undefined ? [] : outboxStatementList;
}
