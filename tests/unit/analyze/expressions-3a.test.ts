// Analysis of issue 31 part 3a: the types of the new builtins, lists built in code (what a
// collecting for gives, where yield goes), `T??` arguments with has() and patch updates, and
// the diagnostics SVC2120–SVC2126.

import { describe, expect, test } from "../../support/jest.js";
import type { IrStmt } from "../../../compiler/analyze/model/model.js";
import { TASK, analyzeText, codes } from "./analyze.js";

function action(body: string, params = "s: text, n: text?, k: int") {
  const r = analyzeText(`${TASK}\naction a(${params}) {\n${body}\n}\n`);
  const a = r.model.actions.find((x) => x.name === "a")!;
  return { ...r, action: a };
}

function typeOf(expr: string, params?: string): string {
  const r = action(`return ${expr}`, params);
  expect(r.diagnostics.map((d) => d.message)).toEqual([]);
  const t = r.action.returns as { kind: string; type?: string; nullable?: boolean; item?: { type: string } };
  if (t.kind === "array") return `list<${t.item!.type}>`;
  return `${t.type}${t.nullable ? "?" : ""}`;
}

describe("builtins of values", () => {
  test("each is typed", () => {
    expect(typeOf("random()")).toBe("float");
    expect(typeOf("random_int(1, k)")).toBe("int");
    expect(typeOf("parse_int(n)")).toBe("int?");
    expect(typeOf("parse_float(s)")).toBe("float?");
    expect(typeOf("parse_bool(s)")).toBe("bool?");
    expect(typeOf("coalesce(parse_int(n), 1)")).toBe("int");
    expect(typeOf("clamp(k, 1, 500)")).toBe("int");
    expect(typeOf("clamp(k, 1.5, 500)")).toBe("float");
    expect(typeOf("min(k, 2, 3)")).toBe("int");
    expect(typeOf("max(k, 2.5)")).toBe("float");
    expect(typeOf("range(k)")).toBe("list<int>");
    expect(typeOf("range(1, k)")).toBe("list<int>");
  });

  test("numbers that may be null, text for a number and a number for text are SVC2013", () => {
    const r = action("let a = clamp(parse_int(n), 1, 2)\nlet b = random_int(1, \"9\")\nlet c = parse_int(k)\nlet d = range(parse_int(n))\nreturn null");
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["SVC2013", "argument 1 of `clamp` must be a number (not null), found int?"],
      ["SVC2013", "argument 2 of `random_int` must be an int (not null), found text"],
      ["SVC2013", "the argument of `parse_int` must be a string, found int"],
      ["SVC2013", "argument 1 of `range` must be an int (not null), found int?"],
    ]);
  });

  test("constant bounds the wrong way round are SVC2125; arity is SVC2015", () => {
    const r = action("let a = random_int(5, 1)\nlet b = min(1)\nlet c = random(1)\nreturn null");
    expect(codes(r.diagnostics)).toEqual(["SVC2125", "SVC2015", "SVC2015"]);
  });

  test("a fn named like a new builtin replaces it in its module", () => {
    const r = analyzeText(`${TASK}\nfn random() { return "mine" }\naction a() { return random() }\n`);
    expect(r.diagnostics).toEqual([]);
    expect(r.model.actions[0].returns).toMatchObject({ kind: "scalar", type: "text" });
  });
});

