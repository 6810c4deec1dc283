// Brings a MySQL / MariaDB / TiDB database up to the declared resources at start
// (net/migrate.ts has the rules), under GET_LOCK: servers starting together queue on the
// named lock, the first makes the changes, the others find nothing left to do. Declared
// changes (renamed from, changed from, backfill, drop) are runtime/migrate's: their expand
// runs here under the same lock, their contract only by `svc migrate complete`.
//
// MySQL's DDL is not transactional: each statement commits on its own. Every step is
// idempotent (the plan is read from the live schema each time, indexes are created only
// when missing), so a start that fails halfway is completed by the next one; a refused
// difference is found before anything is changed.

import { StartupError } from "../../core/errors.js";
import type { TableSpec } from "../../contract/index.js";
import type { Constraints } from "../net/constraints.js";
import {
  type DeclaredTable,
  type LiveColumn,
  type MigrationPlan,
  declaredTables,
  execDdl,
  mismatchError,
  planMigration,
} from "../net/migrate.js";
import { type Connection, queryConstant } from "./conn.js";
import type { SchemaSpec } from "../../contract/evolve.js";
import type { Phase } from "../../contract/evolve.js";
import {
  type AppliedChange,
  type EvolvePlan,
  mysqlWriter,
  openRetypes,
  ownedColumns,
  planAtStart,
  retypeWaiting,
  runPhase,
  viewDatabaseName,
  withMigrationLock,
} from "../../migrate/index.js";
import { mysqlLiveSchema, mysqlSession } from "./evolve.js";
import { serverKind } from "./session.js";

/** Seconds a starting server waits for another one's migration. */
export const MYSQL_MIGRATE_LOCK_TIMEOUT_S = 60;

