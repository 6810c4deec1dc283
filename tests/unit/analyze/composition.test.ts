// Private code, calls between actions and fns in the analyzer (docs/language.md §2.3: Calling an action, Private queries and actions, Functions).

import { describe, expect, test } from "../../support/jest.js";
import type { IrExpr, IrStmt } from "../../../compiler/analyze/model/model.js";
import { looksSensitive } from "../../../compiler/analyze/checks/visibility.js";
import { TASK, analyzeText, codes } from "./analyze.js";

const ret = (body: IrStmt[]): IrExpr => (body[body.length - 1] as Extract<IrStmt, { kind: "return" }>).value!;

describe("calling an action", () => {
  test("the callee may be declared after the caller; the call has the callee's result type", () => {
    const { model, diagnostics } = analyzeText(`${TASK}
action outer(title: text) { let t = inner(title: title) return t.status }
action inner(title: text, points: int = 3) { return insert task { title: title, points: points } }`);
    expect(diagnostics).toEqual([]);
    const outer = model.actions.find((a) => a.name === "outer")!;
    expect(outer.returns).toMatchObject({ kind: "scalar", type: "enum", enumValues: ["open", "done"], nullable: false });
    const call = (outer.body[0] as Extract<IrStmt, { kind: "let" }>).value;
    expect(call).toMatchObject({ kind: "action", module: "m", action: "inner", args: [{ name: "title" }] });
    // Declaration order is kept in the model, whatever order analysis ran in.
    expect(model.actions.map((a) => a.name)).toEqual(["outer", "inner"]);
  });

  test("a caller runs in a transaction, even when the call is its only statement", () => {
    const { model } = analyzeText(`${TASK}
action outer(title: text) { return inner(title: title) }
action inner(title: text) { return insert task { title: title } }`);
    expect(model.actions.find((a) => a.name === "outer")!.transaction).toBe(true);
    expect(model.actions.find((a) => a.name === "inner")!.transaction).toBe(false);
  });

  test("arguments are checked like a query's: named, known, required, typed", () => {
    const { diagnostics } = analyzeText(`${TASK}
action callee(title: text, n: int) { return n }
action caller() {
  let a = callee("x", 1)
  let b = callee(title: "x", n: 1, extra: 2)
  let c = callee(title: "x")
  let d = callee(title: 5, n: 1)
  return null
}`);
    expect(codes(diagnostics)).toEqual(["SVC2015", "SVC2015", "SVC2015", "SVC2015", "SVC2015", "SVC2015", "SVC2013"]);
  });

  test("a callee whose returns disagree answers json: returned or read by member, never used as a number unchecked", () => {
    const { model, diagnostics } = analyzeText(`${TASK}
action pick(flag: bool) { if flag { return 1 } return "x" }
action ok() { let v = pick(flag: true) return { raw: v, x: v.x } }
action bad() { let v = pick(flag: false) return v + 1 }`);
    expect(diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([["SVC2013", 17]]);
    const ok = model.actions.find((a) => a.name === "ok")!;
    expect((ok.body[0] as Extract<IrStmt, { kind: "let" }>).value.type).toEqual({ kind: "scalar", type: "json", enumValues: [], nullable: true });
  });

  test("a cycle is SVC2072, once, naming the path; a call to itself too", () => {
    const { diagnostics } = analyzeText(`${TASK}
action a() { return b() }
action b() { return c() }
action c() { return a() }
action self() { return self() }`);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["SVC2072", "action `a` calls itself: `a` → `b` → `c` → `a`"],
      ["SVC2072", "action `self` calls itself: `self` → `self`"],
    ]);
  });

  test("a callee's requires is not checked again: SVC2075 where the caller's does not imply it", () => {
    const src = `${TASK}
action admin_only() requires role "admin" { return 1 }
action authed() requires auth { return 1 }
action open_caller() { return admin_only() + authed() }
action auth_caller() requires auth { return admin_only() + authed() }
action admin_caller() requires role "admin" { return admin_only() + authed() }`;
    const { diagnostics } = analyzeText(src, { auth: true });
    expect(diagnostics.map((d) => [d.code, d.span?.start.line, d.message.split(":")[0]])).toEqual([
      ["SVC2075", 17, '`admin_only` has `requires role "admin"`, which `open_caller` does not'],
      ["SVC2075", 17, "`authed` has `requires auth`, which `open_caller` does not"],
      ["SVC2075", 18, '`admin_only` has `requires role "admin"`, which `auth_caller` does not'],
    ]);
  });
});

