// PostgreSQL errors as answers (the same answers as SQLite's, sqlite/errors.ts): a
// constraint the client broke is a 4xx naming the field, a database that cannot be
// reached or is shutting down is a 503, a serialization failure or a deadlock is retried
// (retry.ts). Anything else is returned unchanged: the server logs it and answers 500.
// SQLSTATE codes: https://www.postgresql.org/docs/current/errcodes-appendix.html

import { HttpError } from "../../core/errors.js";
import {
  type Constraints,
  checkViolation,
  foreignKeyViolation,
  invalidValue,
  notNullViolation,
  uniqueIndexViolation,
  uniqueViolation,
} from "../net/constraints.js";
import { SOCKET_ERROR_CODES, busyError, unavailableError } from "../net/errors.js";

interface PgErrorFields {
  code?: unknown;
  detail?: unknown;
  table_name?: unknown;
  column_name?: unknown;
  constraint_name?: unknown;
  message?: unknown;
}

/** The SQLSTATE of an error the server sent, or undefined (a network error, a bug). */
export function sqlState(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null || (err as { name?: unknown }).name !== "PostgresError") return undefined;
  const code = (err as PgErrorFields).code;
  return typeof code === "string" ? code : undefined;
}

/**
 * 40001 serialization_failure, 40P01 deadlock_detected: the transaction had no effect; run
 * it again. So does a stale plan (isStalePlan).
 */
export function isRetryablePostgres(err: unknown): boolean {
  const state = sqlState(err);
  return state === "40001" || state === "40P01" || (state === "0A000" && isStalePlan(err));
}

/**
 * "cached plan must not change result type": a statement prepared on this connection reads
 * a table whose columns changed since (another server's migration added one). Nothing ran.
 * postgres.js forgets the statement when it reports this, so the next try prepares it
 * afresh; inside a transaction that next try has to be a new transaction, since the
 * failed statement aborted this one.
 */
export function isStalePlan(err: unknown): boolean {
  return (err as { routine?: unknown }).routine === "RevalidateCachedQuery";
}

// postgres.js's own connection errors, and Node's socket errors.
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  ...SOCKET_ERROR_CODES,
]);

/** The database cannot be reached, or dropped the connection (a restart, pg_terminate_backend). */
export function isUnavailablePostgres(err: unknown): boolean {
  const state = sqlState(err);
  if (state !== undefined) {
    // 08: connection exception; 57P01-57P03: admin/crash shutdown, cannot connect now;
    // 53: out of connections, memory or disk.
    return (
      state.startsWith("08") || state === "57P01" || state === "57P02" || state === "57P03" || state.startsWith("53")
    );
  }
  const code = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && CONNECTION_CODES.has(code);
}

/**
 * `rows` as the statement's own answer. Every statement PostgreSQL completes ends in a
 * CommandComplete, which gives postgres.js's result its `command` ("INSERT 0 1" → INSERT);
 * a result without one was resolved by something else than this statement's completion
 * (a connection cut and reopened under it), so it says nothing about what was written.
 * Answering it would make an INSERT … RETURNING that never ran read as a success with no
 * row (issue 15, part 2): it is a lost connection instead, a 503.
 */
export function completed<T extends { command?: unknown }>(rows: T): T {
  if (typeof rows.command === "string" && rows.command !== "") return rows;
  throw unavailableError(new Error("the database's answer to a statement was cut short"));
}

/** The HttpError for `err`, or `err` itself. Retryable errors are mapped only once retries are over (retry.ts). */
export function mapPostgresError(err: unknown, c: Constraints): unknown {
  if (err instanceof HttpError) return err;
  if (isUnavailablePostgres(err)) return unavailableError(err);
  // postgres.js's own 57014, for a query it dropped before any connection took it.
  if ((err as { code?: unknown })?.code === "57014") return busyError(err);
  const state = sqlState(err);
  if (state === undefined) return err;
  const e = err as PgErrorFields;
  const table = typeof e.table_name === "string" ? e.table_name : null;
  const column = typeof e.column_name === "string" ? e.column_name : null;
  const constraint = typeof e.constraint_name === "string" ? e.constraint_name : "";
  switch (state) {
    case "23505":
      return unique(c, err, table, constraint, typeof e.detail === "string" ? e.detail : "");
    case "23503":
      return foreignKeyViolation(err);
    case "23502":
      return column === null ? err : notNullViolation(c, err, table, column);
    case "23514":
      return checkViolation(err, checkColumn(c, table, constraint), constraint);
    case "22001": // string_data_right_truncation
      return invalidValue(err, column, "too long");
    case "22P02": // invalid_text_representation (e.g. malformed JSON for a jsonb column)
    case "22007": // invalid_datetime_format
    case "22008": // datetime_field_overflow
    case "22003": // numeric_value_out_of_range
      return invalidValue(err, column, String(e.message ?? "rejected by the database"));
    case "22021": // character_not_in_repertoire: PostgreSQL text cannot hold a NUL (U+0000)
    case "22P05": // untranslatable_character
      return invalidValue(err, column, "text with a character PostgreSQL cannot store (such as U+0000)");
    case "57014": // query_canceled: statement_timeout, or cancelled at its deadline (postgres/gate.ts)
    case "55P03": // lock_not_available
      return busyError(err);
    default:
      return err;
  }
}

const KEY_DETAIL = /^Key \((.*)\)=\(/s;
const PLAIN_COLUMN = /^"?([A-Za-z_][A-Za-z0-9_$]*)"?$/;

function unique(c: Constraints, err: unknown, table: string | null, constraint: string, detail: string): HttpError {
  // `Key (title)=(Write docs) already exists.`: the column list, never the values (they
  // may be someone else's data).
  const key = KEY_DETAIL.exec(detail);
  const columns = key ? key[1].split(", ").map((part) => PLAIN_COLUMN.exec(part.trim())?.[1] ?? null) : [];
  if (columns.length > 0 && columns.every((x) => x !== null))
    return uniqueViolation(c, err, table, columns as string[]);
  const index = c.uniqueIndexes.get(constraint);
  if (index) return uniqueViolation(c, err, index.table, index.columns);
  return uniqueIndexViolation(err, constraint);
}

/** PostgreSQL names a column's CHECK `<table>_<column>_check` (plus a number when taken). */
function checkColumn(c: Constraints, table: string | null, constraint: string): string | null {
  if (table === null || !constraint.startsWith(`${table}_`)) return null;
  const column = constraint.slice(table.length + 1).replace(/_check\d*$/, "");
  return c.checks.has(`${table}.${column}`) ? column : null;
}