const LOCK_NAME = "CONCAT('svc.migrate:', DATABASE())";
const INDEX = /^CREATE (UNIQUE )?INDEX IF NOT EXISTS `((?:[^`]|``)+)` ON `((?:[^`]|``)+)`/;

/** What a migration found and did: the plans as they were before anything ran, and the changes run. */
export interface NetMigration {
  additive: MigrationPlan;
  evolve: EvolvePlan;
  applied: AppliedChange[];
  /** Why this build may not serve yet (a column retyped in place, expanded only), or null. */
  waiting: string | null;
  /**
   * MariaDB, while this build retypes a column in place: the database of its views, which its
   * connections use as their default database, and the shadow columns whose values they show;
   * null otherwise.
   */
  views: MysqlViews | null;
}

export interface MysqlViews {
  database: string;
  /** The app database the views read. */
  app: string;
  /** `table.column` of each shadow column the views show. */
  shadows: string[];
}

export interface MysqlMigrateOptions {
  /** `expand` at start and for `svc migrate apply`; `contract` for `svc migrate complete`; `plan` runs nothing. */
  phase?: Phase | "plan";
}

/**
 * At start: the additive changes and the declared changes' expand; throws when this build may
 * not serve; the build's view database when it serves through one.
 */
export async function migrateMysql(conn: Connection, tables: readonly TableSpec[], schema?: SchemaSpec): Promise<MysqlViews | null> {
  const result = await migrateMysqlPhase(conn, tables, schema);
  // Refused once expand ran: it is what the old build's servers need meanwhile.
  if (result.waiting !== null) throw new StartupError("SVC_ERR_MIGRATION", result.waiting);
  return result.views;
}

export async function migrateMysqlPhase(
  conn: Connection,
  tables: readonly TableSpec[],
  schema?: SchemaSpec,
  options: MysqlMigrateOptions = {},
): Promise<NetMigration> {
  const phase = options.phase ?? "expand";
  const declared = declaredTables(tables, "mysql");
  const got = await queryConstant<{ got: number | null }[]>(
    conn,
    `SELECT GET_LOCK(${LOCK_NAME}, ${MYSQL_MIGRATE_LOCK_TIMEOUT_S}) AS got`,
  );
  if (Number(got[0]?.got) !== 1) {
    throw new StartupError(
      "SVC_ERR_MIGRATION",
      `another server held the schema lock for ${MYSQL_MIGRATE_LOCK_TIMEOUT_S} s while this one waited to check its tables`,
    );
  }
  try {
    // Declared changes (runtime/migrate) own the columns they account for; both plans are made
    // on the schema as it is before anything changes, and refused before anything does.
    const session = mysqlSession(conn, true);
    const version = await queryConstant<{ v: string }[]>(conn, "SELECT VERSION() AS v");
    const writer = mysqlWriter(serverKind(String(version[0]?.v ?? "")));
    const app = String((await queryConstant<{ db: string | null }[]>(conn, "SELECT DATABASE() AS db"))[0]?.db ?? "");
    const viewDatabase = writer.view === undefined ? undefined : viewDatabaseName(app, schema?.build ?? "");
    const start = await planAtStart(session, writer, tables, schema, await mysqlLiveSchema(session, viewDatabase), app);
    const additive = await planMysql(conn, declared, (table) => ownedColumns(start.plan, table));
    const result: NetMigration = { additive, evolve: start.plan, applied: [], waiting: null, views: null };
    if (phase === "plan") return result;
    const problems = [...start.plan.problems, ...additive.problems];
    if (problems.length > 0) throw mismatchError(problems);
    await applyColumns(conn, additive);
    result.applied = await withMigrationLock(session, () => runPhase(session, phase, start.plan, start.history, schema?.build ?? "dev"));
    await applyIndexes(conn, declared);
    if (phase === "expand" && viewDatabase === undefined) result.waiting = retypeWaiting(start, tables);
    const open = openRetypes(start, tables);
    if (phase === "expand" && viewDatabase !== undefined && open.length > 0) {
      result.views = { database: viewDatabase, app, shadows: open.map((r) => `${r.table}.${r.shadow}`) };
    }
    return result;
  } finally {
    await queryConstant(conn, `SELECT RELEASE_LOCK(${LOCK_NAME})`);
  }
}

/** The plan against the live database, changing nothing (also what `svc check --db` reports). */
export async function planMysql(
  conn: Connection,
  declared: readonly DeclaredTable[],
  owned?: (table: string) => ReadonlySet<string>,
): Promise<MigrationPlan> {
  return planMigration(declared, await liveColumns(conn), sameType, owned);
}

/** MariaDB keeps JSON as longtext (with a json_valid CHECK); BOOLEAN is tinyint everywhere. */
export function sameType(live: string, declared: string): boolean {
  return live === declared || (declared === "json" && live === "longtext");
}

async function applyColumns(conn: Connection, plan: MigrationPlan): Promise<void> {
  const run = (text: string) => queryConstant(conn, text);
  for (const table of plan.create)
    await execDdl(run, table.ddl.createTable, `table ${table.name}: cannot create the table`);
  for (const { table, column } of plan.add) {
    await execDdl(
      run,
      `ALTER TABLE ${quoteIdent(table)} ADD COLUMN ${column.definition}`,
      `table ${table}: column ${column.name} cannot be added`,
    );
  }
}

async function applyIndexes(conn: Connection, declared: readonly DeclaredTable[]): Promise<void> {
  const run = (text: string) => queryConstant(conn, text);
  // MySQL has no CREATE INDEX IF NOT EXISTS (MariaDB and TiDB do): create only the missing ones.
  const existing = await liveIndexes(conn);
  for (const table of declared) {
    for (const sql of table.ddl.createIndexes) {
      const m = INDEX.exec(sql);
      const name = m?.[2].replace(/``/g, "`");
      if (name !== undefined && existing.has(`${table.name.toLowerCase()}.${name.toLowerCase()}`)) continue;
      await execDdl(run, sql.replace(" IF NOT EXISTS ", " "), `table ${table.name}: cannot create an index`);
    }
  }
}

async function liveColumns(conn: Connection): Promise<Map<string, LiveColumn[]>> {
  const rows = await queryConstant<
    { table_name: string; column_name: string; data_type: string; is_nullable: string; extra: string | null; key_position: number | null }[]
  >(
    conn,
    // With each column: its place in the primary key, and EXTRA, which says auto_increment.
    `SELECT c.TABLE_NAME AS table_name, c.COLUMN_NAME AS column_name, c.DATA_TYPE AS data_type,
            c.IS_NULLABLE AS is_nullable, c.EXTRA AS extra, s.SEQ_IN_INDEX AS key_position
       FROM information_schema.COLUMNS c
       LEFT JOIN information_schema.STATISTICS s
         ON s.TABLE_SCHEMA = c.TABLE_SCHEMA AND s.TABLE_NAME = c.TABLE_NAME
        AND s.COLUMN_NAME = c.COLUMN_NAME AND s.INDEX_NAME = 'PRIMARY'
      WHERE c.TABLE_SCHEMA = DATABASE()
      ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`,
  );
  const out = new Map<string, LiveColumn[]>();
  for (const r of rows) {
    const key = String(r.table_name).toLowerCase();
    const list = out.get(key) ?? [];
    list.push({
      name: String(r.column_name),
      type: String(r.data_type).toLowerCase(),
      nullable: r.is_nullable === "YES",
      keyPosition: Number(r.key_position ?? 0),
      numbered: /auto_increment/i.test(String(r.extra ?? "")),
    });
    out.set(key, list);
  }
  return out;
}

async function liveIndexes(conn: Connection): Promise<Set<string>> {
  const rows = await queryConstant<{ table_name: string; index_name: string }[]>(
    conn,
    `SELECT DISTINCT TABLE_NAME AS table_name, INDEX_NAME AS index_name
       FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE()`,
  );
  return new Set(rows.map((r) => `${String(r.table_name).toLowerCase()}.${String(r.index_name).toLowerCase()}`));
}

/**
 * Which field each CHECK guards, by the name the database gave it (MySQL and TiDB name
 * them `<table>_chk_<n>`, so an error names no column by itself). Empty where the server
 * does not list check constraints.
 */
export async function checkNames(conn: Connection, c: Constraints): Promise<Constraints["checkNames"]> {
  const out: Constraints["checkNames"] = new Map();
  let rows: { table_name: string; name: string; clause: string }[];
  try {
    rows = await queryConstant(
      conn,
      `SELECT tc.TABLE_NAME AS table_name, cc.CONSTRAINT_NAME AS name, cc.CHECK_CLAUSE AS clause
         FROM information_schema.CHECK_CONSTRAINTS cc
         JOIN information_schema.TABLE_CONSTRAINTS tc
           ON tc.CONSTRAINT_SCHEMA = cc.CONSTRAINT_SCHEMA AND tc.CONSTRAINT_NAME = cc.CONSTRAINT_NAME
          AND tc.CONSTRAINT_TYPE = 'CHECK'
        WHERE cc.CONSTRAINT_SCHEMA = DATABASE()`,
    );
  } catch {
    return out;
  }
  for (const r of rows) {
    const table = String(r.table_name);
    const clause = String(r.clause);
    const column = [...c.checks.keys()]
      .filter((key) => key.startsWith(`${table}.`))
      .map((key) => key.slice(table.length + 1))
      .find((col) => clause.includes(`\`${col}\``) || clause.includes(`"${col}"`));
    if (column !== undefined) out.set(String(r.name), { table, column });
  }
  return out;
}

function quoteIdent(name: string): string {
  return `\`${name.replace(/`/g, "``")}\``;
}
