// The table `svc_revocations` (docs/auth.md "Revocation"): one row per subject whose
// credentials were revoked, holding the moment before which its JWTs are refused. The
// runtime owns it (created at start with the app's tables, in every dialect) rather than
// the generated server: it is the same for every app. Times are milliseconds since the
// Unix epoch, so comparisons are plain integer ones on every backend. The row's id is the
// SHA-256 of the subject, since a subject may be longer than a MySQL key may be.

import type { Dialect, DialectSql, StatementSpec, TableColumnDdl, TableDdl, TableSpec } from "../contract/index.js";

export const REVOCATIONS_TABLE = "svc_revocations";
const INDEX = `${REVOCATIONS_TABLE}_expires_at_idx`;

interface DialectWords {
  quote(name: string): string;
  text: [declared: string, reported: string];
  key: [declared: string, reported: string];
  int: [declared: string, reported: string];
  tableSuffix: string;
  placeholder(i: number): string;
}

const WORDS: Record<Dialect, DialectWords> = {
  sqlite: { quote: (n) => `"${n}"`, text: ["TEXT", "TEXT"], key: ["TEXT", "TEXT"], int: ["INTEGER", "INTEGER"], tableSuffix: "", placeholder: () => "?" },
  postgres: { quote: (n) => `"${n}"`, text: ["text", "text"], key: ["text", "text"], int: ["bigint", "bigint"], tableSuffix: "", placeholder: (i) => `$${i + 1}` },
  mysql: {
    quote: (n) => `\`${n}\``,
    text: ["TEXT", "text"],
    key: ["VARCHAR(64)", "varchar"],
    int: ["BIGINT", "bigint"],
    tableSuffix: " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    placeholder: () => "?",
  },
};

/** Column name and kind, in table order. */
const COLUMNS: [string, "key" | "text" | "int"][] = [
  ["id", "key"],
  ["subject", "text"],
  ["not_before", "int"],
  ["expires_at", "int"],
];

function ddl(dialect: Dialect): TableDdl {
  const w = WORDS[dialect];
  const columns: TableColumnDdl[] = COLUMNS.map(([name, kind]) => {
    const [declared, reported] = w[kind];
    const definition = `${w.quote(name)} ${declared} NOT NULL${kind === "key" ? " PRIMARY KEY" : ""}`;
    return { name, definition, sqlType: reported, nullable: false, hasDefault: false };
  });
  return {
    createTable: `CREATE TABLE IF NOT EXISTS ${w.quote(REVOCATIONS_TABLE)} (\n${columns.map((c) => `  ${c.definition}`).join(",\n")}\n)${w.tableSuffix}`,
    columns,
    createIndexes: [`CREATE INDEX IF NOT EXISTS ${w.quote(INDEX)} ON ${w.quote(REVOCATIONS_TABLE)} (${w.quote("expires_at")})`],
    primaryKey: ["id"],
  };
}

export const revocationsTable: TableSpec = {
  name: REVOCATIONS_TABLE,
  ddl: { sqlite: ddl("sqlite"), postgres: ddl("postgres"), mysql: ddl("mysql") },
};

/** One statement in the three dialects; `text` gets the dialect's quoting and placeholders. */
function statement(name: string, args: number, text: (q: (n: string) => string, p: (i: number) => string, dialect: Dialect) => string): StatementSpec {
  const slots = Array.from({ length: args }, (_, i) => i);
  const sql = (d: Dialect): DialectSql => ({ text: text(WORDS[d].quote, WORDS[d].placeholder, d), slots });
  return { name: `${REVOCATIONS_TABLE}.${name}`, sql: { sqlite: sql("sqlite"), postgres: sql("postgres"), mysql: sql("mysql") } };
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
