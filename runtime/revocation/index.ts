// Revocation of a subject's credentials (docs/auth.md "Revocation"): the runtime's own table
// and the per-process copy of it that JWT checks read.

import type { ServerSpec } from "../contract/index.js";

export { Revocations, REFRESH_MS, SWEEP_INTERVAL_MS, MIN_RETENTION_MS, rowId } from "./store.js";
export { REVOCATIONS_TABLE, revocationStatementList, revocationStatements, revocationsTable } from "./table.js";

/** Whether the server keeps revocations: JWTs are what outlive a deleted session. */
export function keepsRevocations(spec: Pick<ServerSpec, "auth">): boolean {
  return spec.auth?.jwt !== undefined;
}

