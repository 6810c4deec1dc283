// A MigrationSession on one MySQL/MariaDB connection (mysql2), and the live schema as the
// planner reads it there. The lock is the named lock the additive migration takes
// (db/mysql/migrate.ts), so servers of every build and `svc migrate` exclude each other; it
// is held for the whole phase while each step commits on its own. A step's DDL commits by
// itself (MySQL's DDL is not transactional); a batch is a READ COMMITTED transaction, so it
// locks the rows it changes and no gap beside them.

import type { Connection } from "mysql2";
import type { ResultSetHeader } from "mysql2";
import { StartupError } from "../../core/errors.js";
import type { LiveColumnInfo, LiveSchema, MigrationSession } from "../../migrate/index.js";

/** Seconds a phase waits for another server's or `svc migrate`'s. */
export const MYSQL_EVOLVE_LOCK_TIMEOUT_S = 60;

const LOCK_NAME = "CONCAT('svc.migrate:', DATABASE())";

/**
 * `locked`: the caller already holds the named lock on `conn` (the start-up migration), so
 * lock and unlock leave it alone; GET_LOCK is re-entrant, RELEASE_LOCK would let go too soon.
 */
export function mysqlSession(conn: Connection, locked = false): MigrationSession {
  const send = (text: string, params: readonly unknown[] = []) =>
    new Promise<unknown>((resolve, reject) => conn.query(text, params as unknown[], (err, result) => (err ? reject(err) : resolve(result))));
  const exec = async (text: string): Promise<number> => {
    const result = await send(text);
    return Array.isArray(result) ? 0 : ((result as ResultSetHeader | undefined)?.affectedRows ?? 0);
  };
  let limit: { name: string; value: string } | null = null;
  return {
    dialect: "mysql",
    exec,
    async transaction(fn) {
      await send("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
      await send("START TRANSACTION");
      try {
        const out = await fn(exec);
        await send("COMMIT");
        return out;
      } catch (err) {
        await send("ROLLBACK").catch(() => undefined);
        throw err;
      }
    },
    async query(text, params = []) {
      const rows = await send(text, params);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    },
    async hasTable(table) {
      const rows = await send("SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?", [table]);
      return Array.isArray(rows) && rows.length > 0;
    },
    async lock() {
      // A backfill or an index build is not a request: no statement time limit while migrating
      // (MariaDB's variable, else MySQL's), put back as it was when the phase is over.
      for (const name of ["max_statement_time", "max_execution_time"]) {
        const read = (await send(`SELECT @@SESSION.${name} AS v`).catch(() => null)) as { v: unknown }[] | null;
        if (read === null) continue;
        limit = { name, value: String(read[0]?.v ?? 0) };
        await send(`SET SESSION ${name} = 0`);
        break;
      }
      if (locked) return;
      const rows = (await send(`SELECT GET_LOCK(${LOCK_NAME}, ${MYSQL_EVOLVE_LOCK_TIMEOUT_S}) AS got`)) as { got: number | null }[];
      if (Number(rows[0]?.got) !== 1) {
        throw new StartupError("SVC_ERR_MIGRATION", `another server or svc migrate held the schema lock for ${MYSQL_EVOLVE_LOCK_TIMEOUT_S} s`);
      }
    },
    async unlock() {
      if (limit !== null) await send(`SET SESSION ${limit.name} = ${Number(limit.value)}`);
      limit = null;
      if (!locked) await send(`SELECT RELEASE_LOCK(${LOCK_NAME})`);
    },
  };
}

/**
 * Every table's columns (with COLUMN_TYPE, which MODIFY needs) and every index name of the
 * database; with `viewDatabase` (MariaDB, a build retyping in place), the views it holds.
 */
export async function mysqlLiveSchema(session: MigrationSession, viewDatabase?: string): Promise<LiveSchema> {
  const rows = await session.query(
    `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS name, DATA_TYPE AS type, COLUMN_TYPE AS column_type, IS_NULLABLE AS nullable
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  );
  const json = await jsonColumns(session);
  const tables = new Map<string, LiveColumnInfo[]>();
  for (const r of rows) {
    const key = String(r.table_name).toLowerCase();
    const list = tables.get(key) ?? [];
    let type = String(r.type).toLowerCase();
    // MariaDB keeps JSON as longtext checked by json_valid: the planner compares it with the declared `json`.
    if (type === "longtext" && json.has(`${key}.${String(r.name).toLowerCase()}`)) type = "json";
    list.push({ name: String(r.name), type, columnType: String(r.column_type).toLowerCase(), nullable: r.nullable === "YES" });
    tables.set(key, list);
  }
  const indexes = await session.query(`SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()`);
  const live: LiveSchema = { tables, indexes: new Set(indexes.map((r) => String(r.name).toLowerCase())) };
  if (viewDatabase !== undefined) {
    const views = await session.query(`SELECT TABLE_NAME AS name FROM information_schema.VIEWS WHERE TABLE_SCHEMA = ?`, [viewDatabase]);
    live.views = new Set(views.map((r) => `${viewDatabase}.${String(r.name)}`.toLowerCase()));
  }
  return live;
}

/** `table.column` (lower-cased) of MariaDB's JSON columns: a CHECK json_valid(column) guards each. */
async function jsonColumns(session: MigrationSession): Promise<Set<string>> {
  let rows: Record<string, unknown>[];
  try {
    rows = await session.query(
      `SELECT TABLE_NAME AS table_name, CHECK_CLAUSE AS clause FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE()`,
    );
  } catch {
    return new Set(); // a server without the view (MySQL before 8.0.16) has no such columns
  }
  const out = new Set<string>();
  for (const r of rows) {
    // Quoted as the session's sql_mode prints identifiers: `a`, or "a" under ANSI_QUOTES.
    const m = /^json_valid\((?:`((?:[^`]|``)+)`|"((?:[^"]|"")+)")\)$/i.exec(String(r.clause).trim());
    const column = m?.[1]?.replace(/``/g, "`") ?? m?.[2]?.replace(/""/g, '"');
    if (column !== undefined) out.add(`${String(r.table_name).toLowerCase()}.${column.toLowerCase()}`);
  }
  return out;
}
