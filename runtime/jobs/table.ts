// The tables `svc_jobs` and `svc_schedules` (docs/language.md §2.8) and every statement the
// runtime runs on them. The runtime owns them, as it owns `svc_revocations`: they are the
// same for every app, so their DDL is made here for each dialect, not printed into
// server.ts. Times are milliseconds since the Unix epoch (plain integer comparisons on
// every backend).
//
// A job row is `queued` (waiting for `run_at`), `running` (claimed; `run_at` is then the
// lease's end, after which another process may claim it again) or `failed` (its attempts
// spent; kept with its last error until retried or cancelled). A job that succeeds is
// deleted in its own transaction.

import type { Dialect, DialectSql, StatementSpec, TableColumnDdl, TableDdl, TableSpec } from "../contract/index.js";

export const JOBS_TABLE = "svc_jobs";
export const SCHEDULES_TABLE = "svc_schedules";

type Kind = "key" | "text" | "int" | "short" | "nullKey" | "nullText";

interface DialectWords {
  quote(name: string): string;
  types: Record<Kind, [declared: string, reported: string]>;
  tableSuffix: string;
  placeholder(i: number): string;
}

const WORDS: Record<Dialect, DialectWords> = {
  sqlite: {
    quote: (n) => `"${n}"`,
    types: { key: ["TEXT", "TEXT"], text: ["TEXT", "TEXT"], int: ["INTEGER", "INTEGER"], short: ["TEXT", "TEXT"], nullKey: ["TEXT", "TEXT"], nullText: ["TEXT", "TEXT"] },
    tableSuffix: "",
    placeholder: () => "?",
  },
  postgres: {
    quote: (n) => `"${n}"`,
    types: { key: ["text", "text"], text: ["text", "text"], int: ["bigint", "bigint"], short: ["text", "text"], nullKey: ["text", "text"], nullText: ["text", "text"] },
    tableSuffix: "",
    placeholder: (i) => `$${i + 1}`,
  },
  mysql: {
    quote: (n) => `\`${n}\``,
    types: {
      key: ["VARCHAR(64)", "varchar"],
      text: ["MEDIUMTEXT", "mediumtext"],
      int: ["BIGINT", "bigint"],
      short: ["VARCHAR(255)", "varchar"],
      nullKey: ["VARCHAR(64)", "varchar"],
      nullText: ["TEXT", "text"],
    },
    tableSuffix: " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    placeholder: () => "?",
  },
};

/**
 * Column name and kind, in table order. `unique_key` and the trace context are nullable: the
 * trace columns came later, and a nullable column is added to a table made before them at start.
 */
const JOB_COLUMNS: [string, Kind][] = [
  ["id", "key"],
  ["job", "short"],
  ["queue", "short"],
  ["args", "text"],
  ["state", "short"],
  ["priority", "int"],
  ["run_at", "int"],
  ["attempt", "int"],
  ["max_attempts", "int"],
  ["timeout_ms", "int"],
  ["lease_owner", "short"],
  ["last_error", "text"],
  ["unique_key", "nullKey"],
  ["created_at", "int"],
  // The W3C trace context of the span that enqueued the job (none from a schedule or an untraced server).
  ["traceparent", "nullText"],
  ["tracestate", "nullText"],
];

const SCHEDULE_COLUMNS: [string, Kind][] = [
  ["name", "key"],
  ["last_tick", "int"],
];

function tableDdl(dialect: Dialect, table: string, cols: [string, Kind][], indexes: string[]): TableDdl {
  const w = WORDS[dialect];
  const columns: TableColumnDdl[] = cols.map(([name, kind]) => {
    const [declared, reported] = w.types[kind];
    const nullable = kind === "nullKey" || kind === "nullText";
    const definition = `${w.quote(name)} ${declared}${nullable ? "" : " NOT NULL"}${kind === "key" ? " PRIMARY KEY" : ""}`;
    return { name, definition, sqlType: reported, nullable, hasDefault: false };
  });
  return {
    createTable: `CREATE TABLE IF NOT EXISTS ${w.quote(table)} (\n${columns.map((c) => `  ${c.definition}`).join(",\n")}\n)${w.tableSuffix}`,
    columns,
    createIndexes: indexes,
    primaryKey: [cols[0][0]],
  };
}

