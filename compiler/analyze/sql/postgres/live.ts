import postgres, { type TransactionSql } from "postgres";
import { declaredTables, planMigration } from "../../../../runtime/db/net/migrate.js";
import { parseNetUrl } from "../../../../runtime/db/net/url.js";
import { liveSchema, quoteIdent } from "../../../../runtime/db/postgres/migrate.js";
import { POSTGRES_TYPES } from "../../../../runtime/db/postgres/types.js";
import type { SchemaSpec, TableSpec } from "../../../../runtime/contract/index.js";
import { HISTORY_TABLE, historyRows, readSql } from "../../../../runtime/migrate/history.js";
import { ownedColumns, planChanges } from "../../../../runtime/migrate/plan.js";
import { postgresWriter } from "../../../../runtime/migrate/postgres.js";
import type { LiveAnswer, LiveReport, LiveStatement, LiveType } from "../live.js";
import { schemaFindings, standIns } from "../live-plan.js";

// `svc check --db postgres://…`: every statement parsed and described by the live server
// (never run), inside one transaction that is rolled back at the end. Missing tables and
// columns are created in that transaction first, as the server would create them at
// start, so a database the server has not migrated yet is checked as it will be; a table a
// declared change not yet complete reshapes is stood in for as the plan leaves it (live-plan.ts).

const TYPES: Record<number, LiveType> = {
  25: "text",
  1043: "text",
  1042: "text",
  19: "text",
  18: "text",
  705: "text",
  20: "int",
  21: "int",
  23: "int",
  26: "int",
  700: "number",
  701: "number",
  1700: "number",
  16: "bool",
  1114: "timestamp",
  1184: "timestamp",
  1082: "date",
  114: "json",
  3802: "json",
};

const TYPE_NAMES: Record<number, string> = {
  25: "text",
  1043: "varchar",
  20: "bigint",
  21: "smallint",
  23: "integer",
  700: "real",
  701: "double precision",
  1700: "numeric",
  16: "boolean",
  1114: "timestamp",
  1184: "timestamptz",
  1082: "date",
  114: "json",
  3802: "jsonb",
  17: "bytea",
  1083: "time",
  1186: "interval",
  2950: "uuid",
};

class Rollback extends Error {}

export async function livePostgres(
  url: string,
  tables: readonly TableSpec[],
  statements: readonly LiveStatement[],
  schema?: SchemaSpec,
): Promise<LiveReport> {
  const target = parseNetUrl(url, "postgres");
  const connection: Record<string, string> = { application_name: "svc check", TimeZone: "UTC" };
  if (target.schema !== null) connection.search_path = target.schema;
  const sql = postgres(target.driverUrl, {
    max: 1,
    connect_timeout: target.settings.connectTimeoutMs / 1000,
    onnotice: () => undefined,
    fetch_types: false,
    types: POSTGRES_TYPES,
    connection,
  });
  const report: LiveReport = { schema: [], statements: [], pending: [] };
  try {
    await sql
      .begin(async (tx) => {
        if (target.schema !== null) await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(target.schema)}`);
        const declared = declaredTables(tables, "postgres");
        const query = (text: string) => tx.unsafe(text) as unknown as Promise<Record<string, unknown>[]>;
        const live = await liveSchema(query);
        const [current] = await query(`SELECT current_schema() AS name, to_regclass(quote_ident(current_schema()) || '.${HISTORY_TABLE}') IS NOT NULL AS history`);
        const history = current?.history === true ? historyRows(await query(readSql("postgres"))) : [];
        const evolve = planChanges({ dialect: "postgres", tables, ...(schema ? { schema } : {}), live, history, writer: postgresWriter(), dbSchema: String(current?.name ?? "public") });
        const plan = planMigration(declared, live.columns, (l, want) => l === want, (t) => ownedColumns(evolve, t));
        Object.assign(report, schemaFindings(plan, evolve));
        for (const table of plan.create) await tx.unsafe(table.ddl.createTable);
        for (const { table, column } of plan.add)
          await tx.unsafe(`ALTER TABLE ${quoteIdent(table)} ADD COLUMN ${column.definition}`);
        // A temporary table is searched before the schema: it stands in for the real one.
        for (const statement of [...standIns("postgres", tables, live.columns, plan, evolve, quoteIdent).values()].flat()) await tx.unsafe(statement);
        for (const s of statements) report.statements.push(await describe(tx, s));
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
  } finally {
    await sql.end({ timeout: 1 });
  }
  return report;
}

/** Parse and describe in a savepoint, so a refused statement leaves the transaction usable for the next. */
async function describe(tx: TransactionSql, s: LiveStatement): Promise<LiveAnswer> {
  try {
    const d = await tx.savepoint((sp) => sp.unsafe(s.text, [], { prepare: true }).describe());
    return {
      name: s.name,
      error: null,
      columns: (d.columns ?? []).map((c) => ({
        name: c.name,
        type: TYPES[c.type] ?? "other",
        typeName: TYPE_NAMES[c.type] ?? `type ${c.type}`,
      })),
    };
  } catch (err) {
    const e = err as { message?: unknown; position?: unknown };
    const position = Number(e.position);
    return {
      name: s.name,
      error: {
        message: String(e.message ?? err),
        offset: Number.isInteger(position) && position > 0 ? position - 1 : null,
      },
      columns: [],
    };
  }
}
