// The history table (docs/migrations.md, "History"): one row per declared change and phase
// applied, with the build that applied it, when, and the SQL it ran. An open change is one
// with an expand row and no contract row; a server of the old build reads the open ones to
// accept the columns the new build added (keys.ts). Its DDL and statements are written here
// in every dialect, as each feature owns its table (start/own-tables.ts).

import type { Phase } from "../contract/evolve.js";
import type { Dialect, TableDdl, TableSpec } from "../contract/server.js";
import type { HistoryRow } from "./plan.js";

export const HISTORY_TABLE = "svc_migrations";

const COLUMNS = ["change", "phase", "build", "applied_at", "detail"] as const;

const quote: Record<Dialect, (n: string) => string> = {
  sqlite: (n) => `"${n}"`,
  postgres: (n) => `"${n}"`,
  mysql: (n) => `\`${n}\``,
};

function ddl(dialect: Dialect): TableDdl {
  const q = quote[dialect];
  // MySQL keys no TEXT column: the key's columns are VARCHAR there.
  const keyType = dialect === "mysql" ? ["VARCHAR(255)", "varchar"] : dialect === "postgres" ? ["text", "text"] : ["TEXT", "TEXT"];
  const textType = dialect === "mysql" ? ["LONGTEXT", "longtext"] : dialect === "postgres" ? ["text", "text"] : ["TEXT", "TEXT"];
  const columns = COLUMNS.map((name) => {
    const [declared, reported] = name === "change" || name === "phase" ? keyType : textType;
    return { name, definition: `${q(name)} ${declared} NOT NULL`, sqlType: reported!, nullable: false, hasDefault: false };
  });
  const suffix = dialect === "mysql" ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin" : "";
  return {
    createTable:
      `CREATE TABLE IF NOT EXISTS ${q(HISTORY_TABLE)} (\n${columns.map((c) => `  ${c.definition}`).join(",\n")},\n` +
      `  PRIMARY KEY (${q("change")}, ${q("phase")})\n)${suffix}`,
    columns,
    createIndexes: [],
    primaryKey: ["change", "phase"],
  };
}

/** The table in the three dialects (created by the migration engine when it first records a change). */
export const historyTable: TableSpec = {
  name: HISTORY_TABLE,
  ddl: { sqlite: ddl("sqlite"), postgres: ddl("postgres"), mysql: ddl("mysql") },
};

/** Args (change, phase, build, applied_at, detail); a row already there is kept (a resumed apply). */
export function recordSql(dialect: Dialect): string {
  const q = quote[dialect];
  const cols = COLUMNS.map(q).join(", ");
  const table = q(HISTORY_TABLE);
  if (dialect === "postgres") return `INSERT INTO ${table} (${cols}) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`;
  if (dialect === "mysql") return `INSERT IGNORE INTO ${table} (${cols}) VALUES (?, ?, ?, ?, ?)`;
  return `INSERT OR IGNORE INTO ${table} (${cols}) VALUES (?, ?, ?, ?, ?)`;
}

export function readSql(dialect: Dialect): string {
  const q = quote[dialect];
  return `SELECT ${q("change")}, ${q("phase")}, ${q("build")} FROM ${q(HISTORY_TABLE)} ORDER BY ${q("applied_at")}, ${q("change")}`;
}

export function historyRows(rows: readonly Record<string, unknown>[]): HistoryRow[] {
  return rows.map((r) => ({ change: String(r.change), phase: String(r.phase) as Phase, build: String(r.build) }));
}
