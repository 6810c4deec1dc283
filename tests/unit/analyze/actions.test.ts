import { describe, expect, test } from "../../support/jest.js";
import type { IrStmt } from "../../../compiler/analyze/model/model.js";
import { TASK, analyzeText, codes } from "./analyze.js";

function action(body: string, params = "id: id") {
  const r = analyzeText(`${TASK}\naction a(${params}) {\n${body}\n}\n`);
  return { ...r, action: r.model.actions.find((x) => x.name === "a")! };
}

describe("actions", () => {
  test("a clean action has no diagnostics and a typed return", () => {
    const { diagnostics, action: a } = action(`let t = get task(id)\nif t == null { fail 404 "gone" }\nreturn t`);
    expect(diagnostics).toEqual([]);
    expect(a.returns).toEqual({ kind: "row", resource: "task", nullable: false });
  });

  test("`if x == null { fail }` narrows x below the if", () => {
    const narrowed = action(`let t = get task(id)\nif t == null { fail 404 "gone" }\nreturn t.title`);
    expect(narrowed.action.returns).toEqual({ kind: "scalar", type: "text", enumValues: [], nullable: false });
    const notNarrowed = action(`let t = get task(id)\nreturn t.title`);
    expect(notNarrowed.action.returns).toMatchObject({ kind: "scalar", type: "text", nullable: true });
    const member = (notNarrowed.action.body[1] as Extract<IrStmt, { kind: "return" }>).value!;
    expect(member).toMatchObject({ kind: "member", optional: true });
  });

  test("`x != null` narrows inside the then-branch only", () => {
    const { action: a } = action(`let t = get task(id)\nif t != null { return t.points }\nreturn 0`);
    const branch = (a.body[1] as Extract<IrStmt, { kind: "if" }>).then[0] as Extract<IrStmt, { kind: "return" }>;
    expect(branch.value!.type).toMatchObject({ type: "int", nullable: false });
  });

  test("enum literals are checked at build time, in comparisons and in writes", () => {
    const { diagnostics } = action(`let t = get task(id)\nif t != null and t.status == "closed" { fail "x" }\nreturn update task(id) { status: "gone" }`);
    expect(codes(diagnostics)).toEqual(["SVC2014", "SVC2014"]);
  });

  test("a text written to an enum field gets a run-time check; a listed literal none", () => {
    const { action: a } = action(`return update task(id) { status: s, title: "x" }`, "id: id, s: text");
    const ret = a.body[0] as Extract<IrStmt, { kind: "return" }>;
    expect(ret.value).toMatchObject({ kind: "record", op: "update" });
    const fields = (ret.value as any).fields as { field: string; check: string }[];
    expect(fields).toEqual([
      expect.objectContaining({ field: "status", check: "enum" }),
      expect.objectContaining({ field: "title", check: "none" }),
    ]);
  });

  test("a nullable value written to a required field gets a not-null check", () => {
    const { action: a } = action(`return update task(id) { title: n }`, "id: id, n: text?");
    expect((a.body[0] as any).value.fields[0].check).toBe("notNull");
  });

  test("type errors: arithmetic on text, non-bool conditions, unknown names and fields", () => {
    const { diagnostics } = action(`let t = get task(id)\nif t == null { fail 404 "x" }\nlet a = t.title * 2\nif t.points { fail "x" }\nlet b = t.titel\nreturn nope`);
    expect(codes(diagnostics)).toEqual(["SVC2013", "SVC2013", "SVC2012", "SVC2010"]);
    expect(diagnostics[2].hint).toContain("title");
  });

  test("insert must set required fields and may not write the key", () => {
    expect(codes(action(`return insert task { note: "x" }`).diagnostics)).toEqual(["SVC2016"]);
    expect(codes(action(`return update task(id) { id: "x" }`).diagnostics)).toEqual(["SVC2019"]);
  });

  test("record statements are shared by name across actions, fields sorted", () => {
    const r = analyzeText(`${TASK}
action a(id: id) { return update task(id) { title: "a", points: 1 } }
action b(id: id) { return update task(id) { points: 2, title: "b" } }
`);
    expect(r.diagnostics).toEqual([]);
    expect(r.model.statements.map((s) => s.name)).toEqual(["task.update.points.title"]);
    expect(r.model.statements[0].sql.dialects.sqlite!.text).toMatch(/SET "points" = \?, "title" = \? WHERE "id" = \?/);
  });

  test("query calls check named arguments", () => {
    expect(codes(action(`return get_task(key: id)`).diagnostics)).toEqual(["SVC2015", "SVC2015"]);
    expect(codes(action(`return get_task(id)`).diagnostics)).toEqual(["SVC2015", "SVC2015"]);
    expect(action(`return get_task(id: id)`).action.returns).toEqual({ kind: "row", resource: "task", nullable: true });
  });

  test("fail statuses, shadowing lets and unreachable code", () => {
    expect(codes(action(`fail 500 "x"`).diagnostics)).toEqual(["SVC2017"]);
    expect(codes(action(`let id = 1\nreturn id`).diagnostics)).toEqual(["SVC2018"]);
    const unreachable = action(`return 1\nreturn 2`).diagnostics;
    expect(unreachable.map((d) => [d.code, d.severity])).toEqual([["SVC2021", "warning"]]);
  });

  test("requires needs [auth]", () => {
    const text = `${TASK}\naction p() requires role "admin" { return 1 }\n`;
    expect(codes(analyzeText(text).diagnostics)).toEqual(["SVC2022"]);
    const withAuth = analyzeText(text, { auth: true });
    expect(withAuth.diagnostics).toEqual([]);
    expect(withAuth.model.actions[0].requires).toEqual({ kind: "role", role: "admin" });
  });
});

describe("parameter names", () => {
  test("names every object answers to are refused (SVC2009)", () => {
    for (const name of ["constructor", "toString", "__proto__", "prototype", "hasOwnProperty"]) {
      const r = analyzeText(`${TASK}\naction a(${name}: text) { return 1 }\n`);
      expect(codes(r.diagnostics)).toEqual(["SVC2009"]);
    }
  });
});
