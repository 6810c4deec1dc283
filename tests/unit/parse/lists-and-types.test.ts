// The grammar of lists and record types (docs/language.md §2.3 Lists, §2.5 Record types):
// `list<T> max N`, `type Name { … }` and `for x in list { … }`.
import { describe, expect, test } from "../../support/jest.js";
import type { ActionDecl, ResourceDecl, TypeDecl } from "../../../compiler/parse/ast.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { parseClean, sexpr, statementsOf } from "./helpers.js";

describe("list types", () => {
  test("list<T>, a bound, nullability and nesting", () => {
    const ast = parseClean("module m\naction a(tags: list<text> max 20, ids: list<id>?, grid: list<list<int?>> max 3) {}\n");
    const [tags, ids, grid] = (ast.decls[0] as ActionDecl).params.map((p) => p.type);
    expect(tags).toMatchObject({ name: { name: "list" }, item: { name: { name: "text" }, nullable: false }, max: { value: 20 }, nullable: false });
    expect(ids).toMatchObject({ name: { name: "list" }, item: { name: { name: "id" } }, nullable: true });
    expect(ids.max).toBeUndefined();
    expect(grid).toMatchObject({ item: { name: { name: "list" }, item: { name: { name: "int" }, nullable: true } }, max: { value: 3 } });
    // The span covers the whole written type, bound included.
    expect(tags.span.end.column - tags.span.start.column).toBe("list<text> max 20".length);
  });

  test("a field named max on the next line stays a field", () => {
    const ast = parseClean("module m\ntype T {\n  tags: list<text>\n  max: int\n}\n");
    const t = ast.decls[0] as TypeDecl;
    expect(t.members.map((m) => m.name.name)).toEqual(["tags", "max"]);
    expect(t.members[0].type.max).toBeUndefined();
  });

  test("other types carry no item", () => {
    const ast = parseClean("module m\nresource r {\n  id: id\n  s: enum(a, b)?\n}\n");
    expect((ast.decls[0] as ResourceDecl).fields[1].type.item).toBeUndefined();
  });
});

describe("type declarations", () => {
  test("members with commas or without, optional and defaulted ones, doc comments", () => {
    const ast = parseClean('module m\n/// A new user.\ntype NewUser { username: text, bio: text?, role: text = "reader" }\ntype A {\n  city: text\n  zip: text?\n}\n');
    const [user, a] = ast.decls as TypeDecl[];
    expect(user).toMatchObject({ kind: "Type", doc: "A new user.", name: { name: "NewUser" } });
    expect(user.members.map((m) => [m.name.name, m.type.name.name, m.type.nullable, m.default ? sexpr(m.default) : null])).toEqual([
      ["username", "text", false, null],
      ["bio", "text", true, null],
      ["role", "text", false, '"reader"'],
    ]);
    expect(a.members.map((m) => m.name.name)).toEqual(["city", "zip"]);
  });

  test("`type` is still a name elsewhere", () => {
    const ast = parseClean("module m\nresource r {\n  id: id\n  type: text\n}\naction a(type: text) { return type }\n");
    expect((ast.decls[0] as ResourceDecl).fields[1].name.name).toBe("type");
  });

  test("a broken member is a syntax error and the members after it survive", () => {
    const { ast, diagnostics } = parseModule("t.svc", "module m\ntype T {\n  a: \n  b: int\n}\naction x() {}\n");
    expect(diagnostics.map((d) => d.code)).toContain("SVC1001");
    expect(ast.decls.map((d) => d.kind)).toEqual(["Type", "Action"]);
  });
});

describe("for", () => {
  test("for x in list { … }", () => {
    const [stmt] = statementsOf('for tag in unique(tags) { insert tag { name: tag } }');
    expect(stmt).toMatchObject({ kind: "For", name: { name: "tag" }, list: { kind: "Call" }, body: { stmts: [{ kind: "ExprStmt" }] } });
  });

  test("the list ends before the body's brace, members and literals included", () => {
    const [a, b] = statementsOf("for x in user.tags { return x }\nfor y in [1, 2] { return y }");
    expect(a.kind === "For" && sexpr(a.list)).toBe("user.tags");
    expect(b.kind === "For" && b.list.kind).toBe("Array");
  });

  test("`for` and `in` are reserved: a missing `in` is a syntax error", () => {
    const { diagnostics } = parseModule("t.svc", "module m\naction a(xs: list<int>) { for x xs { return x } }\n");
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics[0].message).toMatch(/"in"/);
  });
});
