// The row literal generated into a statement's sqlite entry (sections/shared.ts): each
// column under its own name, whatever the name is; `__proto__` stays a property.

import { describe, expect, test } from "../../support/jest.js";
import { statementSpec } from "../../../compiler/generate/sections/shared.js";
import type { StatementSpec } from "../../../runtime/contract/index.js";

function generated(columns: string[] | null): StatementSpec {
  const structure = statementSpec(
    { name: "t.q", sql: { source: "", args: [], readonly: true, dialects: { sqlite: { text: "SELECT 1", slots: [] }, postgres: { text: "SELECT 1", slots: [] } } } },
    "qSql",
    columns,
  );
  if (!("declarations" in structure)) throw new Error("statementSpec gives a variable statement");
  const initializer = structure.declarations[0]!.initializer as string;
  // The initializer is plain JavaScript (the arrow's parameter is typed by context).
  return new Function(`return ${initializer};`)() as StatementSpec;
}

describe("the generated row literal", () => {
  test("puts each value under its column's name, odd names included", () => {
    const spec = generated(["id", "two words", "__proto__", "ok$"]);
    const row = spec.sql.sqlite!.row!(["a", "b", "c", "d"]);
    expect(spec.sql.sqlite!.columns).toEqual(["id", "two words", "__proto__", "ok$"]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).toEqual(["id", "two words", "__proto__", "ok$"]);
    expect(JSON.stringify(row)).toBe('{"id":"a","two words":"b","__proto__":"c","ok$":"d"}');
  });

  test("only the sqlite entry has one, and none without columns", () => {
    expect(generated(["id"]).sql.postgres).toEqual({ text: "SELECT 1", slots: [] });
    expect(generated(null).sql.sqlite).toEqual({ text: "SELECT 1", slots: [] });
  });
});
