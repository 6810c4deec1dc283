// `private`/`public` before a query or an action, and `fn` declarations (docs/language.md §2.3: Private queries and actions, Functions).

import { describe, expect, test } from "../../support/jest.js";
import type { ActionDecl, FnDecl, QueryDecl } from "../../../compiler/parse/ast.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { parseClean, sexpr } from "./helpers.js";

describe("private and public", () => {
  test("mark a query or an action; unmarked ones carry no visibility", () => {
    const ast = parseClean(`module m
private query q(id: id) one { SELECT 1 }
public action a() { return 1 }
action b() { return 2 }`);
    const [q, a, b] = ast.decls as [QueryDecl, ActionDecl, ActionDecl];
    expect([q.kind, q.visibility?.name, q.one, q.sql.text.trim()]).toEqual(["Query", "private", true, "SELECT 1"]);
    expect([a.kind, a.visibility?.name]).toEqual(["Action", "public"]);
    expect("visibility" in b).toBe(false);
  });

  test("the declaration's span and doc comment start at the keyword", () => {
    const ast = parseClean(`module m
/// hidden
private action a() { return 1 }`);
    const a = ast.decls[0] as ActionDecl;
    expect(a.doc).toBe("hidden");
    expect(a.span.start).toMatchObject({ line: 3, column: 1 });
    expect(a.visibility?.span.start).toMatchObject({ line: 3, column: 1 });
  });

  test("`private` before anything but a query or an action is a syntax error, and later declarations survive", () => {
    const { ast, diagnostics } = parseModule("t.svc", `module m
private resource r { id: id }
action a() { return 1 }`);
    expect(diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([["SVC1001", 2]]);
    expect(ast.decls.map((d) => d.kind)).toContain("Action");
  });

  test("private, public and fn stay usable as names", () => {
    const ast = parseClean(`module m
resource private { id: id
 public: text
 fn: int }
action a(public: text) { let fn = public  return fn }`);
    expect(ast.decls.map((d) => d.kind)).toEqual(["Resource", "Action"]);
  });
});

describe("fn", () => {
  test("parameters with and without types; a body of statements", () => {
    const ast = parseClean(`module m
fn profile(u, following: bool, note: text?) {
  let n = coalesce(note, "")
  return { name: u.name, following: following, note: n }
}`);
    const f = ast.decls[0] as FnDecl;
    expect(f.kind).toBe("Fn");
    expect(f.params.map((p) => [p.name.name, p.type?.name.name ?? null, p.type?.nullable ?? null])).toEqual([
      ["u", null, null],
      ["following", "bool", false],
      ["note", "text", true],
    ]);
    expect(f.body.stmts.map((s) => s.kind)).toEqual(["Let", "Return"]);
  });

  test("a body that is one expression, and a default kept for the analyzer to refuse", () => {
    const ast = parseClean(`module m
fn label(t, suffix: text = "!") { t.title + suffix }`);
    const f = ast.decls[0] as FnDecl;
    const [stmt] = f.body.stmts;
    expect(stmt.kind === "ExprStmt" && sexpr(stmt.expr)).toBe("(+ t.title suffix)");
    expect(f.params[1].default && sexpr(f.params[1].default)).toBe('"!"');
  });

  test("an action call with named arguments parses as a call", () => {
    const ast = parseClean(`module m
action a() { let u = create_user(name: "x") return profile(u, true) }`);
    const [letStmt, ret] = (ast.decls[0] as ActionDecl).body.stmts;
    expect(letStmt.kind === "Let" && letStmt.value.kind).toBe("Call");
    expect(ret.kind === "Return" && ret.value && sexpr(ret.value)).toBe("profile(u, true)");
  });
});
