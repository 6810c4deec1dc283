// Programs svc used to accept at build and that then failed on every request: module
// directives, and programs jq itself refuses to compile (asked of jq-web at build time).
// Internal builtins jq 1.7.1 accepts stay accepted.

import { describe, expect, test } from "../../support/jest.js";
import { compileJq } from "../../../compiler/jq/index.js";
import { JQ_BUILTINS, nearestBuiltin } from "../../../compiler/jq/builtins.js";
import { rawJq } from "./harness.js";

function diagnostics(program: string) {
  const r = compileJq("app/page.jq", program);
  if (r.kind !== "error") throw new Error(`expected ${JSON.stringify(program)} to be refused, got ${r.kind}`);
  return r.diagnostics.map((d) => ({ code: d.code, message: d.message, line: d.span?.start.line, column: d.span?.start.column }));
}

describe("module directives", () => {
  for (const [program, what] of [
    ['include "lib"; .', "include"],
    ['import "lib" as lib; lib::f', "import"],
    ["module {name: 1}; .", "module"],
  ]) {
    test(`\`${what}\` is SVC5005 at the directive`, () => {
      const [d] = diagnostics(program);
      expect(d.code).toBe("SVC5005");
      expect(d.message).toContain(`\`${what}\` directives cannot be used in page.jq`);
      expect([d.line, d.column]).toEqual([1, 1]);
    });
  }
});

describe("programs jq refuses to compile", () => {
  test("`break` without its `label` is SVC5006 on the line jq names", () => {
    const [d] = diagnostics("{a: 1}\n| {b: (1, break $foo)}");
    expect(d.code).toBe("SVC5006");
    expect(d.message).toBe("jq cannot compile this program: `break $foo` has no enclosing `label $foo`");
    expect([d.line, d.column]).toEqual([2, 1]);
  });

  test("a constant non-string key in a destructuring pattern is SVC5006", () => {
    const [d] = diagnostics(". as {(true):$foo} | {x: $foo}");
    expect(d).toMatchObject({
      code: "SVC5006",
      message: "jq cannot compile this program: Cannot use boolean (true) as object key",
      line: 1,
    });
  });

  test("a function a `def` calls but no one defines is SVC5006", () => {
    const [d] = diagnostics("def slug: ascii_downcase | dashes;\n{s: (.title | slug)}");
    expect(d).toMatchObject({ code: "SVC5006", message: "jq cannot compile this program: dashes/0 is not defined", line: 1 });
  });

  test("valid programs outside the subset still fall back", () => {
    for (const program of ["label $out | 1, break $out", "def f: . + 1; {n: (1 | f)}", "$__loc__", "{a: (.x |= 1)}"]) {
      expect(compileJq("app/page.jq", program).kind).toBe("fallback");
    }
  });
});

describe("internal builtins", () => {
  test("_strindices/1 is accepted and runs on jq-web", () => {
    const r = compileJq("app/page.jq", '{at: ("a,b,c" | _strindices(","))}');
    expect(r.kind).toBe("fallback");
  });

  test("every internal name svc accepts, jq-web compiles", async () => {
    const jq = await rawJq();
    for (const sig of [...JQ_BUILTINS].filter((s) => s.startsWith("_"))) {
      const [name, arity] = sig.split("/");
      const args = Number(arity) === 0 ? "" : `(${Array(Number(arity)).fill(".").join("; ")})`;
      expect(() => jq.raw("null", `empty | ${name}${args}`, ["-c"])).not.toThrow();
    }
  });

  test("did-you-mean never proposes an internal name", () => {
    expect(nearestBuiltin("plus", 2)).toBeNull();
    expect(nearestBuiltin("strindices", 1)).toBe(null);
  });
});
