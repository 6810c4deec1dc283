// One table before and after every kind of declared change, per dialect, as the compiler
// would hand it to the runtime: the writers' tests run its steps on real databases, and the
// evolve-plan goldens print them. The resource, in svc:
//
//   resource task {                       # was: title: text, estimate: text?, amount: text,
//     id: id                              #      owner: text?, legacy_notes: text, rnk: int?
//     headline: text renamed from title
//     estimate: int? changed from text using (CAST(estimate AS INTEGER)) lossy
//     price: int renamed from amount changed from text using (CAST(amount AS INTEGER)) lossy
//     owner: text backfill "nobody"
//     rnk: int backfill (length(id))
//     drop legacy_notes
//     unique (headline)
//   }
//   drop resource audit_old

import type { ColumnChange, TableChanges } from "../../runtime/contract/evolve.js";
import type { TableColumnDdl, TableDdl, TableSpec } from "../../runtime/contract/server.js";
import type { LiveColumnInfo } from "../../runtime/migrate/writer.js";

type Backend = "mysql" | "sqlite";

const q = (d: Backend, n: string) => (d === "mysql" ? `\`${n}\`` : `"${n}"`);

const types: Record<Backend, { id: string; text: string; int: string }> = {
  mysql: { id: "VARCHAR(64)", text: "TEXT", int: "BIGINT" },
  sqlite: { id: "TEXT", text: "TEXT", int: "INTEGER" },
};

function column(d: Backend, name: string, type: "id" | "text" | "int", nullable: boolean): TableColumnDdl {
  const sqlType = types[d][type];
  const key = type === "id" ? " PRIMARY KEY" : "";
  return {
    name,
    definition: `${q(d, name)} ${sqlType}${nullable ? "" : " NOT NULL"}${key}`,
    sqlType: d === "mysql" ? sqlType.replace(/\(.*/, "").toLowerCase() : sqlType,
    nullable,
    hasDefault: false,
  };
}

function ddl(d: Backend, table: string, columns: TableColumnDdl[], indexes: string[]): TableDdl {
  const tail = d === "mysql" ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin" : "";
  return {
    createTable: `CREATE TABLE IF NOT EXISTS ${q(d, table)} (\n  ${columns.map((c) => c.definition).join(",\n  ")}\n)${tail}`,
    columns,
    createIndexes: indexes,
    primaryKey: ["id"],
  };
}

/** The table as the old build declared it (what the live database holds before the deploy). */
export function oldTask(d: Backend): TableDdl {
  return ddl(
    d,
    "task",
    [
      column(d, "id", "id", false),
      column(d, "title", "text", false),
      column(d, "estimate", "text", true),
      column(d, "amount", "text", false),
      column(d, "owner", "text", true),
      column(d, "legacy_notes", "text", false),
      column(d, "rnk", "int", true),
    ],
    [],
  );
}

/** The unique index the new build declares over existing data. */
export function headlineIndex(d: Backend): string {
  return d === "mysql"
    ? "CREATE UNIQUE INDEX IF NOT EXISTS `task_headline_key` ON `task` (`headline`(255))"
    : 'CREATE UNIQUE INDEX IF NOT EXISTS "task_headline_key" ON "task" ("headline")';
}

const int: Record<Backend, (e: string) => string> = {
  mysql: (e) => `CAST(${e} AS SIGNED)`,
  sqlite: (e) => `CAST(${e} AS INTEGER)`,
};
const text: Record<Backend, (e: string) => string> = {
  mysql: (e) => `CAST(${e} AS CHAR)`,
  sqlite: (e) => `CAST(${e} AS TEXT)`,
};

/** Each dialect's text of a row expression; the other dialects' as the compiler would write them. */
function expr(make: (d: Backend) => string): Record<"mysql" | "sqlite" | "postgres", string> {
  return { mysql: make("mysql"), sqlite: make("sqlite"), postgres: make("sqlite") };
}

const fromText = {
  mysql: { declared: "TEXT", reported: "text" },
  sqlite: { declared: "TEXT", reported: "text" },
  postgres: { declared: "text", reported: "text" },
};

export const taskChanges: TableChanges = {
  columns: [
    { column: "headline", renamedFrom: "title" },
    {
      column: "estimate",
      retype: { from: fromText, up: expr((d) => int[d]("{estimate}")), down: expr((d) => text[d]("{estimate}")), lossy: true },
    },
    {
      column: "price",
      renamedFrom: "amount",
      retype: { from: fromText, up: expr((d) => int[d]("{amount}")), down: expr((d) => text[d]("{price}")), lossy: true },
    },
    { column: "owner", backfill: expr(() => "'nobody'") },
    { column: "rnk", backfill: expr(() => "length({id})") },
  ] satisfies ColumnChange[],
  dropColumns: ["legacy_notes"],
};

/** The table as the new build declares it, with its changes. */
export function newTask(d: Backend): TableSpec {
  const table = ddl(
    d,
    "task",
    [
      column(d, "id", "id", false),
      column(d, "headline", "text", false),
      column(d, "estimate", "int", true),
      column(d, "price", "int", false),
      column(d, "owner", "text", false),
      column(d, "rnk", "int", false),
    ],
    [headlineIndex(d)],
  );
  return { name: "task", ddl: { [d]: table }, changes: taskChanges };
}

/** The old table's columns as the planner reads them live. */
export function oldLive(d: Backend): LiveColumnInfo[] {
  return oldTask(d).columns.map((c) => {
    const declared = types[d][kindOf(c)];
    if (d === "sqlite") return { name: c.name, type: declared, nullable: c.nullable };
    const columnType = { "VARCHAR(64)": "varchar(64)", TEXT: "text", BIGINT: "bigint(20)" }[declared]!;
    return { name: c.name, type: columnType.replace(/\(.*/, ""), columnType, nullable: c.nullable };
  });
}

function kindOf(c: TableColumnDdl): "id" | "text" | "int" {
  return c.name === "id" ? "id" : c.name === "rnk" ? "int" : "text";
}

/** The live columns once expand ran (what contract is planned against). */
export function expandedLive(d: Backend): LiveColumnInfo[] {
  const added = (name: string, kind: "text" | "int"): LiveColumnInfo => {
    const declared = types[d][kind];
    if (d === "sqlite") return { name, type: declared, nullable: true };
    const columnType = kind === "text" ? "text" : "bigint(20)";
    return { name, type: columnType.replace(/\(.*/, ""), columnType, nullable: true };
  };
  // SQLite's expand rebuild made the columns the new build leaves out nullable.
  const relaxed = new Set(d === "sqlite" ? ["title", "amount", "legacy_notes"] : []);
  return [
    ...oldLive(d).map((c) => (relaxed.has(c.name) ? { ...c, nullable: true } : c)),
    added("headline", "text"),
    added("estimate__svc_new", "int"),
    added("price", "int"),
  ];
}
