// Where `svc migrate` runs a phase: one connection of its own to the database `--db` names
// (PostgreSQL, MySQL/MariaDB, or a SQLite file), opened as the server's adapter opens its
// migration's, with no statement deadline (a backfill is not a request), and closed after.

import type { Phase } from "../../runtime/contract/evolve.js";
import type { SchemaSpec, TableSpec } from "../../runtime/contract/index.js";
import type { MigrationPlan } from "../../runtime/db/net/migrate.js";
import { parseNetUrl } from "../../runtime/db/net/url.js";
import type { AppliedChange } from "../../runtime/migrate/engine.js";
import type { EvolvePlan } from "../../runtime/migrate/plan.js";

export type MigrateBackend = "postgres" | "mysql" | "sqlite";

export interface Migration {
  additive: MigrationPlan;
  evolve: EvolvePlan;
  applied: AppliedChange[];
}

export async function runMigration(
  backend: MigrateBackend,
  db: string,
  tables: readonly TableSpec[],
  schema: SchemaSpec | undefined,
  phase: Phase | "plan",
): Promise<Migration> {
  if (backend === "postgres") return postgresPhase(db, tables, schema, phase);
  if (backend === "mysql") return mysqlPhase(db, tables, schema, phase);
  return sqlitePhase(db, tables, schema, phase);
}

async function postgresPhase(db: string, tables: readonly TableSpec[], schema: SchemaSpec | undefined, phase: Phase | "plan"): Promise<Migration> {
  const { default: postgres } = await import("postgres");
  const { POSTGRES_TYPES } = await import("../../runtime/db/postgres/types.js");
  const { migratePostgres } = await import("../../runtime/db/postgres/migrate.js");
  const target = parseNetUrl(db, "postgres");
  const connection: Record<string, string> = { application_name: "svc migrate", TimeZone: "UTC" };
  if (target.schema !== null) connection.search_path = target.schema;
  const sql = postgres(target.driverUrl, {
    max: 1,
    connect_timeout: target.settings.connectTimeoutMs / 1000,
    onnotice: () => undefined,
    fetch_types: false,
    types: POSTGRES_TYPES,
    connection,
  });
  try {
    return await migratePostgres(sql, tables, target.schema, schema, { phase });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function mysqlPhase(db: string, tables: readonly TableSpec[], schema: SchemaSpec | undefined, phase: Phase | "plan"): Promise<Migration> {
  const { default: mysql } = await import("mysql2");
  const { queryConstant } = await import("../../runtime/db/mysql/conn.js");
  const { serverKind, sessionStatements } = await import("../../runtime/db/mysql/session.js");
  const { migrateMysqlPhase } = await import("../../runtime/db/mysql/migrate.js");
  const target = parseNetUrl(db, "mysql");
  const conn = mysql.createConnection({ uri: target.driverUrl, connectTimeout: target.settings.connectTimeoutMs, charset: "UTF8MB4_BIN", multipleStatements: false });
  conn.on("error", () => undefined);
  try {
    const version = await queryConstant<{ version: string }[]>(conn, "SELECT VERSION() AS version");
    // 0: no statement deadline.
    for (const statement of sessionStatements(serverKind(String(version[0]?.version ?? "")), 0)) await queryConstant(conn, statement);
    return await migrateMysqlPhase(conn, tables, schema, { phase });
  } finally {
    await new Promise<void>((resolve) => conn.end(() => resolve()));
  }
}

async function sqlitePhase(db: string, tables: readonly TableSpec[], schema: SchemaSpec | undefined, phase: Phase | "plan"): Promise<Migration> {
  const { default: BetterSqlite3 } = await import("better-sqlite3");
  const { sqlitePath } = await import("../../runtime/db/index.js");
  const { migrateSqlitePhase } = await import("../../runtime/db/sqlite/migrate.js");
  // A plan never creates the file it is asked about.
  const file = new BetterSqlite3(sqlitePath(db), { timeout: 5000, fileMustExist: phase === "plan" });
  try {
    return await migrateSqlitePhase(file, tables, schema, { phase });
  } finally {
    file.close();
  }
}
