// The table of answers to action calls made with an `Idempotency-Key` (docs/language.md,
// "Idempotency keys"), and its statements: the runtime's own (db/own-table.ts). The claim
// changes no row when the key is there, instead of failing, which would abort a PostgreSQL
// transaction.

import type { IdempotencySpec, TableSpec } from "../contract/index.js";
import { ownStatement, ownTable } from "../db/index.js";

export const IDEMPOTENCY_TABLE = "svc_idempotency_keys";
const T = IDEMPOTENCY_TABLE;

export const idempotencyTable: TableSpec = ownTable({
  name: T,
  columns: [
    // HMAC-SHA256 (hex) under the client's key of the target, the caller and, when bound, the request (keyed.ts).
    { name: "id", kind: "key" },
    // What the key belongs to: the action (`module.action`) or the route-file block.
    { name: "scope", kind: "text" },
    // Always empty: the key is never stored (the column stays for tables made before).
    { name: "idempotency_key", kind: "text" },
    // HMAC-SHA256 (hex) under the client's key of the method, the path and the canonical arguments.
    { name: "fingerprint", kind: "text" },
    { name: "status", kind: "int" },
    // The answer's data as JSON text (an action that handles credentials has no row).
    { name: "body", kind: "longtext", nullable: true },
    // Milliseconds since the Unix epoch after which the key may be used afresh.
    { name: "expires_at", kind: "int" },
    { name: "created_at", kind: "now" },
  ],
  indexes: [{ name: `${T}_expires_at_idx`, column: "expires_at" }],
});

/** The five statements IdempotencyStore runs (store.ts). */
export const idempotencyStatements: IdempotencySpec = {
  /** Args `(id, scope, key, fingerprint, expires_at)`: a row in status 0 unless the id is there. */
  claim: ownStatement(T, "claim", 5, (q, p, d) =>
    // IGNORE turns only the duplicate key into "no row changed" here: the key is at most 255
    // characters and the other columns cannot overflow or mistype.
    `${d === "mysql" ? "INSERT IGNORE INTO" : "INSERT INTO"} ${q(T)} (${q("id")}, ${q("scope")}, ${q("idempotency_key")}, ${q("fingerprint")}, ${q("status")}, ${q("expires_at")}) ` +
    `VALUES (${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, 0, ${p(4)})${d === "mysql" ? "" : " ON CONFLICT DO NOTHING"}`,
  ),
  /** Args `(id)`. */
  lookup: ownStatement(T, "lookup", 1, (q, p) => `SELECT ${q("fingerprint")}, ${q("status")}, ${q("body")}, ${q("expires_at")} FROM ${q(T)} WHERE ${q("id")} = ${p(0)}`),
  /** Args `(id, now)`: the key's row, once expired. */
  expire: ownStatement(T, "expire", 2, (q, p) => `DELETE FROM ${q(T)} WHERE ${q("id")} = ${p(0)} AND ${q("expires_at")} <= ${p(1)}`),
  /** Args `(status, body, id)`: the answer, in the claimed row. */
  settle: ownStatement(T, "settle", 3, (q, p) => `UPDATE ${q(T)} SET ${q("status")} = ${p(0)}, ${q("body")} = ${p(1)} WHERE ${q("id")} = ${p(2)}`),
  /** Args `(now)`: every expired row. */
  sweep: ownStatement(T, "sweep", 1, (q, p) => `DELETE FROM ${q(T)} WHERE ${q("expires_at")} <= ${p(0)}`),
};
