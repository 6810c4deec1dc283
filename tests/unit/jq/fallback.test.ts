// Valid jq outside the compiled subset is reported as a fallback with a reason, and runs
// correctly on jq-web with $params and $query bound.

import { describe, expect, test } from "@jest/globals";
import { compileJq } from "../../../compiler/jq/index.js";
import { JqError, loadJqWeb } from "../../../runtime/jq.js";
import { FALLBACK_PROGRAMS } from "./programs.js";

const vars = { params: { id: "7" }, query: { q: "a" } };

describe("programs outside the subset", () => {
  for (const { program, reason, input, outputs } of FALLBACK_PROGRAMS) {
    test(`${program} falls back and runs on jq-web`, async () => {
      const r = compileJq("app/page.jq", program);
      expect(r.kind).toBe("fallback");
      if (r.kind !== "fallback") return;
      expect(r.reason).toMatch(reason);
      expect(r.program).toBe(program);
      const run = await loadJqWeb();
      expect(run(r.program, input, vars)).toEqual(outputs);
    });
  }

  test("jq-web errors surface as JqError with jq's message", async () => {
    const run = await loadJqWeb();
    expect(() => run(".a", 1, vars)).toThrow(JqError);
    expect(() => run(".a", 1, vars)).toThrow('Cannot index number with string "a"');
  });

  test("jq-web binds $params and $query from data, never from program text", async () => {
    const run = await loadJqWeb();
    const hostile = { id: '") | halt_error("pwned' };
    expect(run("$params.id, $query", null, { params: hostile, query: null })).toEqual([hostile.id, null]);
  });

  test("a program with no outputs gives an empty list", async () => {
    const run = await loadJqWeb();
    expect(run("empty", null, vars)).toEqual([]);
  });

  test("a trailing comment does not swallow the wrapper", async () => {
    const run = await loadJqWeb();
    expect(run(".[1:] # rest", [1, 2], vars)).toEqual([[2]]);
  });
});
