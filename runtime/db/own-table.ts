// svc's own tables (idempotency keys, webhook deliveries, sessions, revocations) are the same
// in every project, so the runtime holds their DDL and statements in every dialect, each in
// the folder of the feature that owns it, and a generated server only says which features it
// uses. The DDL is what the compiler writes for a resource of the same fields
// (compiler/analyze/sql/ddl), so a database made by a server that still generated these
// tables migrates without a change.

import type { Dialect, DialectSql, StatementSpec, TableColumnDdl, TableDdl, TableSpec } from "../contract/index.js";

/** `key`: the text primary key; `now`: a timestamp defaulting to the moment of the insert. */
export type OwnColumnKind = "key" | "text" | "longtext" | "int" | "now";

export interface OwnColumn {
  name: string;
  kind: OwnColumnKind;
  nullable?: boolean;
}

export interface OwnTableShape {
  name: string;
  columns: OwnColumn[];
  /** One-column indexes, by name. */
  indexes: { name: string; column: string }[];
}

interface DialectWords {
  quote(name: string): string;
  /** Declared type, type the database reports, and the default of a `now` column. */
  types: Record<OwnColumnKind, [declared: string, reported: string]>;
  now: string;
  tableSuffix: string;
  /** MySQL indexes a TEXT column only by a prefix. */
  indexedText(quoted: string): string;
  placeholder(i: number): string;
}

const doubleQuoted = (n: string) => `"${n}"`;

const WORDS: Record<Dialect, DialectWords> = {
  sqlite: {
    quote: doubleQuoted,
    types: { key: ["TEXT", "TEXT"], text: ["TEXT", "TEXT"], longtext: ["TEXT", "TEXT"], int: ["INTEGER", "INTEGER"], now: ["TEXT", "TEXT"] },
    now: "(strftime('%Y-%m-%dT%H:%M:%fZ','now'))",
    tableSuffix: "",
    indexedText: (q) => q,
    placeholder: () => "?",
  },
  postgres: {
    quote: doubleQuoted,
    types: {
      key: ["text", "text"],
      text: ["text", "text"],
      longtext: ["text", "text"],
      int: ["bigint", "bigint"],
      now: ["timestamptz", "timestamp with time zone"],
    },
    now: "now()",
    tableSuffix: "",
    indexedText: (q) => q,
    placeholder: (i) => `$${i + 1}`,
  },
  mysql: {
    quote: (n) => `\`${n}\``,
    types: {
      key: ["VARCHAR(64)", "varchar"],
      text: ["TEXT", "text"],
      // An answer can be longer than TEXT's 64 KiB.
      longtext: ["LONGTEXT", "longtext"],
      int: ["BIGINT", "bigint"],
      now: ["DATETIME(3)", "datetime"],
    },
    now: "CURRENT_TIMESTAMP(3)",
    tableSuffix: " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    indexedText: (q) => `${q}(255)`,
    placeholder: () => "?",
  },
};

function ddl(shape: OwnTableShape, dialect: Dialect): TableDdl {
  const w = WORDS[dialect];
  const columns: TableColumnDdl[] = shape.columns.map((c) => {
    const [declared, reported] = w.types[c.kind];
    const nullable = c.nullable === true;
    const definition =
      `${w.quote(c.name)} ${declared}${nullable ? "" : " NOT NULL"}` +
      `${c.kind === "now" ? ` DEFAULT ${w.now}` : ""}${c.kind === "key" ? " PRIMARY KEY" : ""}`;
    return { name: c.name, definition, sqlType: reported, nullable, hasDefault: c.kind === "now" };
  });
  const indexed = (column: string) => {
    const kind = shape.columns.find((c) => c.name === column)?.kind;
    return kind === "text" || kind === "longtext" ? w.indexedText(w.quote(column)) : w.quote(column);
  };
  return {
    createTable: `CREATE TABLE IF NOT EXISTS ${w.quote(shape.name)} (\n${columns.map((c) => `  ${c.definition}`).join(",\n")}\n)${w.tableSuffix}`,
    columns,
    createIndexes: shape.indexes.map(
      (i) => `CREATE INDEX IF NOT EXISTS ${w.quote(i.name)} ON ${w.quote(shape.name)} (${indexed(i.column)})`,
    ),
    primaryKey: shape.columns.filter((c) => c.kind === "key").map((c) => c.name),
  };
}

/** The table in the three dialects. */
export function ownTable(shape: OwnTableShape): TableSpec {
  return { name: shape.name, ddl: { sqlite: ddl(shape, "sqlite"), postgres: ddl(shape, "postgres"), mysql: ddl(shape, "mysql") } };
}

/** `q` quotes a name, `p(i)` is the placeholder of argument i. */
export type OwnSql = (q: (name: string) => string, p: (i: number) => string, dialect: Dialect) => string;

/**
 * A statement in the three dialects, named `<table>.<name>`; `text` writes each. Slots bind
 * the arguments in order, each once; `dialects` adds a dialect's other entries (a read for
 * what RETURNING would give, where it has none).
 */
export function ownStatement(
  table: string,
  name: string,
  args: number,
  text: OwnSql,
  extra: Partial<Record<Dialect, Omit<DialectSql, "text" | "slots">>> = {},
): StatementSpec {
  const slots = Array.from({ length: args }, (_, i) => i);
  const sql = (d: Dialect): DialectSql => ({ text: text(WORDS[d].quote, WORDS[d].placeholder, d), slots, ...extra[d] });
  return { name: `${table}.${name}`, sql: { sqlite: sql("sqlite"), postgres: sql("postgres"), mysql: sql("mysql") } };
}
