// A MigrationSession on the SQLite connection (better-sqlite3), and the live schema as the
// planner reads it there. The lock is the database's write lock (BEGIN IMMEDIATE), the one
// the additive migration takes: servers starting together and `svc migrate` queue on it. It
// is held for the whole phase, so on SQLite other writers wait for all of it, batches
// included (readers go on in WAL mode); each step is a savepoint inside it. Held by the
// caller's transaction (the start-up migration, `svc migrate`), a failure undoes the phase.

import type BetterSqlite3 from "better-sqlite3";
import { StartupError } from "../../core/errors.js";
import { retryWhileBusy } from "./busy-retry.js";
import { isBusy } from "./errors.js";
import type { LiveColumnInfo, LiveSchema, MigrationSession } from "../../migrate/index.js";

/** How long a phase waits for another connection's write lock. */
export const SQLITE_EVOLVE_LOCK_TIMEOUT_MS = 60_000;

/** `held`: the caller's transaction already holds the write lock (the start-up migration): lock and unlock leave it alone. */
export function sqliteSession(db: BetterSqlite3.Database, held = false): MigrationSession {
  const exec = async (sql: string): Promise<number> => {
    let stmt: BetterSqlite3.Statement;
    try {
      stmt = db.prepare(sql);
    } catch (err) {
      // A rebuild or a trigger step holds several statements; the count is the last one's.
      if (!/more than one statement/i.test((err as Error).message)) throw err;
      db.exec(sql);
      return (db.prepare("SELECT changes() AS n").get() as { n: number }).n;
    }
    return stmt.reader ? stmt.all().length : stmt.run().changes;
  };
  let savepoints = 0;
  return {
    dialect: "sqlite",
    exec,
    async transaction(fn) {
      const name = `svc_step_${++savepoints}`;
      db.exec(`SAVEPOINT ${name}`);
      try {
        const out = await fn(exec);
        db.exec(`RELEASE ${name}`);
        return out;
      } catch (err) {
        db.exec(`ROLLBACK TO ${name}`);
        db.exec(`RELEASE ${name}`);
        throw err;
      }
    },
    async query(sql, params = []) {
      const stmt = db.prepare(sql);
      if (stmt.reader) return stmt.all(...(params as unknown[])) as Record<string, unknown>[];
      stmt.run(...(params as unknown[]));
      return [];
    },
    async hasTable(table) {
      return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    },
    async lock() {
      if (held) return;
      try {
        await retryWhileBusy(() => db.exec("BEGIN IMMEDIATE"), SQLITE_EVOLVE_LOCK_TIMEOUT_MS);
      } catch (err) {
        if (!isBusy(err)) throw err;
        throw new StartupError("SVC_ERR_MIGRATION", `the database stayed locked by another connection for ${SQLITE_EVOLVE_LOCK_TIMEOUT_MS / 1000} s`);
      }
    },
    async unlock() {
      if (!held && db.inTransaction) db.exec("COMMIT");
    },
  };
}

/** Every table's columns and every index name, lower-cased (SQLite's internal tables left out). */
export function sqliteLiveSchema(db: BetterSqlite3.Database): LiveSchema {
  const tables = new Map<string, LiveColumnInfo[]>();
  const names = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all();
  for (const { name } of names) {
    const columns = db
      .prepare<[string], { name: string; type: string; notnull: number; pk: number }>('SELECT name, type, "notnull", pk FROM pragma_table_info(?)')
      .all(name)
      // An INTEGER PRIMARY KEY is the rowid: never null, though SQLite reports notnull = 0.
      .map((c) => ({ name: c.name, type: c.type.toLowerCase(), nullable: c.notnull === 0 && !(c.pk > 0 && c.type.toUpperCase() === "INTEGER") }));
    tables.set(name.toLowerCase(), columns);
  }
  const indexes = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index'").all();
  return { tables, indexes: new Set(indexes.map((i) => i.name.toLowerCase())) };
}