describe("lists built in code", () => {
  test("the list has the type of what is yielded; yields in nested ifs and plain fors count", () => {
    const r = action("let ts = for i in range(k) max 50 {\n  let t = get task(s)\n  if t != null { for x in [1, 2] { yield t } }\n}\nreturn ts");
    expect(r.diagnostics).toEqual([]);
    expect(r.action.returns).toEqual({ kind: "array", item: { kind: "row", resource: "task", nullable: false } });
    const loop = r.action.body[0] as Extract<IrStmt, { kind: "for" }>;
    expect(loop.collect).toMatchObject({ into: "ts", max: 50 });
    // A write in a loop runs many times: the action is one transaction.
    expect(r.action.transaction).toBe(true);
  });

  test("without max the list holds at most 100; yields of different types make json items", () => {
    const r = action("let xs = for i in range(3) {\n  if i == 0 { yield 1 } else { yield \"a\" }\n}\nreturn xs");
    // Items of no one type answer as json, which openapi.json cannot describe (SVC2090).
    expect(codes(r.diagnostics)).toEqual(["SVC2090"]);
    expect((r.action.body[0] as Extract<IrStmt, { kind: "for" }>).collect!.max).toBe(100);
    expect(r.action.returns).toEqual({ kind: "array", item: { kind: "unknown" } });
  });

  test("a yield outside a collecting for, one that never yields, a bound out of range, and shadowing", () => {
    const r = action("yield 1\nfor x in [1] { yield x }\nlet a = for x in [1] { len(s) }\nlet b = for x in [1] max 0 { yield x }\nlet s = for x in [1] { yield x }\nreturn null");
    expect(codes(r.diagnostics)).toEqual(["SVC2120", "SVC2120", "SVC2121", "SVC2122", "SVC2018"]);
  });

  test("the list is not in scope inside its own loop; the loop's names stay inside", () => {
    const r = action("let xs = for x in [1] { yield len(xs) }\nreturn x");
    expect(codes(r.diagnostics)).toEqual(["SVC2010", "SVC2010"]);
  });

  test("fns build lists too", () => {
    const r = analyzeText(`${TASK}\nfn evens(n: int) {\n  let xs = for i in range(n) { yield i * 2 }\n  return xs\n}\naction a() { return evens(3) }\n`);
    expect(r.diagnostics).toEqual([]);
  });
});

describe("T?? arguments", () => {
  test("has() of a T?? argument or member is a bool; of anything else SVC2123", () => {
    const r = analyzeText(`${TASK}\ntype P { bio: text??, name: text? }\naction a(x: int??, y: int?, p: P) {\n  return [has(x), has(p.bio), has(y), has(p.name), has(1)]\n}\n`);
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["SVC2123", "`has` takes an argument or member declared `T??`, found `y` (int?)"],
      ["SVC2123", "`has` takes an argument or member declared `T??`, found `name` (text?)"],
      ["SVC2123", "`has` takes an argument or member declared `T??`, found int"],
    ]);
  });

  test("an update given a T?? value as it is becomes a patch; any other value is a plain write", () => {
    const r = analyzeText(`${TASK}\naction a(id: id, note: text??, points: int??) {\n  return update task(id) { note: note, points: coalesce(points, 0) }\n}\n`);
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([["SVC2126", "warning"]]);
    const ret = r.model.actions[0].body[0] as Extract<IrStmt, { kind: "return" }>;
    expect(ret.value).toMatchObject({ kind: "record", op: "patch", statement: "task.patch.note.points", fields: [{ field: "note", absent: true }, { field: "points" }] });
    expect(r.model.statements.find((s) => s.name === "task.patch.note.points")!.sql.dialects.postgres!.text).toBe(
      'UPDATE "task" SET "note" = CASE WHEN $1 = 1 THEN $2 ELSE "note" END, "points" = CASE WHEN $3 = 1 THEN $4 ELSE "points" END WHERE "id" = $5 RETURNING "id", "title", "status", "points", "note"',
    );
  });

  test("T?? is refused on fields, query parameters, fn parameters, lists, records and with a default", () => {
    const r = analyzeText(`module m\nresource r { id: id\n  a: text?? }\ntype T { l: list<int>??, d: int?? = 1, i: list<int??> }\nquery q(x: int??) { SELECT * FROM r WHERE a = @x }\nfn f(x: int??) { return x }\naction b(x: int?? = 1, t: T??) { return f(1) }\n`);
    expect(r.diagnostics.filter((d) => d.code === "SVC2124").map((d) => d.message)).toEqual([
      "`??` is not allowed on a resource field (a column is null or a value)",
      "`??` is not allowed on a list or record member",
      "`??` is not allowed with a default",
      "`??` is not allowed on a list item (an item is there or not)",
      "`??` is not allowed on a query parameter",
      "`??` is not allowed on a fn parameter (every call gives every argument)",
      "`??` is not allowed with a default",
      "`??` is not allowed on a list or record argument",
    ]);
  });
});
