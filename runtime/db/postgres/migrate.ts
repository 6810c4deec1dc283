// Brings a PostgreSQL schema up to the declared resources at start (net/migrate.ts has
// the rules). Everything happens in one transaction holding a transaction-scoped advisory
// lock keyed by the schema: servers starting together queue on the lock, the first makes
// the changes, the others find nothing left to do; a refused difference or a failed
// statement rolls everything back (PostgreSQL's DDL is transactional), so a failed start
// leaves no half-change.

import type { Sql, TransactionSql } from "postgres";
import type { TableSpec } from "../../contract/index.js";
import {
  type DeclaredTable,
  type LiveColumn,
  type MigrationPlan,
  declaredTables,
  execDdl,
  mismatchError,
  planMigration,
} from "../net/migrate.js";

/** How long a starting server waits for another one's migration (index builds on big tables take a while). */
export const PG_MIGRATE_LOCK_TIMEOUT = "60s";

export async function migratePostgres(sql: Sql, tables: readonly TableSpec[], schema: string | null): Promise<void> {
  const declared = declaredTables(tables, "postgres");
  await sql.begin(async (tx) => {
    // The connection's statement_timeout is the request deadline; building an index is not a request.
    await tx.unsafe(`SET LOCAL statement_timeout = 0`);
    await tx.unsafe(`SET LOCAL lock_timeout = '${PG_MIGRATE_LOCK_TIMEOUT}'`);
    await tx.unsafe(
      `SELECT pg_advisory_xact_lock(hashtext('svc.migrate:' || coalesce($1::text, current_schema(), '')))`,
      [schema],
    );
    if (schema !== null) await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    const plan = await planPostgres(tx, declared);
    if (plan.problems.length > 0) throw mismatchError(plan.problems);
    await applyPlan(tx, plan, declared);
  });
}

/** The plan against the live schema, changing nothing (also what `svc check --db` reports). */
export async function planPostgres(
  tx: Sql | TransactionSql,
  declared: readonly DeclaredTable[],
): Promise<MigrationPlan> {
  return planMigration(declared, await liveColumns(tx), (live, want) => live === want);
}

async function applyPlan(tx: TransactionSql, plan: MigrationPlan, declared: readonly DeclaredTable[]): Promise<void> {
  const run = (text: string) => tx.unsafe(text);
  for (const table of plan.create)
    await execDdl(run, table.ddl.createTable, `table ${table.name}: cannot create the table`);
  for (const { table, column } of plan.add) {
    await execDdl(
      run,
      `ALTER TABLE ${quoteIdent(table)} ADD COLUMN ${column.definition}`,
      `table ${table}: column ${column.name} cannot be added`,
    );
  }
  // IF NOT EXISTS makes this idempotent: indexes declared since the table was made appear now.
  for (const table of declared) {
    for (const index of table.ddl.createIndexes)
      await execDdl(run, index, `table ${table.name}: cannot create an index`);
  }
}

/** Columns of every table in the current schema, by lower-cased table name. */
async function liveColumns(tx: Sql | TransactionSql): Promise<Map<string, LiveColumn[]>> {
  type Live = { table_name: string; column_name: string; data_type: string; is_nullable: string; numbered: boolean; key_position: number | null };
  // With each column: its place in the primary key, and whether the database numbers it (identity or serial).
  const rows = await tx.unsafe<Live[]>(
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
  );
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
