// Brings a PostgreSQL schema up to the declared resources at start (net/migrate.ts has the
// additive rules, runtime/migrate the declared changes beyond them). One reserved connection
// holds a session advisory lock keyed by the schema for the whole migration: servers starting
// together queue on it, the first makes the changes, the others find nothing left to do. The
// additive part (tables created, columns added) runs in one transaction, so a refused
// difference or a failed statement leaves no half-change; then the expand steps of declared
// changes run, each in a transaction of its own (runtime/migrate/engine.ts), resumable.

import type { Sql, TransactionSql } from "postgres";
import type { SchemaSpec, TableSpec } from "../../contract/index.js";
import {
  type AppliedChange,
  type EvolvePlan,
  type LiveSchema,
  ownedColumns,
  planChanges,
  postgresSession,
  postgresWriter,
  readHistory,
  runPhase,
  viewSchemaName,
  withMigrationLock,
} from "../../migrate/index.js";
import type { Phase } from "../../contract/evolve.js";
import {
  type DeclaredTable,
  type LiveColumn,
  type MigrationPlan,
  declaredTables,
  execDdl,
  mismatchError,
  planMigration,
} from "../net/migrate.js";

export { PG_MIGRATE_LOCK_TIMEOUT } from "../../migrate/index.js";

export interface PostgresMigration {
  /** The additive plan and the declared changes' plan, as they were before anything ran. */
  additive: MigrationPlan;
  evolve: EvolvePlan;
  applied: AppliedChange[];
  /**
   * The schema of this build's views while a column is retyped in place (its connections put
   * it first on their search_path); null when no such change is unfinished.
   */
  viewSchema: string | null;
}

export interface MigrateOptions {
  /** `expand` at start and for `svc migrate apply`; `contract` for `svc migrate complete`; `plan` runs nothing. */
  phase?: Phase | "plan";
}

export async function migratePostgres(
  sql: Sql,
  tables: readonly TableSpec[],
  schema: string | null,
  spec?: SchemaSpec,
  options: MigrateOptions = {},
): Promise<PostgresMigration> {
  const declared = declaredTables(tables, "postgres");
  const phase = options.phase ?? "expand";
  const { session, release } = await postgresSession(sql, schema);
  try {
    return await withMigrationLock(session, async () => {
      if (schema !== null) await session.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      const [current] = await session.query(`SELECT current_schema() AS name`);
      const base = String(current?.name ?? "public");
      const live = await liveSchema(session.query);
      const history = await readHistory(session);
      const build = spec?.build ?? "dev";
      const evolve = planChanges({ dialect: "postgres", tables, schema: spec, live, history, writer: postgresWriter(), dbSchema: base });
      const additive = planMigration(declared, live.columns, (l, want) => l === want, (t) => ownedColumns(evolve, t));
      const result: PostgresMigration = { additive, evolve, applied: [], viewSchema: viewSchemaOf(evolve, build, base) };
      // `svc migrate plan` shows the problems as diagnostics; anything else stops on them.
      if (phase === "plan") return result;
      const problems = [...evolve.problems, ...additive.problems];
      if (problems.length > 0) throw mismatchError(problems);
      await session.transaction(async (exec) => applyAdditive((text) => exec(text), additive));
      if (phase === "contract") {
        // The new build's tables are all there; the changes' contract steps run on their own.
        result.applied = await runPhase(session, "contract", evolve, history, build);
        result.viewSchema = null;
        // A retype's swap drops the old column with its indexes: the declared ones are built again, online.
        const after = planChanges({ dialect: "postgres", tables, schema: spec, live: await liveSchema(session.query), history: [], writer: postgresWriter(), dbSchema: base });
        const indexes = { ...after, changes: after.changes.filter((c) => c.kind === "index") };
        result.applied.push(...(await runPhase(session, "expand", indexes, await readHistory(session), build)));
      } else {
        result.applied = await runPhase(session, "expand", evolve, history, build);
      }
      return result;
    });
  } finally {
    release();
  }
}

/** The view schema when some column retyped in place (not renamed: its shadow column has no name of its own) is not done. */
function viewSchemaOf(plan: EvolvePlan, build: string, base: string): string | null {
  const open = plan.changes.some((c) => c.status !== "done" && c.column?.retype !== undefined && c.column.renamedFrom === undefined);
  return open ? viewSchemaName(build, base) : null;
}

/** The plan against the live schema, changing nothing (also what `svc check --db` reports). */
export async function planPostgres(
  tx: Sql | TransactionSql,
  declared: readonly DeclaredTable[],
): Promise<MigrationPlan> {
  const query = (text: string) => tx.unsafe(text) as unknown as Promise<Record<string, unknown>[]>;
  return planMigration(declared, (await liveSchema(query)).columns, (live, want) => live === want);
}

/** Tables created (with their indexes) and columns added; indexes on existing tables are the planner's (built CONCURRENTLY). */
async function applyAdditive(run: (sql: string) => Promise<unknown>, plan: MigrationPlan): Promise<void> {
  for (const table of plan.create) {
    await execDdl(run, table.ddl.createTable, `table ${table.name}: cannot create the table`);
    for (const index of table.ddl.createIndexes) await execDdl(run, index, `table ${table.name}: cannot create an index`);
  }
  for (const { table, column } of plan.add) {
    await execDdl(
      run,
      `ALTER TABLE ${quoteIdent(table)} ADD COLUMN ${column.definition}`,
      `table ${table}: column ${column.name} cannot be added`,
    );
  }
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** The live tables' columns and the schema's index names. */
export async function liveSchema(query: Query): Promise<LiveSchema & { columns: Map<string, LiveColumn[]> }> {
  const columns = await liveColumns(query);
  const rows = await query(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()`);
  // The views builds read a table through while its columns are retyped (svc_<build>, <schema>_svc_<build>).
  const views = await query(
    `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'v' AND (starts_with(n.nspname, 'svc_') OR starts_with(n.nspname, current_schema() || '_svc_'))`,
  );
  return {
    columns,
    tables: columns,
    indexes: new Set(rows.map((r) => String(r.indexname).toLowerCase())),
    views: new Set(views.map((r) => String(r.name).toLowerCase())),
  };
}

/** Columns of every table in the current schema, by lower-cased table name. */
async function liveColumns(query: Query): Promise<Map<string, LiveColumn[]>> {
  type Live = { table_name: string; column_name: string; data_type: string; is_nullable: string; numbered: boolean; key_position: number | null };
  // With each column: its place in the primary key, and whether the database numbers it (identity or serial).
  const rows = (await query(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable,
            (c.is_identity = 'YES' OR coalesce(c.column_default, '') LIKE 'nextval(%') AS numbered,
            k.ordinal_position AS key_position
       FROM information_schema.columns c
       LEFT JOIN information_schema.table_constraints t
         ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.constraint_type = 'PRIMARY KEY'
       LEFT JOIN information_schema.key_column_usage k
         ON k.constraint_schema = t.constraint_schema AND k.constraint_name = t.constraint_name
        AND k.table_name = c.table_name AND k.column_name = c.column_name
      WHERE c.table_schema = current_schema()
      ORDER BY c.table_name, c.ordinal_position`,
  )) as unknown as Live[];
  const out = new Map<string, LiveColumn[]>();
  for (const r of rows) {
    const key = r.table_name.toLowerCase();
    const list = out.get(key) ?? [];
    list.push({
      name: r.column_name,
      type: r.data_type.toLowerCase(),
      nullable: r.is_nullable === "YES",
      keyPosition: Number(r.key_position ?? 0),
      numbered: r.numbered === true,
    });
    out.set(key, list);
  }
  return out;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
