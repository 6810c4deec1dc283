// `[auth.sessions]`: the session table is the runtime's own, with its DDL and statements in
// every dialect (runtime/auth/sessions-table.ts); the model carries the configuration and
// the table's name, which no resource may take.

import type { SessionStoreModel } from "../model/model.js";

export const SESSIONS_TABLE = "svc_sessions";
/** The runtime's own table of revocations (runtime/revocation/table.ts), with `[auth.jwt]`: no resource may take its name. */
export const REVOCATIONS_TABLE = "svc_revocations";

export function sessionStore(lifetimeS: number, cookie: string, idleS?: number): SessionStoreModel {
  return { lifetimeS, ...(idleS !== undefined && { idleS }), cookie, table: SESSIONS_TABLE };
}
