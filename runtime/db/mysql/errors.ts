// MySQL, MariaDB and TiDB errors as answers, the same answers as on SQLite and PostgreSQL:
// a broken constraint is a 4xx naming the field, a database out of reach is a 503, a
// deadlock (and TiDB's write conflicts) is retried (retry.ts), anything else is returned
// unchanged and becomes a 500. Error numbers: MySQL's server error reference, MariaDB's
// error codes, TiDB's error codes page (8002, 8022, 8028, 9007, 9001-9006).

import { HttpError } from "../../core/errors.js";
import {
  type Constraints,
  checkViolation,
  fieldName,
  foreignKeyViolation,
  invalidValue,
  notNullViolation,
  uniqueIndexViolation,
  uniqueViolation,
} from "../net/constraints.js";
import { SOCKET_ERROR_CODES, busyError, unavailableError } from "../net/errors.js";

export type MysqlFlavor = "mysql" | "tidb";

interface MysqlErrorFields {
  errno?: unknown;
  code?: unknown;
  sqlMessage?: unknown;
  message?: unknown;
  fatal?: unknown;
}

/** The server's error number, or undefined for a client-side error (a socket, a timeout). */
export function mysqlErrno(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const errno = (err as MysqlErrorFields).errno;
  const code = (err as MysqlErrorFields).code;
  // Node's socket errors carry a negative errno next to a code such as ECONNREFUSED.
  return typeof errno === "number" &&
    errno > 0 &&
    !(typeof code === "string" && code.startsWith("E") && !code.startsWith("ER_"))
    ? errno
    : undefined;
}

/**
 * What a statement meets through a view database once contract has swapped a retyped column
 * in (1356: the view names the shadow column no longer there) or dropped the database (1146:
 * no such table; 1046: no database selected; 1049: unknown database, on a new connection).
 */
const VIEW_GONE: ReadonlySet<number> = new Set([1356, 1146, 1046, 1049]);

export function isViewGoneMysql(err: unknown): boolean {
  const errno = mysqlErrno(err);
  return errno !== undefined && VIEW_GONE.has(errno);
}

/** 1213: deadlock, the transaction was rolled back. */
const RETRY_MYSQL: ReadonlySet<number> = new Set([1213]);
/**
 * TiDB, besides 1213: 9007 write conflict (optimistic transactions), 8002 a SELECT … FOR
 * UPDATE that hit a conflict, 8022 the transaction's automatic retry failed, 8028 the
 * table's schema changed during the transaction. Each aborted the whole transaction.
 */
const RETRY_TIDB: ReadonlySet<number> = new Set([1213, 8002, 8022, 8028, 9007]);

export function isRetryableMysql(err: unknown, flavor: MysqlFlavor): boolean {
  const errno = mysqlErrno(err);
  return errno !== undefined && (flavor === "tidb" ? RETRY_TIDB : RETRY_MYSQL).has(errno);
}

const CONNECTION_CODES = new Set([
  ...SOCKET_ERROR_CODES,
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
  "POOL_CLOSED",
]);

// 1040 too many connections, 1053 server shutdown, 1077/1078/1079 shutdown, 1152/1153
// aborted or oversize packet, 1158-1161 network read/write errors, 1927 connection killed
// (MariaDB), 2002/2003/2006/2013 cannot connect, server gone, lost during query.
const CONNECTION_ERRNOS: ReadonlySet<number> = new Set([
  1040, 1053, 1077, 1078, 1079, 1152, 1158, 1159, 1160, 1161, 1927, 2002, 2003, 2006, 2013,
]);

/** The database cannot be reached, or dropped the connection (a restart, KILL). */
export function isUnavailableMysql(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as MysqlErrorFields;
  if (typeof e.code === "string" && CONNECTION_CODES.has(e.code)) return true;
  const errno = mysqlErrno(err);
  if (errno !== undefined && CONNECTION_ERRNOS.has(errno)) return true;
  // mysql2 marks errors after which the connection is unusable.
  return e.fatal === true;
}

// 1205 lock wait timeout, 1317 query interrupted (KILL QUERY), 3024 / 1969 the statement
// ran past max_execution_time / max_statement_time, TiDB 9001-9006 its storage or
// placement driver timed out or is busy.
const BUSY_ERRNOS: ReadonlySet<number> = new Set([1205, 1317, 3024, 1969, 9001, 9002, 9003, 9004, 9005, 9006]);

