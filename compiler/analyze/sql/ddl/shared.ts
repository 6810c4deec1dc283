import type { DefaultValue, FieldModel, Literal, ResourceModel, TableDdl } from "../../model/model.js";

// The part of DDL every dialect shares: column order, NOT NULL, PRIMARY KEY, DEFAULT,
// CHECK, index statements. Each dialect file supplies only what differs (its Rules).

/** A resource as DDL and the SQL checks read it: without its DDL (made from this) and its place in the source. */
export type ResourceShape = Omit<ResourceModel, "ddl" | "at">;

export interface Rules {
  quoteIdent(name: string): string;
  quoteString(value: string): string;
  /** The type written in DDL, and the type as the database reports it back. */
  columnType(field: FieldModel, primaryKey: boolean): { declared: string; reported: string };
  /**
   * An `id(int)` key the database numbers: its type, and what follows `PRIMARY KEY`
   * (SQLite's AUTOINCREMENT, MySQL's AUTO_INCREMENT; PostgreSQL says it in the type).
   */
  identity: { declared: string; reported: string; suffix: string };
  /** A boolean as a SQL literal. */
  bool(value: boolean): string;
  /** A timestamp string as the dialect stores it (input already normalized to ISO-8601 UTC). */
  timestamp(iso: string): string;
  /** The `now()` default. */
  now: string;
  /** Wraps a literal default where the column type only takes expression defaults (MySQL TEXT/JSON). */
  wrapDefault(field: FieldModel, literal: string): string;
  /** CHECK conditions beyond enum membership (json validity, 0/1 booleans). */
  extraChecks(field: FieldModel, column: string): string[];
  /** One column of an index, e.g. `"created_at" DESC`. */
  indexColumn(field: FieldModel | undefined, name: string, desc: boolean): string;
  /** Text after the closing parenthesis of CREATE TABLE. */
  tableSuffix: string;
}

export function buildTableDdl(resource: ResourceShape, rules: Rules): TableDdl {
  // A key of one field is said on its column (as every table said it before composite keys);
  // a key of several, after the columns.
  const single = resource.primaryKey.length === 1;
  let identity: string | undefined;
  const columns = resource.fields.map((field) => {
    const primaryKey = resource.primaryKey.includes(field.name);
    const column = rules.quoteIdent(field.name);
    const numbered = field.generated === "identity" && single && primaryKey;
    if (numbered) identity = field.name;
    const type = numbered ? rules.identity : rules.columnType(field, primaryKey);
    const parts = [column, type.declared];
    if (!field.nullable || primaryKey) parts.push("NOT NULL");
    if (primaryKey && single) parts.push("PRIMARY KEY");
    if (numbered && rules.identity.suffix) parts.push(rules.identity.suffix);
    const hasDefault = field.default !== null && !primaryKey;
    if (hasDefault) parts.push(`DEFAULT ${renderDefault(field, field.default!, rules)}`);
    const checks = [...rules.extraChecks(field, column)];
    if (field.type === "enum" && field.enumValues.length > 0) {
      checks.unshift(`${column} IN (${field.enumValues.map((v) => rules.quoteString(v)).join(", ")})`);
    }
    for (const c of checks) parts.push(`CHECK (${c})`);
    return {
      name: field.name,
      definition: parts.join(" "),
      sqlType: type.reported,
      nullable: field.nullable && !primaryKey,
      hasDefault,
    };
  });
  const table = rules.quoteIdent(resource.name);
  const lines = columns.map((c) => `  ${c.definition}`);
  if (!single) lines.push(`  PRIMARY KEY (${resource.primaryKey.map(rules.quoteIdent).join(", ")})`);
  const createTable = `CREATE TABLE IF NOT EXISTS ${table} (\n` + lines.join(",\n") + `\n)${rules.tableSuffix}`;
  const createIndexes = resource.indexes.map((index) => {
    const cols = index.columns.map((c) =>
      rules.indexColumn(
        resource.fields.find((f) => f.name === c.name),
        c.name,
        c.desc,
      ),
    );
    return `CREATE ${index.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS ${rules.quoteIdent(index.name)} ON ${table} (${cols.join(", ")})`;
  });
  const ddl: TableDdl = { createTable, columns, createIndexes, primaryKey: [...resource.primaryKey] };
  if (identity !== undefined) ddl.identity = identity;
  return ddl;
}

function renderDefault(field: FieldModel, value: DefaultValue, rules: Rules): string {
  if (value.kind === "now") return rules.now;
  if (value.value === null) return "NULL";
  // A json column holds JSON text, so its default is the literal's JSON encoding.
  if (field.type === "json") return rules.wrapDefault(field, rules.quoteString(JSON.stringify(value.value)));
  if (typeof value.value === "object") throw new Error(`internal: a ${field.type} field with a JSON default`);
  return rules.wrapDefault(field, renderLiteral(field, value.value, rules));
}

export function renderLiteral(field: FieldModel, value: Exclude<Literal, null>, rules: Rules): string {
  if (typeof value === "boolean") return rules.bool(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NULL";
  if (field.type === "timestamp") {
    const iso = normalizeTimestamp(value);
    return rules.quoteString(iso === null ? value : rules.timestamp(iso));
  }
  return rules.quoteString(value);
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(Z|[+-]\d{2}:?\d{2})?$/;

/** An ISO-8601 date or date-time as `YYYY-MM-DDTHH:MM:SS.mmmZ`; a time without a zone is UTC. Null when unparseable. */
export function normalizeTimestamp(text: string): string | null {
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return null;
  const [, date, time, zone] = m;
  const ms = Date.parse(time ? `${date}T${time}${zone ?? "Z"}` : `${date}T00:00:00Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** `'…'` with quotes doubled: the SQL-standard string literal (SQLite, PostgreSQL). */
export function standardString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
