import type { Dialect, FieldModel, RowExpression, ScalarType } from "../../model/model.js";

// The conversions svc derives for a widening type change (docs/language.md §2.1, Changing a
// resource): `up` turns an old value into the new type, `down` a new value back into the old
// one for servers of the older build while both run. Every value of the old type has a value of
// the new one; the way back is guarded, so a value the old type cannot hold becomes NULL
// instead of failing the new build's write. `{c}` is the column the expression reads.

type Typed = Pick<FieldModel, "type" | "enumValues">;

/** A widening pair: no `using` is needed; any other pair needs `using (…)` and `lossy`. */
export function isWidening(from: Typed, to: Typed): boolean {
  if (from.type === "enum" && to.type === "enum") return from.enumValues.every((v) => to.enumValues.includes(v));
  return WIDENING.has(`${from.type}>${to.type}`);
}

const WIDENING: ReadonlySet<string> = new Set([
  "int>float",
  "int>text",
  "float>text",
  "bool>int",
  "bool>text",
  "enum>text",
  "timestamp>text",
]);

const same = (sql: string): RowExpression => ({ sqlite: sql, postgres: sql, mysql: sql });

/** `{c}` converted from `from` to `to`; only for widening pairs (and their reverse, as `down`). */
export function convert(column: string, from: Typed, to: Typed): RowExpression {
  const c = `{${column}}`;
  const key = `${from.type}>${to.type}`;
  switch (key) {
    case "int>float":
      return { sqlite: `CAST(${c} AS REAL)`, postgres: `CAST(${c} AS double precision)`, mysql: `CAST(${c} AS DOUBLE)` };
    case "int>text":
    case "float>text":
      return { sqlite: `CAST(${c} AS TEXT)`, postgres: `CAST(${c} AS text)`, mysql: `CAST(${c} AS CHAR)` };
    case "float>int":
      return { sqlite: `CAST(${c} AS INTEGER)`, postgres: `CAST(${c} AS bigint)`, mysql: `CAST(${c} AS SIGNED)` };
    case "text>int":
      return guarded(c, INTEGER_TEXT, { sqlite: `CAST(${c} AS INTEGER)`, postgres: `CAST(${c} AS bigint)`, mysql: `CAST(${c} AS SIGNED)` });
    case "text>float":
      return guarded(c, NUMBER_TEXT, { sqlite: `CAST(${c} AS REAL)`, postgres: `CAST(${c} AS double precision)`, mysql: `CAST(${c} AS DOUBLE)` });
    case "bool>int":
      return { sqlite: c, postgres: `CAST(${c} AS integer)`, mysql: c };
    case "int>bool":
      return {
        sqlite: `CASE WHEN ${c} IS NULL THEN NULL WHEN ${c} <> 0 THEN 1 ELSE 0 END`,
        postgres: `(${c} <> 0)`,
        mysql: `(${c} <> 0)`,
      };
    case "bool>text":
      return {
        sqlite: `CASE ${c} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END`,
        postgres: `CASE WHEN ${c} THEN 'true' WHEN NOT ${c} THEN 'false' END`,
        mysql: `CASE ${c} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END`,
      };
    case "text>bool":
      return {
        sqlite: `CASE ${c} WHEN 'true' THEN 1 WHEN 'false' THEN 0 END`,
        postgres: `CASE ${c} WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END`,
        mysql: `CASE ${c} WHEN 'true' THEN 1 WHEN 'false' THEN 0 END`,
      };
    case "enum>text":
      return same(c);
    case "text>enum":
    case "enum>enum":
      // Values the old enum lacks are not kept: its CHECK would refuse them.
      return same(from.type === "enum" && from.enumValues.every((v) => to.enumValues.includes(v)) ? c : `CASE WHEN ${c} IN (${to.enumValues.map(sqlString).join(", ")}) THEN ${c} END`);
    case "timestamp>text":
      // svc's ISO-8601 text, as the server writes a timestamp into JSON.
      return {
        sqlite: c,
        postgres: `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
        mysql: `CONCAT(LEFT(DATE_FORMAT(${c}, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')`,
      };
    case "text>timestamp":
      return {
        sqlite: `CASE WHEN julianday(${c}) IS NOT NULL THEN ${c} END`,
        postgres: `CASE WHEN ${c} ~ '^\\d{4}-\\d{2}-\\d{2}' THEN CAST(${c} AS timestamptz) END`,
        mysql: `CAST(REPLACE(REPLACE(${c}, 'T', ' '), 'Z', '') AS DATETIME(3))`,
      };
    default:
      throw new Error(`internal: no derived conversion from ${from.type} to ${to.type}`);
  }
}

const INTEGER_TEXT = "^-?[0-9]+$";
const NUMBER_TEXT = "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$";

/** A cast of text that the text may not fit: NULL instead of an error where the backend would fail. */
function guarded(c: string, pattern: string, cast: RowExpression): RowExpression {
  const glob = pattern === INTEGER_TEXT ? `(${c} GLOB '[0-9]*' OR ${c} GLOB '-[0-9]*')` : `${c} GLOB '*[0-9]*'`;
  return {
    sqlite: `CASE WHEN ${glob} THEN ${cast.sqlite} END`,
    postgres: `CASE WHEN ${c} ~ '${pattern}' THEN ${cast.postgres} END`,
    mysql: `CASE WHEN ${c} REGEXP '${pattern}' THEN ${cast.mysql} END`,
  };
}

function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * The type named in `CAST(x AS <type>)` as each backend writes svc's type of the same
 * affinity: PostgreSQL's REAL is single precision and its INTEGER 32 bits, and MySQL casts
 * only to SIGNED, DOUBLE and CHAR. Null for a name outside the three affinities (left as written).
 */
export function castTypeName(written: string): Record<Dialect, string> | null {
  const affinity = CAST_AFFINITY[written.toUpperCase()];
  if (affinity === undefined) return null;
  return {
    sqlite: written,
    postgres: affinity === "int" ? "bigint" : affinity === "float" ? "double precision" : "text",
    mysql: affinity === "int" ? "SIGNED" : affinity === "float" ? "DOUBLE" : "CHAR",
  };
}

const CAST_AFFINITY: Record<string, ScalarType> = {
  INTEGER: "int",
  INT: "int",
  BIGINT: "int",
  SMALLINT: "int",
  REAL: "float",
  FLOAT: "float",
  DOUBLE: "float",
  TEXT: "text",
  VARCHAR: "text",
  CHAR: "text",
};
