import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { PreparedSql, ScalarType } from "../../analyze/model/model.js";
import { literal, sqlLiteral } from "../literal.js";
import { sqlData } from "../sql-file.js";

/**
 * `const listTasksSql: rt.StatementSpec = { name, sql: { sqlite: { text, slots }, … } }`.
 * `rows` gives the sqlite entry the row literal its adapter builds rows with
 * (runtime/db/sqlite/rows.ts): the statement's result columns when the build knows them, or
 * the name of a resource's shared literal (sqliteRowLiteral) when they are its fields.
 */
export function statementSpec(
  s: PreparedSql,
  constName: string,
  rows: readonly string[] | string | null = null,
): StatementStructures {
  const dialects = Object.entries(s.sql.dialects)
    .map(([d, v]) => {
      const returning = v.returning
        ? `, returning: { text: ${sqlLiteral(v.returning.text)}, slots: ${literal(v.returning.slots)}, when: ${JSON.stringify(v.returning.when)} }`
        : "";
      let literalRows = "";
      if (d === "sqlite" && rows !== null) {
        if (typeof rows === "string") literalRows = `, ...${rows}`;
        else if (rows.length > 0) literalRows = `, ${rowLiteral(rows)}`;
      }
      const json = v.json === undefined ? "" : `, json: ${sqlLiteral(v.json)}`;
      return `${d}: { text: ${sqlLiteral(v.text)}, slots: ${literal(v.slots)}${returning}${literalRows}${json} }`;
    })
    .join(",\n");
  return sqlData({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: constName,
        type: "rt.StatementSpec",
        initializer: `{ name: ${JSON.stringify(s.name)}, sql: {\n${dialects}\n} }`,
      },
    ],
  });
}

/** `const taskSqliteRow: rt.RowLiteral = { columns: […], row: (v) => ({ … }) }`: a resource's fields, in order. */
export function sqliteRowLiteral(name: string, fields: readonly string[]): StatementStructures {
  return sqlData(
    {
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      docs: ["How the sqlite adapter makes this resource's row from the values of a statement that returns its fields in order."],
      declarations: [{ name, type: "rt.RowLiteral", initializer: `{ ${rowLiteral(fields)} }` }],
    },
    false,
  );
}

/** `const taskTable: rt.TableSpec = { name, ddl: { sqlite: …, postgres: …, mysql: … } }`, for sql.ts. */
export function tableSpecDeclaration(name: string, spec: object): StatementStructures {
  return sqlData({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, type: "rt.TableSpec", initializer: literal(spec) }],
  });
}

/** `columns: ["id", "title"], row: (v) => ({ id: v[0], title: v[1] })`. */
function rowLiteral(columns: readonly string[]): string {
  const props = columns.map((c, i) => `${propertyKey(c)}: v[${i}]`).join(", ");
  return `columns: ${literal(columns)}, row: (v) => ({ ${props} })`;
}

/** An object literal's key for `name`: `__proto__` computed, or it would set the prototype. */
function propertyKey(name: string): string {
  if (name === "__proto__") return `["__proto__"]`;
  return isIdentifier(name) ? name : JSON.stringify(name);
}

/** Whether `name` can follow a dot (`r.name`) or stand bare as an object literal's key. */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
}

/** The same names in the same order (a statement's columns against a resource's fields). */
export function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
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
  const conv = columns.filter((c) => c.type === "bool" || c.type === "json" || c.type === "file");
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
