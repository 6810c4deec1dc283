// A query's rows as JSON text written by SQLite (docs/language.md, "Generated code"). On Node 20
// better-sqlite3 hands each value of a row to V8 one call at a time (some 900 instructions a
// value), and the endpoint then writes them out again as JSON; SQLite's json_object writes the
// row's JSON in C, in one value. Its text is JSON.stringify's for text and integers (the same
// escapes, byte for byte, invalid UTF-8 included), and a boolean is written from the value as
// runtime/lang/record.ts `toBool` reads it. A float is not: SQLite writes 1.0 and 1.0e+21 where
// JavaScript writes 1 and 1e+21, and a json column's numbers keep their source spelling; a
// query with either keeps the JavaScript writer.

import type { ColumnModel, ScalarType } from "../../model/model.js";
import { oneAsciiKeyEach } from "../../shared/row-keys.js";
import { tokenize } from "../tokens.js";

/** Column types whose SQLite value json_object writes as JSON.stringify writes the JavaScript one. */
const AS_STORED: ReadonlySet<ScalarType | "unknown"> = new Set(["id", "text", "enum", "timestamp", "int"]);

/**
 * `SELECT json_object('id', "id", …) FROM (<text>)`: the rows of the query `text` (SQLite's,
 * with its `?`s, which keep their order), one JSON text each, in the query's order (SQLite
 * flattens the subquery into the outer query, ORDER BY and LIMIT included). Null where the
 * columns cannot be written so: a type above, or names `oneAsciiKeyEach` refuses.
 */
export function sqliteJsonRows(text: string, columns: readonly ColumnModel[]): string | null {
  if (!oneAsciiKeyEach(columns.map((c) => c.name))) return null;
  if (!columns.every((c) => AS_STORED.has(c.type) || c.type === "bool")) return null;
  const members = columns.map((c) => `'${c.name.replace(/'/g, "''")}', ${value(c)}`);
  // The query up to its last token: a trailing `;` would end the statement inside the
  // parentheses, and a trailing `--` comment swallow the closing one. The first line is
  // indented as a module's query body indents the others; no line is changed (a string may
  // span lines).
  const tokens = tokenize(text);
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]!.text === ";") last--;
  if (last < 0) return null;
  const inner = text.slice(0, tokens[last]!.end).trim();
  return `SELECT json_object(\n${members.map((m) => `  ${m}`).join(",\n")}\n)\nFROM (\n  ${inner}\n)`;
}

function value(c: ColumnModel): string {
  const id = `"${c.name.replace(/"/g, '""')}"`;
  if (c.type !== "bool") return id;
  // toBool: 1, "1" and "true" are true, null is null, anything else false.
  return `json(CASE WHEN ${id} IS NULL THEN NULL WHEN ${id} = 1 OR ${id} = '1' OR ${id} = 'true' THEN 'true' ELSE 'false' END)`;
}
