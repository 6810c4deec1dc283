// The outbox's two tables (docs/language.md §2.9), owned by the runtime like svc_revocations:
// the same for every app, created at start with the app's tables under the additive
// migration lock, never printed into server.ts.
//
// - `svc_outbox`: one row per `emit`, inserted in the action's transaction (so it exists
//   only if the action commits). `body` is the exact JSON that is signed and sent.
// - `svc_outbox_deliveries`: one row per event and subscriber, made after commit by the
//   delivery loop (fan-out), holding that delivery's attempts, lease and outcome.
//
// Times are milliseconds since the Unix epoch (BIGINT), compared as integers everywhere.

import type { Dialect, DialectSql, StatementSpec, TableColumnDdl, TableDdl, TableSpec } from "../contract/index.js";

export const OUTBOX_TABLE = "svc_outbox";
/** Rows one pass of the delivery loop reads at most (a constant in the SQL: MySQL binds no LIMIT portably). */
export const BATCH = 50;
export const DELIVERIES_TABLE = "svc_outbox_deliveries";

type Kind = "key" | "text" | "int" | "shortText";

interface DialectWords {
  quote(name: string): string;
  types: Record<Kind, [declared: string, reported: string]>;
  tableSuffix: string;
  placeholder(i: number): string;
}

const WORDS: Record<Dialect, DialectWords> = {
  sqlite: {
    quote: (n) => `"${n}"`,
    types: { key: ["TEXT", "TEXT"], text: ["TEXT", "TEXT"], shortText: ["TEXT", "TEXT"], int: ["INTEGER", "INTEGER"] },
    tableSuffix: "",
    placeholder: () => "?",
  },
  postgres: {
    quote: (n) => `"${n}"`,
    types: { key: ["text", "text"], text: ["text", "text"], shortText: ["text", "text"], int: ["bigint", "bigint"] },
    tableSuffix: "",
    placeholder: (i) => `$${i + 1}`,
  },
  mysql: {
    quote: (n) => `\`${n}\``,
    // Keys and indexed text have a length in MySQL: ids are at most 64 characters, subscriber names and states short.
    types: { key: ["VARCHAR(64)", "varchar"], text: ["LONGTEXT", "longtext"], shortText: ["VARCHAR(255)", "varchar"], int: ["BIGINT", "bigint"] },
    tableSuffix: " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    placeholder: () => "?",
  },
};

type Column = [name: string, kind: Kind, nullable?: "null"];

const OUTBOX_COLUMNS: Column[] = [
  ["id", "key"],
  ["type", "shortText"],
  ["body", "text"],
  ["created_at", "int"],
  // 0 until the delivery loop has made the event's delivery rows.
  ["fanned_out", "int"],
  // The W3C trace context of the emitting span, when traced; nullable, so added to a table made before them.
  ["traceparent", "text", "null"],
  ["tracestate", "text", "null"],
];

const DELIVERY_COLUMNS: Column[] = [
  // SHA-256 of event id and subscriber: one row per pair, whoever fans out first.
  ["id", "key"],
  ["event_id", "key"],
  ["subscriber", "shortText"],
  ["state", "shortText"],
  ["attempts", "int"],
  ["next_at", "int"],
  ["lease_owner", "shortText"],
  ["lease_until", "int"],
  ["last_status", "int", "null"],
  ["last_error", "text", "null"],
  ["created_at", "int"],
];

function ddl(dialect: Dialect, table: string, columns: Column[], indexes: [name: string, cols: string[]][]): TableDdl {
  const w = WORDS[dialect];
  const cols: TableColumnDdl[] = columns.map(([name, kind, nullable]) => {
    const [declared, reported] = w.types[kind];
    const definition = `${w.quote(name)} ${declared}${nullable === "null" ? "" : " NOT NULL"}${name === "id" ? " PRIMARY KEY" : ""}`;
    return { name, definition, sqlType: reported, nullable: nullable === "null", hasDefault: false };
  });
  return {
    createTable: `CREATE TABLE IF NOT EXISTS ${w.quote(table)} (\n${cols.map((c) => `  ${c.definition}`).join(",\n")}\n)${w.tableSuffix}`,
    columns: cols,
    createIndexes: indexes.map(
      ([name, on]) => `CREATE INDEX IF NOT EXISTS ${w.quote(name)} ON ${w.quote(table)} (${on.map(w.quote).join(", ")})`,
    ),
    primaryKey: ["id"],
  };
}

function tableSpec(name: string, columns: Column[], indexes: [string, string[]][]): TableSpec {
  return {
    name,
    ddl: { sqlite: ddl("sqlite", name, columns, indexes), postgres: ddl("postgres", name, columns, indexes), mysql: ddl("mysql", name, columns, indexes) },
  };
}

export const outboxTables: readonly TableSpec[] = [
  tableSpec(OUTBOX_TABLE, OUTBOX_COLUMNS, [[`${OUTBOX_TABLE}_fanned_out_idx`, ["fanned_out", "created_at"]]]),
  tableSpec(DELIVERIES_TABLE, DELIVERY_COLUMNS, [[`${DELIVERIES_TABLE}_due_idx`, ["state", "next_at"]]]),
];

type Sql = (q: (n: string) => string, p: (i: number) => string, dialect: Dialect) => string;

/** One statement in the three dialects; `text` gets the dialect's quoting and placeholders. */
function statement(name: string, args: number, text: Sql): StatementSpec {
  const sql = (d: Dialect): DialectSql => {
    // Postgres numbers its slots ($1 may be written twice); a `?` is one slot each time it is written.
    const used: number[] = [];
    const placeholder = (i: number): string => {
      used.push(i);
      return WORDS[d].placeholder(i);
    };
    const written = text(WORDS[d].quote, placeholder, d);
    return { text: written, slots: d === "postgres" ? Array.from({ length: args }, (_, i) => i) : used };
  };
  return { name: `${OUTBOX_TABLE}.${name}`, sql: { sqlite: sql("sqlite"), postgres: sql("postgres"), mysql: sql("mysql") } };
}