describe("fns", () => {
  const SHAPE = `fn shape(t, flag: bool) { return { title: t.title, flag: flag } }`;

  test("an untyped parameter takes each call's type: one instance per set of types, each typed", () => {
    const { model, diagnostics } = analyzeText(`${TASK}
${SHAPE}
action a(id: id) {
  let t = get task(id)
  if t == null { fail 404 "gone" }
  return [shape(t, true), shape({ title: "x" }, false)]
}`);
    expect(diagnostics).toEqual([]);
    expect(model.fns!.map((f) => [f.id, f.params[0].type.kind])).toEqual([
      ["m.shape#1", "row"],
      ["m.shape#2", "object"],
    ]);
    expect(model.fns![0].returns).toEqual({
      kind: "object",
      fields: [
        { name: "title", type: { kind: "scalar", type: "text", enumValues: [], nullable: false } },
        { name: "flag", type: { kind: "scalar", type: "bool", enumValues: [], nullable: false } },
      ],
    });
    const items = (ret(model.actions[0].body) as Extract<IrExpr, { kind: "array" }>).items;
    expect(items.map((i) => i.kind === "fn" && i.fn)).toEqual(["m.shape#1", "m.shape#2"]);
  });

  test("the same types share one instance; a typed parameter checks its argument (SVC2013)", () => {
    const { model, diagnostics } = analyzeText(`${TASK}
${SHAPE}
action a() { return [shape({ title: "x" }, true), shape({ title: "y" }, false), shape({ title: "z" }, 1)] }`);
    expect(codes(diagnostics)).toEqual(["SVC2013"]);
    expect(model.fns!.map((f) => f.id)).toEqual(["m.shape#1"]);
  });

  test("a json member passed to a typed parameter is checked at run time, naming its path", () => {
    const { model } = analyzeText(`${TASK}
fn up(s: text) { upper(s) }
action a(doc: json) { return up(doc.name) }`);
    expect(ret(model.actions[0].body)).toMatchObject({ kind: "fn", args: [{ name: "s", value: { kind: "expect", as: "text", path: "doc.name" } }] });
  });

  test("a fn that fails makes a writing caller transactional", () => {
    const { model } = analyzeText(`${TASK}
fn need(s: text) { if trim(s) == "" { fail 422 "empty" } return trim(s) }
action a(title: text) { return insert task { title: need(title) } }
action b(title: text) { return insert task { title: trim(title) } }`);
    expect(model.fns![0].mayFail).toBe(true);
    expect(model.actions.map((x) => [x.name, x.transaction])).toEqual([
      ["a", true],
      ["b", false],
    ]);
  });

  test("no database in a fn (SVC2073), no recursion (SVC2072), no defaults (SVC2074)", () => {
    const { diagnostics } = analyzeText(`${TASK}
action act() { return 1 }
fn bad(id: id) {
  let a = get task(id)
  let b = get_task(id: id)
  let c = act()
  sql { DELETE FROM task }
  return null
}
fn loop(n: int) { return other(n) }
fn other(n: int) { return loop(n) }
fn dflt(n: int = 1) { n }`);
    expect(diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([
      ["SVC2074", 25],
      ["SVC2073", 17],
      ["SVC2073", 18],
      ["SVC2073", 19],
      ["SVC2073", 20],
      ["SVC2072", 24],
    ]);
  });

  test("a fn nobody calls is still checked, and not generated", () => {
    const { model, diagnostics } = analyzeText(`${TASK}
fn unused(t) { t.title + nope }`);
    expect(codes(diagnostics)).toEqual(["SVC2010"]);
    expect(model.fns).toBeUndefined();
  });

  test("what a body gets wrong whatever its argument types is reported once, not per instance", () => {
    const { model, diagnostics } = analyzeText(`${TASK}
fn f(a) { nope }
action x() { return [f(1), f("s"), f(true)] }`);
    expect(codes(diagnostics)).toEqual(["SVC2010"]);
    expect(model.fns!.length).toBe(3);
  });

  test("a parameter typed with a resource's name takes its rows", () => {
    const { model, diagnostics } = analyzeText(`${TASK}
fn title(t: task) { t.title }
action x(id: id) { let t = get task(id) if t == null { fail 404 "gone" } return title(t) + title({ title: "no" }) }`);
    expect(codes(diagnostics)).toEqual(["SVC2013"]);
    expect(model.fns![0].params[0].type).toEqual({ kind: "row", resource: "task", nullable: false });
  });

  test("a fn called only from an uncalled fn is not generated either", () => {
    const { model } = analyzeText(`${TASK}
fn leaf(s: text) { upper(s) }
fn unused(s: text) { leaf(s) }
fn used(s: text) { leaf(s) + "!" }
action a() { return used("x") }`);
    expect(model.fns!.map((f) => f.name).sort()).toEqual(["leaf", "used"]);
  });
});

describe("private code", () => {
  test("private queries and actions are marked; a module route to one is SVC2070", () => {
    const { model, diagnostics } = analyzeText(`${TASK}
private query hidden() { SELECT title FROM task }
private action act() { return hidden() }
action open() { return act() }
route GET "/hidden" => hidden
route POST "/act" => act`);
    expect(model.queries.find((q) => q.name === "hidden")!.private).toBe(true);
    expect(model.actions.find((a) => a.name === "act")!.private).toBe(true);
    expect("private" in model.actions.find((a) => a.name === "open")!).toBe(false);
    expect(codes(diagnostics)).toEqual(["SVC2070", "SVC2070"]);
    expect(model.routes).toEqual([]);
  });

  test("an implicit endpoint answering a secret is SVC2071; `private` and `public` silence it", () => {
    const { diagnostics } = analyzeText(`module m
resource account { id: id
  name: text
  email: text
  password_hash: text }
query everyone() { SELECT * FROM account }
private query hidden() { SELECT * FROM account }
public query meant() { SELECT name, email FROM account }
query names() { SELECT name FROM account }
action login(name: text) { let a = hidden() return { name: name, email: "e" } }
action leak(id: id) { return { account: get account(id) } }`);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["SVC2071", "query `everyone` is an endpoint, GET /api/m:everyone, and answers with `email`, `password_hash`"],
      ["SVC2071", "action `leak` is an endpoint, POST /api/m:leak, and answers with `password_hash`"],
    ]);
  });

  test("a password field in an implicit endpoint's answer is SVC7008 alone, not SVC2071 as well", () => {
    const { diagnostics } = analyzeText(`module m
resource account { id: id
  name: text
  secret_word: password }
action whole(id: id) { return get account(id) }`);
    expect(diagnostics.map((d) => d.code)).toEqual(["SVC7008"]);
  });

  test("which names look sensitive", () => {
    expect(["password_hash", "passwordHash", "api_key", "apiKey", "salt", "client_secret"].every((n) => looksSensitive(n, false))).toBe(true);
    expect(["email", "reset_token", "phone"].map((n) => [looksSensitive(n, false), looksSensitive(n, true)])).toEqual([
      [false, true],
      [false, true],
      [false, true],
    ]);
    expect(["hashtag", "title", "emails_sent_count", "tokenizer"].some((n) => looksSensitive(n, true))).toBe(false);
  });
});
