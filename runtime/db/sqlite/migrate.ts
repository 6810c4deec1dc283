// Brings a SQLite database up to the declared resources at start (docs/language.md §2.1):
// creates missing tables and indexes, adds missing columns that can be added without
// touching existing rows, and refuses every other difference no declared change accounts
// for. What a resource declares about how its table changed (renamed from, changed from,
// backfill, drop) is planned by runtime/migrate: its expand runs here, under the same lock;
// its contract (anything dropped) only by `svc migrate complete`.
//
// It all runs in one BEGIN IMMEDIATE transaction: several servers starting at once
// against one file (a rolling deploy, or the workers of one server) queue on the write
// lock; the first makes the changes, the others then find nothing left to do. A
// refused difference rolls back everything, so a failed start leaves no half-change.

import type BetterSqlite3 from "better-sqlite3";
import { StartupError } from "../../core/errors.js";
import { type LiveKey, keyProblems } from "../../keys/index.js";
import type { TableColumnDdl, TableDdl, TableSpec } from "../../contract/index.js";
import type { SchemaSpec } from "../../contract/evolve.js";
import type { Phase } from "../../contract/evolve.js";
import type { AppliedChange, EvolvePlan } from "../../migrate/index.js";
import type { MigrationPlan } from "../net/migrate.js";
import { sqliteLiveSchema, sqliteSession } from "./evolve.js";
import { retryWhileBusy } from "./busy-retry.js";
import { indexName } from "../index-name.js";
import { isBusy } from "./errors.js";

/** Creating an index on a big table holds the lock a while: servers starting meanwhile wait this long. */
export const MIGRATE_LOCK_TIMEOUT_MS = 60_000;

interface LiveColumn {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

/** What a migration found and did: the plans as they were before anything ran, and the changes run. */
export interface SqliteMigration {
  additive: MigrationPlan;
  evolve: EvolvePlan;
  applied: AppliedChange[];
  /** Why this build may not serve yet (a column retyped in place, expanded only), or null. */
  waiting: string | null;
}

export interface SqliteMigrateOptions {
  /** `expand` at start and for `svc migrate apply`; `contract` for `svc migrate complete`; `plan` changes nothing (it rolls back). */
  phase?: Phase | "plan";
  lockTimeoutMs?: number;
  /**
   * `plan` only: called with the database inside the transaction, the additive changes made,
   * before it rolls back (`svc check --db` prepares the statements there).
   */
  beforeRollback?: (migration: SqliteMigration) => void;
}

/** At start: the additive changes and the declared changes' expand; throws when this build may not serve. */
export async function migrateSqlite(
  db: BetterSqlite3.Database,
  tables: readonly TableSpec[],
  lockTimeoutMs: number = MIGRATE_LOCK_TIMEOUT_MS,
  schema?: SchemaSpec,
): Promise<void> {
  const result = await migrateSqlitePhase(db, tables, schema, { lockTimeoutMs });
  // Refused once expand is committed: it is what the old build's servers need meanwhile.
  if (result.waiting !== null) throw new StartupError("SVC_ERR_MIGRATION", result.waiting);
}

export async function migrateSqlitePhase(
  db: BetterSqlite3.Database,
  tables: readonly TableSpec[],
  schema?: SchemaSpec,
  options: SqliteMigrateOptions = {},
): Promise<SqliteMigration> {
  const phase = options.phase ?? "expand";
  const lockTimeoutMs = options.lockTimeoutMs ?? MIGRATE_LOCK_TIMEOUT_MS;
  const ddls = tables.map((table) => {
    const ddl = table.ddl.sqlite;
    if (ddl === undefined)
      throw new StartupError("SVC_ERR_MIGRATION", `table ${table.name} has no sqlite DDL; rebuild the server for the sqlite backend`);
    return { name: table.name, ddl };
  });
  try {
    await retryWhileBusy(() => db.exec("BEGIN IMMEDIATE"), lockTimeoutMs);
  } catch (err) {
    if (!isBusy(err)) throw err;
    throw new StartupError(
      "SVC_ERR_MIGRATION",
      `the database stayed locked by another connection for ${lockTimeoutMs / 1000} s while this server waited to check its tables`,
    );
  }
  try {
    // Declared changes (runtime/migrate) own the columns they account for; their plan is made
    // on the schema as it is before anything changes.
    const session = sqliteSession(db, true);
    const evolve = await declaredChanges(db, tables, schema);
    const start = evolve && (await evolve.planAtStart(session, evolve.sqliteWriter(), tables, schema, sqliteLiveSchema(db)));
    const additive: MigrationPlan = { create: [], add: [], problems: [] };
    for (const { name, ddl } of ddls) migrateTable(db, name, ddl, additive, evolve && start ? evolve.ownedColumns(start.plan, name) : NONE_OWNED);
    const result: SqliteMigration = { additive, evolve: start ? start.plan : emptyPlan(), applied: [], waiting: null };
    if (phase === "plan") {
      options.beforeRollback?.(result);
      db.exec("ROLLBACK");
      return result;
    }
    const problems = [...(start ? start.plan.problems : []), ...additive.problems];
    if (problems.length > 0) {
      throw new StartupError(
        "SVC_ERR_MIGRATION",
        "the database does not match the declared resources, and no data is dropped implicitly:\n" +
          problems.map((p) => `  - ${p}`).join("\n") +
          "\nchange the table by hand (or restore the declaration), then start again",
      );
    }
    if (evolve && start) result.applied = await evolve.runPhase(session, phase, start.plan, start.history, schema?.build ?? "dev");
    for (const { name, ddl } of ddls) {
      for (const sql of ddl.createIndexes) execDdl(db, sql, `table ${name}: cannot create an index`);
    }
    db.exec("COMMIT");
    if (phase === "expand" && evolve && start) result.waiting = evolve.retypeWaiting(start, tables);
    return result;
  } catch (err) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw err;
  }
}

