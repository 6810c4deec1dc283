import { describe, expect, test } from "../../support/jest.js";
import type { IrStmt } from "../../../compiler/analyze/model/model.js";
import { TASK, analyzeText, codes } from "./analyze.js";

function action(body: string, params = "s: text, n: text?") {
  const r = analyzeText(`${TASK}\naction a(${params}) {\n${body}\n}\n`);
  const a = r.model.actions.find((x) => x.name === "a")!;
  return { ...r, action: a, returns: a.returns };
}

describe("string builtins in actions", () => {
  test("each is typed: text builtins keep the first argument's nullability, tests are bools", () => {
    const t = (expr: string) => {
      const r = action(`return ${expr}`);
      expect(r.diagnostics.map((d) => d.message)).toEqual([]);
      const ret = r.returns as { type: string; nullable: boolean };
      return `${ret.type}${ret.nullable ? "?" : ""}`;
    };
    expect(t(`slug(s)`)).toBe("text");
    expect(t(`slug(n)`)).toBe("text?");
    expect(t(`replace(s, " ", n)`)).toBe("text");
    expect(t(`replace(n, " ", "-")`)).toBe("text?");
    expect(t(`starts_with(n, "a")`)).toBe("bool");
    expect(t(`ends_with(s, n)`)).toBe("bool");
    expect(t(`contains(s, "x")`)).toBe("bool");
    expect(t(`substr(s, 0, 3)`)).toBe("text");
    expect(t(`substr(n, 2)`)).toBe("text?");
    expect(t(`join(["a", s], ", ")`)).toBe("text");
  });

  test("a test builtin is a bool that `if` takes", () => {
    const r = action(`if starts_with(s, "#") { fail 422 "no tags" }\nreturn slug(s)`);
    expect(r.diagnostics).toEqual([]);
    expect(r.action.body[0]).toMatchObject({ kind: "if", cond: { kind: "builtin", name: "starts_with" } } as Partial<IrStmt>);
  });

  test("wrong argument types are SVC2013 at the argument; wrong counts SVC2015", () => {
    const r = action(`let a = slug(5)\nlet b = replace(s, 1, "x")\nlet c = substr(s, "1")\nlet d = join(s, ",")\nlet e = contains(s)\nreturn null`, "s: text");
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["SVC2013", "the argument of `slug` must be a string, found int"],
      ["SVC2013", "argument 2 of `replace` must be a string, found int"],
      ["SVC2013", "argument 2 of `substr` must be an int, found text"],
      ["SVC2013", "argument 1 of `join` must be a list, found text"],
      ["SVC2015", "`contains` takes 2 arguments, found 1"],
    ]);
    const at = r.diagnostics[1].span!.start;
    expect([at.line, at.column]).toEqual([17, 20]);
  });

  test("a misspelt builtin suggests the right one", () => {
    const r = action(`return startswith(s, "a")`, "s: text");
    expect(codes(r.diagnostics)).toEqual(["SVC2010"]);
    expect(r.diagnostics[0].hint).toContain("starts_with");
  });
});

describe("json defaults", () => {
  test("`= []`, `= {}` and nested constant JSON for json fields and arguments", () => {
    const r = analyzeText(`module m

resource doc {
  id: id
  tags: json = []
  meta: json = {}
  shape: json = {kind: "list", items: [1, -2.5, true, null, "x"]}
}

action a(extra: json = {}, list: json = [], n: int = 1) {
  return insert doc { }
}
`);
    // The row's json fields are "any JSON value" in openapi.json: the SVC2090 warning only.
    expect(r.diagnostics.map((d) => d.code)).toEqual(["SVC2090"]);
    const doc = r.model.resources.find((x) => x.name === "doc")!;
    expect(doc.fields.slice(1).map((f) => f.default)).toEqual([
      { kind: "value", value: [] },
      { kind: "value", value: {} },
      { kind: "value", value: { kind: "list", items: [1, -2.5, true, null, "x"] } },
    ]);
    expect(doc.ddl.sqlite!.createTable).toContain(`"tags" TEXT NOT NULL DEFAULT '[]'`);
    expect(doc.ddl.postgres!.createTable).toContain(`"shape" jsonb NOT NULL DEFAULT '{"kind":"list","items":[1,-2.5,true,null,"x"]}'`);
    const a = r.model.actions.find((x) => x.name === "a")!;
    expect(a.params.map((p) => [p.name, p.default, p.required])).toEqual([
      ["extra", {}, false],
      ["list", [], false],
      ["n", 1, false],
    ]);
  });

  test("a list or object default on a non-json field, or one that is not constant, is SVC2004… a bad default", () => {
    const r = analyzeText(`module m

resource doc {
  id: id
  title: text = []
  meta: json = {a: now()}
  other: json = {__proto__: 1}
}
`);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining("title"),
      expect.stringContaining("meta"),
      expect.stringContaining("other"),
    ]);
    expect(new Set(codes(r.diagnostics)).size).toBe(1);
  });
});
