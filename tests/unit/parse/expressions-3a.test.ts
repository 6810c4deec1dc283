// The grammar of issue 31 part 3a: `let xs = for … [max N] { … yield … }`, `yield`, and `T??`.

import { describe, expect, test } from "../../support/jest.js";
import type { ActionDecl, CollectStmt, TypeDecl } from "../../../compiler/parse/ast.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { parseClean, sexpr, statementsOf } from "./helpers.js";

describe("lists built in code", () => {
  test("a collecting for is the value of a let, with an optional max", () => {
    const [stmt] = statementsOf("let rows = for i in range(n) max 500 {\n  let w = get world(i)\n  yield w\n}");
    const c = stmt as CollectStmt;
    expect(c).toMatchObject({ kind: "Collect", name: { name: "rows" }, max: { value: 500 }, loop: { kind: "For", name: { name: "i" } } });
    expect(sexpr(c.loop.list)).toBe("range(n)");
    expect(c.loop.body.stmts.map((s) => s.kind)).toEqual(["Let", "Yield"]);
    const [plain] = statementsOf("let xs = for x in xs2 { yield x }");
    expect(plain).toMatchObject({ kind: "Collect", max: null });
  });

  test("`max` before a brace is the list's name, not a bound", () => {
    const [stmt] = statementsOf("let xs = for x in max { yield x }");
    expect(stmt).toMatchObject({ kind: "Collect", max: null, loop: { list: { kind: "Name", name: "max" } } });
  });

  test("yield is a statement anywhere a statement stands (the analyzer decides where it counts)", () => {
    expect(statementsOf("yield a + 1")).toMatchObject([{ kind: "Yield", value: { kind: "Binary" } }]);
  });

  test("`yield` is reserved: it cannot name a variable", () => {
    const { diagnostics } = parseModule("t.svc", "module m\naction a() {\n  let yield = 1\n}\n");
    expect(diagnostics.map((d) => d.code)).toContain("SVC1001");
  });

  test("a for without `let` stays a statement", () => {
    expect(statementsOf("for x in xs { yield x }")).toMatchObject([{ kind: "For" }]);
  });
});

describe("T??", () => {
  test("a parameter or member may be absent: `absent` on its type, which is nullable too", () => {
    const ast = parseClean("module m\ntype P { bio: text??, image: text? }\naction a(order: int??, n: int?) { return 1 }\n");
    const t = ast.decls[0] as TypeDecl;
    expect(t.members.map((m) => [m.type.nullable, m.type.absent ?? false])).toEqual([
      [true, true],
      [true, false],
    ]);
    const a = ast.decls[1] as ActionDecl;
    expect(a.params.map((p) => [p.name.name, p.type.nullable, p.type.absent ?? false])).toEqual([
      ["order", true, true],
      ["n", true, false],
    ]);
  });
});