function jobsDdl(dialect: Dialect): TableDdl {
  const q = WORDS[dialect].quote;
  return tableDdl(dialect, JOBS_TABLE, JOB_COLUMNS, [
    // What a claim reads: the ready rows of a state, highest priority first.
    `CREATE INDEX IF NOT EXISTS ${q(`${JOBS_TABLE}_ready_idx`)} ON ${q(JOBS_TABLE)} (${q("state")}, ${q("run_at")})`,
    // Enqueue with `unique`: one pending job per key (NULL, the default, never collides).
    `CREATE UNIQUE INDEX IF NOT EXISTS ${q(`${JOBS_TABLE}_unique_key_key`)} ON ${q(JOBS_TABLE)} (${q("unique_key")})`,
  ]);
}

export const jobsTable: TableSpec = {
  name: JOBS_TABLE,
  ddl: { sqlite: jobsDdl("sqlite"), postgres: jobsDdl("postgres"), mysql: jobsDdl("mysql") },
};

export const schedulesTable: TableSpec = {
  name: SCHEDULES_TABLE,
  ddl: {
    sqlite: tableDdl("sqlite", SCHEDULES_TABLE, SCHEDULE_COLUMNS, []),
    postgres: tableDdl("postgres", SCHEDULES_TABLE, SCHEDULE_COLUMNS, []),
    mysql: tableDdl("mysql", SCHEDULES_TABLE, SCHEDULE_COLUMNS, []),
  },
};

type Text = (q: (n: string) => string, p: (i: number) => string, dialect: Dialect) => string;

/** One statement in the three dialects, or in those `text` gives (null: none); admin.ts's too. */
export function statement(name: string, args: number, text: (q: (n: string) => string, p: (i: number) => string, dialect: Dialect) => string | null): StatementSpec {
  const sql: Partial<Record<Dialect, DialectSql>> = {};
  for (const d of ["sqlite", "postgres", "mysql"] as const) {
    // `$N` binds argument N wherever it stands; each `?` takes the argument it was written for, in order.
    const used: number[] = [];
    const t = text(WORDS[d].quote, (i) => (used.push(i), WORDS[d].placeholder(i)), d);
    if (t !== null) sql[d] = { text: t, slots: d === "postgres" ? Array.from({ length: args }, (_, i) => i) : used };
  }
  return { name: `${JOBS_TABLE}.${name}`, sql };
}

const J: Text = (q) => q(JOBS_TABLE);
const S: Text = (q) => q(SCHEDULES_TABLE);
/** The columns a claim hands the runner. */
const CLAIMED: Text = (q) => ["id", "job", "args", "attempt", "max_attempts", "timeout_ms", "traceparent", "tracestate"].map(q).join(", ");
const INSERT_COLUMNS = JOB_COLUMNS.map(([name]) => name);
/** How much longer than its timeout a claim's lease lasts: the time to record the outcome. */
export const LEASE_MARGIN_MS = 5_000;

