// Events delivered through an outbox (docs/language.md §2.9): `emit` stores an event in the
// action's transaction; after commit, each server's delivery loop sends it to every
// subscriber as a Standard Webhooks POST, retried with backoff, at least once.

import type { Credentials } from "../core/credentials.js";
import { StartupError } from "../core/errors.js";
import type { Logger } from "../core/log.js";
import type { Database, LaterSpans } from "../contract/index.js";
import { Outbox } from "./outbox.js";
import type { EventsSpec } from "../contract/events.js";

export { emit, afterCall } from "./emit.js";
export { Outbox, CONCURRENCY, type OutboxDepth } from "./outbox.js";
export { outboxHealth } from "./health.js";
export { signedHeaders, signingKey } from "./sign.js";
export { retryDelayMs, type BackoffPolicy } from "./backoff.js";
export { OUTBOX_TABLE, DELIVERIES_TABLE, outboxStatementList, outboxStatements, outboxTables } from "./table.js";
export type { EventsSpec, OutboxWake, SubscriberSpec } from "../contract/events.js";

/**
 * The delivery loop of a server, started; a subscriber's secret that is no key is a
 * StartupError. `spans`: when traced, each attempt is a client span in the emitting trace.
 */
export function startOutbox(spec: EventsSpec, db: Database, credentials: Credentials, log: Logger, spans: LaterSpans | null = null): Outbox {
  let outbox: Outbox;
  try {
    outbox = new Outbox(spec, db, credentials, log, Date.now, spans);
  } catch (err) {
    throw new StartupError("SVC_ERR_CREDENTIAL", err instanceof Error ? err.message : String(err));
  }
  outbox.start();
  return outbox;
}