const E = (q: (n: string) => string): string => q(OUTBOX_TABLE);
const D = (q: (n: string) => string): string => q(DELIVERIES_TABLE);

export const outboxStatements = {
  /** Args `(id, type, body, created_at, traceparent, tracestate)`: the one statement `emit` adds to the action's transaction. */
  enqueue: statement("enqueue", 6, (q, p) =>
    `INSERT INTO ${E(q)} (${q("id")}, ${q("type")}, ${q("body")}, ${q("created_at")}, ${q("fanned_out")}, ${q("traceparent")}, ${q("tracestate")}) VALUES (${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, 0, ${p(4)}, ${p(5)})`,
  ),
  /** No args: up to BATCH events whose delivery rows are not made yet, oldest first. */
  unfanned: statement("unfanned", 0, (q) =>
    `SELECT ${q("id")}, ${q("type")}, ${q("created_at")} FROM ${E(q)} WHERE ${q("fanned_out")} = 0 ORDER BY ${q("created_at")}, ${q("id")} LIMIT ${BATCH}`,
  ),
  /** Args `(id, event_id, subscriber, next_at, created_at)`: no change when another process made the row first. */
  addDelivery: statement("add_delivery", 5, (q, p, d) => {
    const insert = `INTO ${D(q)} (${q("id")}, ${q("event_id")}, ${q("subscriber")}, ${q("state")}, ${q("attempts")}, ${q("next_at")}, ${q("lease_owner")}, ${q("lease_until")}, ${q("created_at")}) VALUES (${p(0)}, ${p(1)}, ${p(2)}, 'pending', 0, ${p(3)}, '', 0, ${p(4)})`;
    return d === "mysql" ? `INSERT IGNORE ${insert}` : `INSERT ${insert} ON CONFLICT (${q("id")}) DO NOTHING`;
  }),
  /** Args `(id)`. */
  fannedOut: statement("fanned_out", 1, (q, p) => `UPDATE ${E(q)} SET ${q("fanned_out")} = 1 WHERE ${q("id")} = ${p(0)}`),
  /** Args `(now)`: up to BATCH deliveries due and not leased, earliest due first, then in the order they were emitted. */
  due: statement("due", 1, (q, p) =>
    `SELECT ${q("id")} FROM ${D(q)} WHERE ${q("state")} = 'pending' AND ${q("next_at")} <= ${p(0)} AND ${q("lease_until")} <= ${p(0)} ORDER BY ${q("next_at")}, ${q("created_at")}, ${q("id")} LIMIT ${BATCH}`,
  ),
  /**
   * Args `(owner, lease_until, id, now)`: takes the lease when nobody holds it. The WHERE is
   * checked again under the row's write lock, so of two processes racing for one row exactly
   * one changes it.
   */
  lease: statement("lease", 4, (q, p) =>
    `UPDATE ${D(q)} SET ${q("lease_owner")} = ${p(0)}, ${q("lease_until")} = ${p(1)} WHERE ${q("id")} = ${p(2)} AND ${q("state")} = 'pending' AND ${q("lease_until")} <= ${p(3)}`,
  ),
  /** Args `(id)`: the leased delivery with its event, to send. */
  leased: statement("leased", 1, (q, p) =>
    `SELECT d.${q("id")}, d.${q("event_id")}, d.${q("subscriber")}, d.${q("attempts")}, e.${q("type")}, e.${q("body")}, e.${q("created_at")}, e.${q("traceparent")}, e.${q("tracestate")} FROM ${D(q)} d JOIN ${E(q)} e ON e.${q("id")} = d.${q("event_id")} WHERE d.${q("id")} = ${p(0)}`,
  ),
  /** Args `(state, attempts, next_at, last_status, last_error, id, owner)`: an attempt's outcome; releases the lease. */
  settle: statement("settle", 7, (q, p) =>
    `UPDATE ${D(q)} SET ${q("state")} = ${p(0)}, ${q("attempts")} = ${p(1)}, ${q("next_at")} = ${p(2)}, ${q("last_status")} = ${p(3)}, ${q("last_error")} = ${p(4)}, ${q("lease_owner")} = '', ${q("lease_until")} = 0 WHERE ${q("id")} = ${p(5)} AND ${q("lease_owner")} = ${p(6)}`,
  ),
  /** Args `(owner)`: gives back every lease of a process that stops, attempts unchanged. */
  release: statement("release", 1, (q, p) =>
    `UPDATE ${D(q)} SET ${q("lease_owner")} = '', ${q("lease_until")} = 0 WHERE ${q("lease_owner")} = ${p(0)} AND ${q("state")} = 'pending'`,
  ),
  /** No args: deliveries by state, and the oldest pending one's creation, for /health. */
  depth: statement("depth", 0, (q) =>
    `SELECT ${q("state")}, COUNT(*) AS ${q("n")}, MIN(${q("created_at")}) AS ${q("oldest")} FROM ${D(q)} GROUP BY ${q("state")}`,
  ),
  /** No args: events not fanned out yet (each becomes one or more pending deliveries). */
  unfannedCount: statement("unfanned_count", 0, (q) => `SELECT COUNT(*) AS ${q("n")} FROM ${E(q)} WHERE ${q("fanned_out")} = 0`),
};

export const outboxStatementList: readonly StatementSpec[] = Object.values(outboxStatements);