export const jobStatements = {
  /**
   * Args `(id, job, queue, args, priority, run_at, max_attempts, timeout_ms, unique_key, now,
   * traceparent, tracestate)`: a queued job. With a unique key already pending, nothing (no
   * error: enqueue is a no-op).
   */
  enqueue: statement("enqueue", 12, (q, p, d) => {
    const values = [p(0), p(1), p(2), p(3), "'queued'", p(4), p(5), "0", p(6), p(7), "''", "''", p(8), p(9), p(10), p(11)];
    const insert = `INSERT INTO ${J(q, p, d)} (${INSERT_COLUMNS.map(q).join(", ")}) VALUES (${values.join(", ")})`;
    if (d === "mysql") return `${insert} ON DUPLICATE KEY UPDATE ${q("id")} = ${q("id")}`;
    return `${insert} ON CONFLICT (${q("unique_key")}) DO NOTHING`;
  }),
  /**
   * Args `(now, limit)`: the ids of ready jobs, highest priority first, skipping rows another
   * claim holds (PostgreSQL, MySQL 8, MariaDB 10.6). A running job whose lease has ended is ready
   * again (its process died): at-least-once.
   */
  ready: statement("ready", 2, (q, p, d) => {
    const where = `${q("state")} IN ('queued', 'running') AND ${q("run_at")} <= ${p(0)} AND ${q("attempt")} < ${q("max_attempts")}`;
    const order = `ORDER BY ${q("priority")} DESC, ${q("run_at")}`;
    if (d !== "mysql") return null;
    return `SELECT ${q("id")} FROM ${J(q, p, d)} WHERE ${where} ${order} LIMIT ${p(1)} FOR UPDATE SKIP LOCKED`;
  }),
  /**
   * sqlite and postgres, args `(owner, now, limit)`: claims up to `limit` ready jobs in one
   * statement: under the write lock every SQLite transaction here takes (BEGIN IMMEDIATE), and
   * on PostgreSQL reading them `FOR UPDATE SKIP LOCKED`. MySQL has no UPDATE … RETURNING: it
   * takes them one by one (`ready`, `claimOne`, `claimed`).
   */
  claimBatch: statement("claim_batch", 3, (q, p, d) => {
    if (d === "mysql") return null;
    // Written in text order: each `?` binds the argument its p() call names.
    const set = `UPDATE ${J(q, p, d)} SET ${q("state")} = 'running', ${q("attempt")} = ${q("attempt")} + 1, ${q("lease_owner")} = ${p(0)}, ${q("run_at")} = ${p(1)} + ${q("timeout_ms")} + ${LEASE_MARGIN_MS}`;
    const where = `${q("state")} IN ('queued', 'running') AND ${q("run_at")} <= ${p(1)} AND ${q("attempt")} < ${q("max_attempts")}`;
    const lock = d === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
    const ready = `SELECT ${q("id")} FROM ${J(q, p, d)} WHERE ${where} ORDER BY ${q("priority")} DESC, ${q("run_at")} LIMIT ${p(2)}${lock}`;
    return `${set} WHERE ${q("id")} IN (${ready}) RETURNING ${CLAIMED(q, p, d)}`;
  }),
  /** Args `(owner, now, id)`: takes one job the `ready` read locked. */
  claimOne: statement("claim_one", 3, (q, p, d) =>
    d !== "mysql"
      ? null
      : `UPDATE ${J(q, p, d)} SET ${q("state")} = 'running', ${q("attempt")} = ${q("attempt")} + 1, ${q("lease_owner")} = ${p(0)}, ${q("run_at")} = ${p(1)} + ${q("timeout_ms")} + ${LEASE_MARGIN_MS} WHERE ${q("id")} = ${p(2)}`,
  ),
  /** Args `(id)`: the row as `claimOne` left it. */
  claimed: statement("claimed", 1, (q, p, d) => (d !== "mysql" ? null : `SELECT ${CLAIMED(q, p, d)} FROM ${J(q, p, d)} WHERE ${q("id")} = ${p(0)}`)),
  /** Args `(id, owner)`: a run that succeeded, in its own transaction; no row: the lease was lost. */
  complete: statement("complete", 2, (q, p, d) => `DELETE FROM ${J(q, p, d)} WHERE ${q("id")} = ${p(0)} AND ${q("lease_owner")} = ${p(1)} AND ${q("state")} = 'running'`),
  /** Args `(run_at, error, id, owner)`: a failed attempt with attempts left: queued again after its backoff. */
  retryLater: statement("retry_later", 4, (q, p, d) =>
    `UPDATE ${J(q, p, d)} SET ${q("state")} = 'queued', ${q("run_at")} = ${p(0)}, ${q("last_error")} = ${p(1)}, ${q("lease_owner")} = '' WHERE ${q("id")} = ${p(2)} AND ${q("lease_owner")} = ${p(3)} AND ${q("state")} = 'running'`,
  ),
  /** Args `(error, id, owner)`: the last attempt failed; kept, its unique key freed. */
  fail: statement("fail", 3, (q, p, d) =>
    `UPDATE ${J(q, p, d)} SET ${q("state")} = 'failed', ${q("last_error")} = ${p(0)}, ${q("lease_owner")} = '', ${q("unique_key")} = NULL WHERE ${q("id")} = ${p(1)} AND ${q("lease_owner")} = ${p(2)} AND ${q("state")} = 'running'`,
  ),
  /** Args `(now, id, owner)`: at shutdown, a claimed job not started or not finished goes back, its attempt not counted. */
  release: statement("release", 3, (q, p, d) =>
    `UPDATE ${J(q, p, d)} SET ${q("state")} = 'queued', ${q("run_at")} = ${p(0)}, ${q("attempt")} = ${q("attempt")} - 1, ${q("lease_owner")} = '' WHERE ${q("id")} = ${p(1)} AND ${q("lease_owner")} = ${p(2)} AND ${q("state")} = 'running'`,
  ),
  /** Args `(now)`: a lease that ended on the last attempt (its process died): failed. */
  expire: statement("expire", 1, (q, p, d) =>
    `UPDATE ${J(q, p, d)} SET ${q("state")} = 'failed', ${q("last_error")} = 'the lease of the last attempt ended before it finished', ${q("lease_owner")} = '', ${q("unique_key")} = NULL WHERE ${q("state")} = 'running' AND ${q("run_at")} <= ${p(0)} AND ${q("attempt")} >= ${q("max_attempts")}`,
  ),
  /** Args `(now)`: queue depth, running, failed, and the oldest ready job's `run_at` (null when none). */
  stats: statement("stats", 1, (q, p, d) => {
    const count = (cond: string) => `COALESCE(SUM(CASE WHEN ${cond} THEN 1 ELSE 0 END), 0)`;
    const ready = `${q("state")} = 'queued' AND ${q("run_at")} <= ${p(0)}`;
    return (
      `SELECT ${count(`${q("state")} = 'queued'`)} AS ${q("queued")}, ${count(`${q("state")} = 'running'`)} AS ${q("running")}, ` +
      `${count(`${q("state")} = 'failed'`)} AS ${q("failed")}, MIN(CASE WHEN ${ready} THEN ${q("run_at")} END) AS ${q("oldest")} FROM ${J(q, p, d)}`
    );
  }),
  /** Args `(name, last_tick)`: a schedule's row, unless it is there. */
  scheduleInit: statement("schedule_init", 2, (q, p, d) => {
    const insert = `INSERT INTO ${S(q, p, d)} (${q("name")}, ${q("last_tick")}) VALUES (${p(0)}, ${p(1)})`;
    return d === "mysql" ? `${insert} ON DUPLICATE KEY UPDATE ${q("name")} = ${q("name")}` : `${insert} ON CONFLICT (${q("name")}) DO NOTHING`;
  }),
  /** Args `(name)`: the last tick claimed. */
  scheduleRead: statement("schedule_read", 1, (q, p, d) => `SELECT ${q("last_tick")} FROM ${S(q, p, d)} WHERE ${q("name")} = ${p(0)}`),
  /** Args `(tick, name, previous)`: claims a tick; one row changed for exactly one process. */
  scheduleClaim: statement("schedule_claim", 3, (q, p, d) =>
    `UPDATE ${S(q, p, d)} SET ${q("last_tick")} = ${p(0)} WHERE ${q("name")} = ${p(1)} AND ${q("last_tick")} = ${p(2)}`,
  ),
};

export const jobStatementList: readonly StatementSpec[] = Object.values(jobStatements);
