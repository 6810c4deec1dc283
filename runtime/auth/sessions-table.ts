// The server-side session table of `[auth.sessions]` (sessions.ts) and its statements: the
// runtime's own (db/own-table.ts). Every column is text (the id is the SHA-256 of the
// cookie's value, roles a JSON list, times ISO-8601, which compare as text), so rows read
// the same from every driver; the indexes serve ending a subject's sessions and the sweep.

import type { StatementSpec, TableSpec } from "../contract/index.js";
import { ownStatement, ownTable } from "../db/index.js";

export const SESSIONS_TABLE = "svc_sessions";
const T = SESSIONS_TABLE;

export const sessionsTable: TableSpec = ownTable({
  name: T,
  columns: [
    // SHA-256 (hex) of the session cookie's value: the cookie itself is never stored.
    { name: "id", kind: "key" },
    // Who signed in: `auth.id`.
    { name: "subject", kind: "text" },
    // `auth.roles`, as a JSON list.
    { name: "roles", kind: "text" },
    { name: "created_at", kind: "text" },
    // A session past it is no session: the lifetime's end, or with `idle` the idle deadline when earlier.
    { name: "expires_at", kind: "text" },
  ],
  indexes: [
    { name: `${T}_subject_idx`, column: "subject" },
    { name: `${T}_expires_at_idx`, column: "expires_at" },
  ],
});

const COLUMNS = ["id", "subject", "roles", "created_at", "expires_at"];

export interface SessionStatements {
  /** Args `(id, subject, roles, created_at, expires_at)`. */
  create: StatementSpec;
  /** Args `(id)`: the session's row. */
  find: StatementSpec;
  /** Args `(id)`. */
  end: StatementSpec;
  /** Args `(subject, kept id)`: the subject's other sessions. */
  endSubject: StatementSpec;
  /** Args `(expires_at, id)`: the idle deadline moved. */
  touch: StatementSpec;
  /** Args `(now)`: every expired session. */
  sweep: StatementSpec;
}

export const sessionStatements: SessionStatements = {
  create: ownStatement(T, "insert", 5, (q, p) => `INSERT INTO ${q(T)} (${COLUMNS.map(q).join(", ")}) VALUES (${COLUMNS.map((_, i) => p(i)).join(", ")})`),
  find: ownStatement(T, "get", 1, (q, p) => `SELECT ${COLUMNS.map(q).join(", ")} FROM ${q(T)} WHERE ${q("id")} = ${p(0)}`),
  end: ownStatement(T, "delete", 1, (q, p) => `DELETE FROM ${q(T)} WHERE ${q("id")} = ${p(0)}`),
  endSubject: ownStatement(T, "end_subject", 2, (q, p) => `DELETE FROM ${q(T)} WHERE ${q("subject")} = ${p(0)} AND ${q("id")} <> ${p(1)}`),
  touch: ownStatement(T, "touch", 2, (q, p) => `UPDATE ${q(T)} SET ${q("expires_at")} = ${p(0)} WHERE ${q("id")} = ${p(1)}`),
  sweep: ownStatement(T, "sweep", 1, (q, p) => `DELETE FROM ${q(T)} WHERE ${q("expires_at")} <= ${p(0)}`),
};
