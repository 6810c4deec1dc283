// The table `svc_revocations` (docs/auth.md "Revocation"): one row per subject whose
// credentials were revoked, holding the moment before which its JWTs are refused. The
// runtime owns it (created at start with the app's tables, in every dialect) rather than
// the generated server: it is the same for every app. Times are milliseconds since the
// Unix epoch, so comparisons are plain integer ones on every backend. The row's id is the
// SHA-256 of the subject, since a subject may be longer than a MySQL key may be.

import type { StatementSpec, TableSpec } from "../contract/index.js";
import { type OwnSql, ownStatement, ownTable } from "../db/index.js";

export const REVOCATIONS_TABLE = "svc_revocations";

export const revocationsTable: TableSpec = ownTable({
  name: REVOCATIONS_TABLE,
  columns: [
    { name: "id", kind: "key" },
    { name: "subject", kind: "text" },
    { name: "not_before", kind: "int" },
    { name: "expires_at", kind: "int" },
  ],
  indexes: [{ name: `${REVOCATIONS_TABLE}_expires_at_idx`, column: "expires_at" }],
});

function statement(name: string, args: number, text: OwnSql): StatementSpec {
  return ownStatement(REVOCATIONS_TABLE, name, args, text);
}

const T = (q: (n: string) => string) => q(REVOCATIONS_TABLE);

export const revocationStatements = {
  /**
   * Args `(id, subject, not_before, expires_at)`: writes the subject's row, or moves it
   * later. Never earlier: a process whose clock lags must not shorten a revocation.
   */
  revoke: statement("revoke", 4, (q, p, d) => {
    const insert = `INSERT INTO ${T(q)} (${q("id")}, ${q("subject")}, ${q("not_before")}, ${q("expires_at")}) VALUES (${p(0)}, ${p(1)}, ${p(2)}, ${p(3)})`;
    if (d === "mysql") {
      return `${insert} ON DUPLICATE KEY UPDATE ${q("not_before")} = GREATEST(${q("not_before")}, VALUES(${q("not_before")})), ${q("expires_at")} = GREATEST(${q("expires_at")}, VALUES(${q("expires_at")}))`;
    }
    const greatest = d === "sqlite" ? "MAX" : "GREATEST";
    const col = (n: string) => `${q(n)} = ${greatest}(${T(q)}.${q(n)}, excluded.${q(n)})`;
    return `${insert} ON CONFLICT (${q("id")}) DO UPDATE SET ${col("not_before")}, ${col("expires_at")}`;
  }),
  /** Args `(now)`: every live row, for a process's cache. */
  live: statement("live", 1, (q, p) => `SELECT ${q("subject")}, ${q("not_before")} FROM ${T(q)} WHERE ${q("expires_at")} > ${p(0)}`),
  /** Args `(now)`: deletes the rows no token they refuse can outlive. */
  sweep: statement("sweep", 1, (q, p) => `DELETE FROM ${T(q)} WHERE ${q("expires_at")} <= ${p(0)}`),
};

export const revocationStatementList: readonly StatementSpec[] = Object.values(revocationStatements);
