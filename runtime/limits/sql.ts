// The table `svc_rate_limits` and its statements, per dialect. The runtime owns them (they
// are the same for every app): created at start beside the app's tables (serve.ts), never
// written into a generated server.
//
// One row per key: `id` is the SHA-256 of the policy and the key (keys.ts), `tat` the GCRA
// theoretical arrival time in milliseconds (gcra.ts), `allowed` what the last check
// decided, so that the one statement can answer it. A row whose `tat` has passed holds
// nothing a fresh row would not, so the sweep deletes it.
//
// `take` is one statement: SQLite and PostgreSQL upsert and return the row
// (INSERT … ON CONFLICT DO UPDATE … RETURNING), so concurrent checks of one key serialize
// on its row. MySQL and MariaDB have no RETURNING on an upsert: `INSERT … ON DUPLICATE KEY
// UPDATE` takes the row's lock and the adapter reads the row back in the same transaction
// (DialectSql.returning), which is still one round of locking per check. Its SET list
// is evaluated left to right with updated values (MySQL), so `allowed` comes first and
// `tat` last, each computed from the old `tat` only; that reads the same under MariaDB's
// SIMULTANEOUS_ASSIGNMENT mode.

import type { Dialect, DialectSql, StatementSpec, TableDdl, TableSpec } from "../contract/index.js";
import { SvcError } from "../core/errors.js";

export const LIMITS_TABLE = "svc_rate_limits";

function ddl(dialect: Dialect): TableDdl {
  const q = (name: string): string => (dialect === "mysql" ? `\`${name}\`` : `"${name}"`);
  const text = dialect === "mysql" ? "VARCHAR(64)" : dialect === "postgres" ? "text" : "TEXT";
  const big = dialect === "sqlite" ? "INTEGER" : dialect === "postgres" ? "bigint" : "BIGINT";
  const textType = dialect === "mysql" ? "varchar" : dialect === "postgres" ? "text" : "TEXT";
  const bigType = dialect === "sqlite" ? "INTEGER" : "bigint";
  const columns = [
    { name: "id", definition: `${q("id")} ${text} NOT NULL PRIMARY KEY`, sqlType: textType, nullable: false, hasDefault: false },
    { name: "tat", definition: `${q("tat")} ${big} NOT NULL`, sqlType: bigType, nullable: false, hasDefault: false },
    { name: "allowed", definition: `${q("allowed")} ${big} NOT NULL`, sqlType: bigType, nullable: false, hasDefault: false },
  ];
  const tail = dialect === "mysql" ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin" : "";
  return {
    createTable: `CREATE TABLE IF NOT EXISTS ${q(LIMITS_TABLE)} (\n  ${columns.map((c) => c.definition).join(",\n  ")}\n)${tail}`,
    columns,
    createIndexes: [`CREATE INDEX IF NOT EXISTS ${q(`${LIMITS_TABLE}_tat_idx`)} ON ${q(LIMITS_TABLE)} (${q("tat")})`],
  };
}

export const limitsTable: TableSpec = {
  name: LIMITS_TABLE,
  ddl: { sqlite: ddl("sqlite"), postgres: ddl("postgres"), mysql: ddl("mysql") },
};

/**
 * SQL written with `:name` parameters, for each dialect: `?` (sqlite, mysql) or `$n`
 * (postgres, with `::bigint` where the name says so), and the slots that bind them.
 */
function sql(text: string, names: readonly string[], dialect: Dialect): DialectSql {
  const slots: number[] = [];
  const out = text.replace(/:(\w+)/g, (_, name: string) => {
    const index = names.indexOf(name);
    if (index < 0) throw new SvcError("SVC_ERR_INTERNAL", `limits SQL names :${name}, which is not a parameter`);
    if (dialect !== "postgres") {
      slots.push(index);
      return "?";
    }
    if (!slots.includes(index)) slots.push(index);
    return `$${slots.indexOf(index) + 1}${name === "id" ? "" : "::bigint"}`;
  });
  return { text: out, slots };
}

const TAKE_ARGS = ["id", "now", "interval", "capacity"] as const;

function take(dialect: Dialect): DialectSql {
  const t = dialect === "mysql" ? "`tat`" : `"${LIMITS_TABLE}"."tat"`;
  const max = dialect === "sqlite" ? "max" : "GREATEST";
  const fits = `${max}(${t}, :now) + :interval - :now <= :capacity`;
  const table = dialect === "mysql" ? `\`${LIMITS_TABLE}\`` : `"${LIMITS_TABLE}"`;
  const insert = `INSERT INTO ${table} (${dialect === "mysql" ? "`id`, `tat`, `allowed`" : '"id", "tat", "allowed"'}) VALUES (:id, :now + :interval, 1)`;
  if (dialect === "mysql") {
    const text =
      `${insert} ON DUPLICATE KEY UPDATE \`allowed\` = CASE WHEN ${fits} THEN 1 ELSE 0 END, ` +
      `\`tat\` = CASE WHEN ${fits} THEN ${max}(${t}, :now) + :interval ELSE ${t} END`;
    const read = sql("SELECT `tat`, `allowed` FROM `svc_rate_limits` WHERE `id` = :id", TAKE_ARGS, dialect);
    return { ...sql(text, TAKE_ARGS, dialect), returning: { text: read.text, slots: read.slots, when: "after" } };
  }
  const text =
    `${insert} ON CONFLICT ("id") DO UPDATE SET "allowed" = CASE WHEN ${fits} THEN 1 ELSE 0 END, ` +
    `"tat" = CASE WHEN ${fits} THEN ${max}(${t}, :now) + :interval ELSE ${t} END RETURNING "tat", "allowed"`;
  return sql(text, TAKE_ARGS, dialect);
}

function each(make: (dialect: Dialect) => DialectSql): StatementSpec["sql"] {
  return { sqlite: make("sqlite"), postgres: make("postgres"), mysql: make("mysql") };
}

const name = (dialect: Dialect, text: string): string => (dialect === "mysql" ? text.replace(/"/g, "`") : text);

/** The statements the limiter runs; every one is prepared at start. */
export const limitStatements = {
  /** Args `(id, now, interval, capacity)`: the GCRA check of one key, as one statement; answers `tat`, `allowed`. */
  take: { name: `${LIMITS_TABLE}.take`, sql: each(take) },
  /** Args `(id)`: the key's `tat`, or no row. */
  peek: { name: `${LIMITS_TABLE}.peek`, sql: each((d) => sql(name(d, 'SELECT "tat" FROM "svc_rate_limits" WHERE "id" = :id'), ["id"], d)) },
  /** Args `(id)`: forgets the key (a successful sign-in resets its account). */
  forget: { name: `${LIMITS_TABLE}.forget`, sql: each((d) => sql(name(d, 'DELETE FROM "svc_rate_limits" WHERE "id" = :id'), ["id"], d)) },
  /** Args `(now)`: deletes every row whose TAT has passed. */
  sweep: { name: `${LIMITS_TABLE}.sweep`, sql: each((d) => sql(name(d, 'DELETE FROM "svc_rate_limits" WHERE "tat" < :now'), ["now"], d)) },
} satisfies Record<string, StatementSpec>;

export const limitStatementList: readonly StatementSpec[] = Object.values(limitStatements);