/** The HttpError for `err`, or `err` itself. Retryable errors are mapped once retries are over (retry.ts). */
export function mapMysqlError(err: unknown, c: Constraints): unknown {
  if (err instanceof HttpError) return err;
  if (isUnavailableMysql(err)) return unavailableError(err);
  const errno = mysqlErrno(err);
  if (errno === undefined) return err;
  if (BUSY_ERRNOS.has(errno)) return busyError(err);
  const e = err as MysqlErrorFields;
  const message = typeof e.sqlMessage === "string" ? e.sqlMessage : typeof e.message === "string" ? e.message : "";
  switch (errno) {
    case 1062: // ER_DUP_ENTRY: Duplicate entry '…' for key 'task.task_title_key' (MySQL) / 'task_title_key' (MariaDB)
      return duplicate(c, err, message);
    case 1451: // ER_ROW_IS_REFERENCED_2
    case 1452: // ER_NO_REFERENCED_ROW_2
    case 1216: // ER_NO_REFERENCED_ROW
    case 1217: // ER_ROW_IS_REFERENCED
      return foreignKeyViolation(err);
    case 1048: // ER_BAD_NULL_ERROR: Column 'title' cannot be null
    case 1364: {
      // ER_NO_DEFAULT_FOR_FIELD: Field 'title' doesn't have a default value
      const column = /^(?:Column|Field) '([^']+)'/.exec(message)?.[1];
      return column === undefined ? err : notNullViolation(c, err, null, column);
    }
    case 3819: {
      // MySQL, TiDB: Check constraint 'task_chk_1' is violated.
      const name = /constraint '([^']+)'/i.exec(message)?.[1] ?? "";
      const guarded = c.checkNames.get(name);
      return checkViolation(err, guarded?.column ?? null, name);
    }
    case 4025: {
      // MariaDB names a column's CHECK after the column: CONSTRAINT `task.priority` failed for `db`.`task`
      const m = /CONSTRAINT `([^`]+)` failed for `[^`]*`\.`([^`]+)`/.exec(message);
      if (m === null) return checkViolation(err, null, "constraint");
      const column = m[1].startsWith(`${m[2]}.`) ? m[1].slice(m[2].length + 1) : m[1];
      const known = c.columnTables.get(column.toLowerCase())?.includes(m[2]);
      return checkViolation(err, known ? column : null, m[1]);
    }
    case 1406: // ER_DATA_TOO_LONG: Data too long for column 'id' at row 1
      return invalidValue(err, columnIn(c, message), "too long");
    case 1264: // ER_WARN_DATA_OUT_OF_RANGE
    case 1265: // WARN_DATA_TRUNCATED
    case 1292: // ER_TRUNCATED_WRONG_VALUE (a malformed date)
    case 1366: // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
    case 1411: // ER_WRONG_VALUE_FOR_TYPE (STR_TO_DATE refused the text)
    case 3140: // ER_INVALID_JSON_TEXT
      return invalidValue(err, columnIn(c, message), "rejected by the database");
    default:
      return err;
  }
}

function duplicate(c: Constraints, err: unknown, message: string): HttpError {
  const m = /for key '(?:([^'.]+)\.)?([^']+)'$/.exec(message);
  if (m === null) return uniqueIndexViolation(err, "unknown");
  const [, named, key] = m;
  if (key === "PRIMARY") {
    // MariaDB names no table; the statement mysql2 attaches to the error does (`INSERT INTO \`page\` …`).
    const table = named ?? writtenTable(err);
    const pkTables = table !== undefined ? [table] : [...c.primaryKeys.keys()];
    const pks = new Set(pkTables.map((t) => c.primaryKeys.get(t)?.join(", ")).filter((x) => x !== undefined));
    if (pks.size === 1) {
      const pk = ([...pks][0] as string).split(", ");
      return uniqueViolation(c, err, pkTables.length === 1 ? pkTables[0] : null, pk);
    }
    return new HttpError(409, "a row with the same primary key already exists", { code: "SVC_ERR_CONSTRAINT", cause: err });
  }
  const index = c.uniqueIndexes.get(key);
  return index ? uniqueViolation(c, err, index.table, index.columns) : uniqueIndexViolation(err, key);
}

/** The table an INSERT or UPDATE writes, read from the statement mysql2 attaches to its error. */
function writtenTable(err: unknown): string | undefined {
  const sql = (err as { sql?: unknown })?.sql;
  if (typeof sql !== "string") return undefined;
  return /^\s*(?:INSERT\s+(?:IGNORE\s+)?INTO|UPDATE)\s+`((?:[^`]|``)+)`/i.exec(sql)?.[1].replaceAll("``", "`");
}

/** `column 'x'` or ``column `db`.`t`.`x` `` in a message, as `table.column` where known. */
function columnIn(c: Constraints, message: string): string | null {
  const m = /column (?:'([^']+)'|`[^`]*`\.`([^`]+)`\.`([^`]+)`)/i.exec(message);
  if (m === null) return null;
  return m[1] !== undefined ? fieldName(c, null, m[1]) : `${m[2]}.${m[3]}`;
}