const NONE_OWNED: ReadonlySet<string> = new Set();

function emptyPlan(): EvolvePlan {
  return { changes: [], owned: new Map(), expand: [], contract: [], problems: [] };
}

/**
 * The declared changes' machinery (runtime/migrate), loaded only where there is something for
 * it: a build that declares changes; a database whose history has some (a server of an older
 * build starting during a deploy must accept the columns an open change added); or an index
 * declared on a table that exists without it (a unique one is checked for repeated values
 * first). A server with none of these, the usual start, loads none of its modules.
 */
async function declaredChanges(
  db: BetterSqlite3.Database,
  tables: readonly TableSpec[],
  schema: SchemaSpec | undefined,
): Promise<typeof import("../../migrate/index.js") | null> {
  if (schema !== undefined) return import("../../migrate/index.js");
  const names = (type: string) =>
    new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = ?").all(type) as { name: string }[]).map((r) => r.name.toLowerCase()));
  const existing = names("table");
  if (existing.has("svc_migrations")) return import("../../migrate/index.js");
  const indexes = names("index");
  const lacking = tables.some(
    (t) =>
      existing.has(t.name.toLowerCase()) &&
      (t.ddl.sqlite?.createIndexes ?? []).some((sql) => {
        const name = indexName(sql);
        return name !== null && !indexes.has(name.toLowerCase());
      }),
  );
  return lacking ? import("../../migrate/index.js") : null;
}

