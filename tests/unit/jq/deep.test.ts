// Values nested deeper than JavaScript's stack allows, in compiled programs: the helpers
// that walk a value recurse per level, and their RangeError must end as a jq error (which
// `try` catches and a page answers as a clean error), never escape as a JavaScript one.

import { describe, expect, test } from "../../support/jest.js";
import * as jq from "../../../runtime/jq/index.js";
import { compiled, outcome } from "./harness.js";

// Deeper than docs/language.md's example (10,001): suites run in worker threads, whose stack
// (4 MB) holds four times what a server's main thread does.
const DEEP = "reduce range(100001) as $_ ([]; [.])";

function run(program: string): unknown[] {
  return jq.runCompiled(compiled(program), null, {}, {});
}

describe("a value nested 100,001 deep", () => {
  for (const tail of [
    "tojson",
    "tostring",
    "@html",
    "@json",
    "[., .] | unique | length",
    "[., .] | sort | length",
    "{x: .} | .x | tojson",
  ]) {
    test(`\`${tail}\` is a jq error`, () => {
      const o = outcome(() => run(`${DEEP} | ${tail}`));
      expect(o.ok).toBe(false);
      if (!o.ok) expect(o.message).toMatch(/^value nested too deeply or too large for a compiled program/);
    });
  }

  test("`try` catches it as it catches any jq error", () => {
    expect(run(`${DEEP} | try tojson catch "too deep"`)).toEqual(["too deep"]);
    expect(run(`${DEEP} | (tojson)? // "skipped"`)).toEqual(["skipped"]);
  });

  test("an error message about it quotes its first characters, as jq does, without walking all of it", () => {
    expect(outcome(() => run(`${DEEP} | . + 1`))).toEqual({ ok: false, message: "array ([[[[[[[[[[[...) and number (1) cannot be added" });
  });

  test("what does not walk the whole value still works", () => {
    expect(run(`${DEEP} | length`)).toEqual([1]);
    expect(run(`${DEEP} | {a: .} | has("a")`)).toEqual([true]);
  });
});

describe("runCompiled", () => {
  test("leaves jq errors and other exceptions as they are", () => {
    expect(() => jq.runCompiled(() => jq.fail("boom"))).toThrow(new jq.JqError("boom"));
    expect(() =>
      jq.runCompiled(() => {
        throw new TypeError("a bug");
      }),
    ).toThrow(TypeError);
  });
});
