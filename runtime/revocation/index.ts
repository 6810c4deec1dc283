// Revocation of a subject's credentials (docs/auth.md "Revocation"): the runtime's own table
// and the per-process copy of it that JWT checks read.

import type { ServerSpec, StatementSpec, TableSpec } from "../contract/index.js";
import { revocationStatementList, revocationsTable } from "./table.js";

export { Revocations, REFRESH_MS, SWEEP_INTERVAL_MS, MIN_RETENTION_MS, rowId } from "./store.js";
export { REVOCATIONS_TABLE, revocationStatements, revocationsTable } from "./table.js";

/** Whether the server keeps revocations: JWTs are what outlive a deleted session. */
export function keepsRevocations(spec: Pick<ServerSpec, "auth">): boolean {
  return spec.auth?.jwt !== undefined;
}

/** The runtime's own tables for `spec`, created at start beside the app's. */
export function ownTables(spec: Pick<ServerSpec, "auth">): TableSpec[] {
  return keepsRevocations(spec) ? [revocationsTable] : [];
}

/** The runtime's own statements for `spec`, prepared at start beside the app's. */
export function ownStatements(spec: Pick<ServerSpec, "auth">): readonly StatementSpec[] {
  return keepsRevocations(spec) ? revocationStatementList : [];
}
