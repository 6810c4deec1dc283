import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { PreparedSql, ScalarType } from "../../analyze/model.js";
import { literal, sqlLiteral } from "../literal.js";

/**
 * `const listTasksSql: rt.StatementSpec = { name, sql: { sqlite: { text, slots }, … } }`.
 * `columns`, the statement's result columns when the build knows them, gives the sqlite
 * entry the row literal its adapter builds rows with (runtime/db/sqlite/rows.ts).
 */
export function statementSpec(
  s: PreparedSql,
  constName: string,
  columns: readonly string[] | null = null,
): StatementStructures {
  const dialects = Object.entries(s.sql.dialects)
    .map(([d, v]) => {
      const returning = v.returning
        ? `, returning: { text: ${sqlLiteral(v.returning.text)}, slots: ${literal(v.returning.slots)}, when: ${JSON.stringify(v.returning.when)} }`
        : "";
      const rows = d === "sqlite" && columns !== null && columns.length > 0 ? `, ${rowLiteral(columns)}` : "";
      return `${d}: { text: ${sqlLiteral(v.text)}, slots: ${literal(v.slots)}${returning}${rows} }`;
    })
    .join(",\n");
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: constName,
        type: "rt.StatementSpec",
        initializer: `{ name: ${JSON.stringify(s.name)}, sql: {\n${dialects}\n} }`,
      },
    ],
  };
}

/** `columns: ["id", "title"], row: (v) => ({ id: v[0], title: v[1] })`. */
function rowLiteral(columns: readonly string[]): string {
  const props = columns.map((c, i) => `${propertyKey(c)}: v[${i}]`).join(", ");
  return `columns: ${literal(columns)}, row: (v) => ({ ${props} })`;
}

/** An object literal's key for `name`: `__proto__` computed, or it would set the prototype. */
function propertyKey(name: string): string {
  if (name === "__proto__") return `["__proto__"]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * A decoder for rows with bool or json columns (SQLite returns 0/1 and text for them);
 * null when every column already arrives as JSON wants it, so most rows pass through
 * untouched, with no per-row work.
 */
export function decoderFor(
  columns: { name: string; type: ScalarType | "unknown" }[],
  rowType: string,
  name: string,
): { name: string; structure: StatementStructures } | null {
  const conv = columns.filter((c) => c.type === "bool" || c.type === "json");
  if (conv.length === 0) return null;
  const lines = conv.map((c) => `row.${c.name} = rt.${c.type === "bool" ? "toBool" : "fromJson"}(row.${c.name});`);
  return {
    name,
    structure: {
      kind: StructureKind.Function,
      name,
      parameters: [{ name: "row", type: "rt.Row | null" }],
      returnType: `${rowType} | null`,
      statements: `if (row === null) return null;\n${lines.join("\n")}\nreturn row as unknown as ${rowType};`,
    },
  };
}
