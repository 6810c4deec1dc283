// How every mysql connection is set up before its first statement, so that MySQL,
// MariaDB and TiDB behave alike, and like the other backends:
// - time_zone UTC: DATETIME(3) columns hold UTC wall time, and CURRENT_TIMESTAMP(3) (the
//   `now()` default) is UTC too.
// - sql_mode: strict (a bad value is an error, never a silently truncated or zeroed one),
//   ANSI_QUOTES and PIPES_AS_CONCAT (`"name"` is an identifier and `||` concatenates, as in
//   SQLite and PostgreSQL, so one query text serves every backend), ONLY_FULL_GROUP_BY
//   (as PostgreSQL), NO_AUTO_VALUE_ON_ZERO (an `id(int)` key given as 0 is stored as 0, as on
//   the other backends, not numbered as if left out). Backslashes in string literals stay escapes (MySQL's default): the
//   compiler warns about them (SVC3110) rather than changing what the DDL's strings mean.
// - a statement time limit equal to the request deadline.
// - transactions SERIALIZABLE on MySQL and MariaDB (see postgres.ts for why); TiDB has no
//   SERIALIZABLE, so its action transactions are optimistic (`BEGIN OPTIMISTIC`): a write
//   conflict aborts one of them at commit (9007) and it is run again.

import type { Isolation } from "../../contract/index.js";

export type ServerKind = "mysql" | "mariadb" | "tidb";

export const SQL_MODE = [
  "ANSI_QUOTES",
  "PIPES_AS_CONCAT",
  "ONLY_FULL_GROUP_BY",
  "STRICT_TRANS_TABLES",
  "STRICT_ALL_TABLES",
  "NO_ZERO_IN_DATE",
  "NO_ZERO_DATE",
  "ERROR_FOR_DIVISION_BY_ZERO",
  "NO_ENGINE_SUBSTITUTION",
  "NO_AUTO_VALUE_ON_ZERO",
].join(",");

/** Which server answers, from `SELECT VERSION()`: `8.0.36`, `10.11.6-MariaDB-0+deb12u1`, `8.0.11-TiDB-v7.5.1`. */
export function serverKind(version: string): ServerKind {
  if (/TiDB/i.test(version)) return "tidb";
  if (/MariaDB/i.test(version)) return "mariadb";
  return "mysql";
}

/** The statements that set a fresh connection up, in order (constants only: no value from a request). */
export function sessionStatements(kind: ServerKind, requestTimeoutMs: number): string[] {
  const limit =
    kind === "mariadb"
      ? `max_statement_time = ${(requestTimeoutMs / 1000).toFixed(3)}`
      : `max_execution_time = ${Math.round(requestTimeoutMs)}`;
  const set = `SET time_zone = '+00:00', sql_mode = '${SQL_MODE}', ${limit}`;
  return kind === "tidb" ? [set] : [set, "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE"];
}

/**
 * What starts an action's transaction, in order. Sessions are SERIALIZABLE; another isolation
 * is set for the next transaction only (`SET TRANSACTION`, without SESSION). TiDB has no
 * SERIALIZABLE: its optimistic transactions are snapshot isolation, which is also what TiDB
 * calls REPEATABLE READ; its READ COMMITTED needs a pessimistic transaction.
 */
export function beginStatements(kind: ServerKind, isolation: Isolation = "serializable"): readonly string[] {
  if (kind === "tidb") {
    return isolation === "read committed" ? [SET_READ_COMMITTED, "BEGIN PESSIMISTIC"] : ["BEGIN OPTIMISTIC"];
  }
  if (isolation === "read committed") return [SET_READ_COMMITTED, "START TRANSACTION"];
  if (isolation === "repeatable read") return ["SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", "START TRANSACTION"];
  return ["START TRANSACTION"];
}

const SET_READ_COMMITTED = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED";
