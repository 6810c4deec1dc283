import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { PreparedSql, ScalarType } from "../../analyze/model.js";
import { literal, sqlLiteral } from "../literal.js";

/** `const listTasksSql: rt.StatementSpec = { name, sql: { sqlite: { text, slots }, … } }`. */
export function statementSpec(s: PreparedSql, constName: string): StatementStructures {
  const dialects = Object.entries(s.sql.dialects)
    .map(([d, v]) => {
      const returning = v.returning
        ? `, returning: { text: ${sqlLiteral(v.returning.text)}, slots: ${literal(v.returning.slots)}, when: ${JSON.stringify(v.returning.when)} }`
        : "";
      return `${d}: { text: ${sqlLiteral(v.text)}, slots: ${literal(v.slots)}${returning} }`;
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