function migrateTable(db: BetterSqlite3.Database, table: string, ddl: TableDdl, plan: MigrationPlan, owned: ReadonlySet<string>): void {
  const problems = plan.problems;
  let live = liveColumns(db, table);
  if (live.length === 0) {
    plan.create.push({ name: table, ddl });
    execDdl(db, ddl.createTable, `table ${table}: cannot create the table`);
    live = liveColumns(db, table);
    if (live.length === 0)
      throw new StartupError("SVC_ERR_MIGRATION", `table ${table}: its CREATE TABLE statement creates no table named ${table}`);
    // A fresh table is still compared below: that checks the DDL's own column list.
  }
  // SQLite matches column names case-insensitively.
  const liveByName = new Map(live.map((c) => [c.name.toLowerCase(), c]));
  for (const column of ddl.columns) {
    if (owned.has(column.name.toLowerCase())) continue;
    const have = liveByName.get(column.name.toLowerCase());
    if (have === undefined) {
      if (addColumn(db, table, column, problems)) plan.add.push({ table, column });
    }
    else compareColumn(table, column, have, problems);
  }
  problems.push(...keyProblems(table, ddl, liveKey(db, table, live)));
  const declared = new Set(ddl.columns.map((c) => c.name.toLowerCase()));
  for (const column of live) {
    if (!declared.has(column.name.toLowerCase()) && !owned.has(column.name.toLowerCase())) {
      problems.push(
        `table ${table}: column ${column.name} is in the database but not declared; add \`drop ${column.name}\` to drop it with its data, or \`renamed from ${column.name}\` on the field that replaces it`,
      );
    }
  }
}

/** Whether the column was added. */
function addColumn(db: BetterSqlite3.Database, table: string, column: TableColumnDdl, problems: string[]): boolean {
  if (!column.nullable && !column.hasDefault) {
    problems.push(
      `table ${table}: column ${column.name} is declared NOT NULL without a default, so it cannot be added to the existing rows; make it nullable or give it a default`,
    );
    return false;
  }
  try {
    db.exec(`ALTER TABLE ${quoteIdent(table)} ADD COLUMN ${column.definition}`);
    return true;
  } catch (err) {
    // e.g. "Cannot add a column with non-constant default" for `= now()`.
    problems.push(`table ${table}: column ${column.name} cannot be added: ${(err as Error).message}`);
    return false;
  }
}

function compareColumn(table: string, column: TableColumnDdl, have: LiveColumn, problems: string[]): void {
  if (normalizeType(have.type) !== normalizeType(column.sqlType)) {
    problems.push(
      `table ${table}: column ${column.name} is ${have.type || "untyped"} in the database but declared ${column.sqlType}; add \`changed from <its old type>\` on the field (with \`using (…) lossy\` when the conversion narrows)`,
    );
  }
  // An INTEGER PRIMARY KEY is the rowid: never null, though SQLite reports notnull = 0.
  const liveNullable = have.notnull === 0 && !(have.pk > 0 && normalizeType(have.type) === "INTEGER");
  if (liveNullable !== column.nullable) {
    problems.push(
      `table ${table}: column ${column.name} is ${liveNullable ? "nullable" : "NOT NULL"} in the database but declared ${column.nullable ? "nullable" : "NOT NULL"}`,
    );
  }
}

/** The key's columns (`pk` numbers them from 1), and the rowid key AUTOINCREMENT numbers, as `id(int)` declares it. */
function liveKey(db: BetterSqlite3.Database, table: string, live: LiveColumn[]): LiveKey {
  const columns = live.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  const sql = db.prepare<[string], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)?.sql ?? "";
  const rowid = columns.length === 1 && normalizeType(columns[0].type) === "INTEGER";
  return { columns: columns.map((c) => c.name), identity: rowid && /\bAUTOINCREMENT\b/i.test(sql) ? columns[0].name : null };
}

function liveColumns(db: BetterSqlite3.Database, table: string): LiveColumn[] {
  return db.prepare<[string], LiveColumn>('SELECT name, type, "notnull", pk FROM pragma_table_info(?)').all(table);
}

function execDdl(db: BetterSqlite3.Database, sql: string, what: string): void {
  try {
    db.exec(sql);
  } catch (err) {
    throw new StartupError("SVC_ERR_MIGRATION", `${what}: ${(err as Error).message}\n  ${sql}`);
  }
}

function normalizeType(type: string): string {
  return type.trim().replace(/\s+/g, " ").toUpperCase();
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
