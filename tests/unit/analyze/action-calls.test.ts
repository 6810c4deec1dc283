import { describe, expect, test } from "../../support/jest.js";
import type { IrStmt } from "../../../compiler/analyze/model/model.js";
import { needsTransaction } from "../../../compiler/analyze/transactions/transaction.js";
import { generateServerTs } from "../../../compiler/generate/index.js";
import { TASK, analyzeText, codes } from "./analyze.js";

const CALLS = `${TASK}
/// Declared after its caller: callers may come first.
action open_task(title: text, points: int = 1) {
  return insert task { title: title, points: points }
}

action open_two(a: text, b: text) {
  let first = open_two_helper(title: a)
  let second = open_task(title: b, points: 2)
  return [first, second]
}

action open_two_helper(title: text) {
  return open_task(title: title)
}
`;

describe("an action calling an action", () => {
  test("is typed by the callee's result, wherever the callee is declared; the model keeps declaration order", () => {
    const r = analyzeText(CALLS);
    expect(r.diagnostics).toEqual([]);
    expect(r.model.actions.map((a) => a.name)).toEqual(["open_task", "open_two", "open_two_helper"]);
    const two = r.model.actions.find((a) => a.name === "open_two")!;
    const first = two.body[0] as Extract<IrStmt, { kind: "let" }>;
    expect(first.value).toMatchObject({ kind: "action", module: "m", action: "open_two_helper", type: { kind: "row", resource: "task", nullable: false } });
    const second = two.body[1] as Extract<IrStmt, { kind: "let" }>;
    expect(second.value).toMatchObject({ kind: "action", action: "open_task", args: [{ name: "title" }, { name: "points" }] });
    // The callee may write more than once or fail: the caller always runs in a transaction.
    expect(needsTransaction(r.model.actions.find((a) => a.name === "open_two_helper")!.body)).toBe(true);
  });

  test("arguments are checked like a query's: named, known, typed, required ones given", () => {
    const r = analyzeText(`${TASK}
action callee(title: text, points: int = 1) {
  return insert task { title: title, points: points }
}

action caller(x: int) {
  let a = callee("t")
  let b = callee(title: x)
  let c = callee(points: 2, nope: 1)
  return null
}
`);
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["SVC2015", "action `callee` takes named arguments, e.g. `title: …`"],
      ["SVC2015", "action `callee` needs the argument `title`"],
      ["SVC2013", "argument `title` must be text, found int"],
      ["SVC2015", "action `callee` has no parameter `nope`"],
      ["SVC2015", "action `callee` needs the argument `title`"],
    ]);
  });

  test("a value that may be null is SVC2013 for a parameter that may not be; narrowed or coalesced it fits", () => {
    const r = analyzeText(`${TASK}
query by_title(title: text) one {
  SELECT * FROM task WHERE title = @title
}

action callee(title: text, note: text?) {
  return insert task { title: title, note: note }
}

action caller(id: id) {
  let t = get task(id)
  let a = by_title(title: t.note)
  let b = callee(title: t.note, note: t.note)
  let c = by_title(title: coalesce(t.note, ""))
  if t == null { fail 404 "no task" }
  let d = callee(title: t.title, note: t.note)
  return [a, b, c, d]
}
`);
    // (by_title scans the table, SVC3009: beside the point here)
    expect(r.diagnostics.filter((d) => d.code !== "SVC3009").map((d) => [d.code, d.message, d.span?.start.line])).toEqual([
      ["SVC2013", "argument `title` must be text (not null), found text?", 25],
      ["SVC2013", "argument `title` must be text (not null), found text?", 26],
    ]);
  });

  test("a circle of calls is SVC2072 at the call that closes it, naming the path", () => {
    const r = analyzeText(`${TASK}
action ping(n: int) {
  return pong(n: n)
}

action pong(n: int) {
  return ping(n: n)
}

action self(n: int) {
  return self(n: n)
}
`);
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span!.start.line])).toEqual([
      ["SVC2072", "action `ping` calls itself: `ping` → `pong` → `ping`", 20],
      ["SVC2072", "action `self` calls itself: `self` → `self`", 24],
    ]);
  });

  test("calling an action that requires more than the caller is the SVC2075 warning: the call does not check it again", () => {
    const r = analyzeText(
      `${TASK}
action admin_only(title: text) requires role "admin" {
  return insert task { title: title }
}

action signed_in(title: text) requires auth {
  return insert task { title: title }
}

action anyone(title: text) {
  let a = signed_in(title: title)
  return admin_only(title: title)
}

action user(title: text) requires auth {
  let a = signed_in(title: title)
  return admin_only(title: title)
}

action admin(title: text) requires role "admin" {
  let a = signed_in(title: title)
  return admin_only(title: title)
}
`,
      { auth: true },
    );
    expect(r.diagnostics.map((d) => [d.code, d.message, d.hint])).toEqual([
      ["SVC2075", "`signed_in` has `requires auth`, which `anyone` does not: a call from an action does not check it again", "give the caller `requires auth` too, if only such callers may run it"],
      ["SVC2075", '`admin_only` has `requires role "admin"`, which `anyone` does not: a call from an action does not check it again', 'give the caller `requires role "admin"` too, if only such callers may run it'],
      ["SVC2075", '`admin_only` has `requires role "admin"`, which `user` does not: a call from an action does not check it again', 'give the caller `requires role "admin"` too, if only such callers may run it'],
    ]);
  });

  test("an unknown name suggests an action", () => {
    const r = analyzeText(`${CALLS}
action x() {
  return open_tsk(title: "a")
}
`);
    expect(codes(r.diagnostics)).toEqual(["SVC2010"]);
    expect(r.diagnostics[0].hint).toBe("did you mean `open_task`?");
  });

  test("a callee that reads `auth` or starts a session takes the caller's context, and the caller passes it", async () => {
    const r = analyzeText(
      `${TASK}
action mine() requires auth {
  return insert task { title: auth.id }
}

action sign_in(who: text) {
  return start_session(who)
}

action both() requires auth {
  let t = mine()
  let s = sign_in(who: "x")
  return t
}

action plain() {
  return open_it(title: "t")
}

action open_it(title: text) {
  return insert task { title: title }
}
`,
      { auth: { bearer: { credential: "tokens" }, sessions: {} } },
    );
    expect(r.diagnostics).toEqual([]);
    const context = Object.fromEntries(r.model.actions.map((a) => [a.name, a.context === true]));
    expect(context).toEqual({ mine: true, sign_in: true, both: true, plain: false, open_it: false });
    const ts = await generateServerTs(r.model);
    expect(ts).toMatch(/await mine\(tx, \{\}, ctx\)/);
    expect(ts).toMatch(/await signIn\(tx, \{ who: "x" \}, ctx\)/);
    expect(ts).toMatch(/await openIt\(tx, \{ title: "t" \}\)/);
  });

  test("a list or record argument takes a value of its type; a member of json, whose shape nothing checks, is SVC2013", () => {
    const r = analyzeText(`${TASK}
type Pair { a: text, b: int }

action take(p: Pair, tags: list<text>) {
  return { a: p.a, n: len(tags) }
}

action give(d: json, p: Pair, tags: list<text>) {
  let ok = take(p: p, tags: tags)
  let bad = take(p: d.pair, tags: d.tags)
  let wrong = take(p: p, tags: [1, 2])
  return null
}
`);
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["SVC2013", "argument `p` must be Pair, found a value read from json"],
      ["SVC2013", "argument `tags` must be list<text>, found a value read from json"],
      ["SVC2013", "argument `tags` must be list<text>, found list<int>"],
    ]);
  });
});
