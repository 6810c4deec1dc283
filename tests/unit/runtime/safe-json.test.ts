import { describe, test, expect } from "../../support/jest.js";
import {
  findForbiddenKey,
  JsonProblem,
  MAX_JSON_DEPTH,
  nestingExceeds,
  parseClientJson,
} from "../../../runtime/core/safe-json.js";

function problem(text: string): JsonProblem {
  try {
    parseClientJson(text);
  } catch (err) {
    if (err instanceof JsonProblem) return err;
    throw err;
  }
  throw new Error("expected a JsonProblem");
}

describe("parseClientJson", () => {
  test("ordinary JSON parses", () => {
    expect(parseClientJson('{"a":[1,{"b":"c"}],"d":null}')).toEqual({ a: [1, { b: "c" }], d: null });
  });

  test("malformed JSON", () => {
    expect(problem("{").kind).toBe("malformed");
    expect(problem("{'a':1}").kind).toBe("malformed");
  });

  test("forbidden keys at any depth, also when written with \\u escapes", () => {
    expect(problem('{"__proto__":{"admin":true}}').message).toBe('forbidden key "__proto__"');
    expect(problem('{"a":[{"b":{"constructor":{"prototype":1}}}]}').kind).toBe("forbidden-key");
    expect(problem('{"x":{"\\u005f_proto__":1}}').message).toBe('forbidden key "__proto__"');
  });

  test("the words as values, not keys, are fine", () => {
    expect(parseClientJson('{"note":"__proto__ constructor prototype"}')).toEqual({
      note: "__proto__ constructor prototype",
    });
  });

  test(`nesting up to ${MAX_JSON_DEPTH} is fine; deeper is refused before parsing`, () => {
    const ok = "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH);
    expect(() => parseClientJson(ok)).not.toThrow();
    const deep = "[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1);
    expect(problem(deep).kind).toBe("too-deep");
  });

  test("the shortest text that nests too deep is refused: the scan is skipped only below it", () => {
    // MAX_JSON_DEPTH + 1 open brackets and nothing else: malformed, but too deep first.
    const shortest = "[".repeat(MAX_JSON_DEPTH + 1);
    expect(shortest.length).toBe(MAX_JSON_DEPTH + 1);
    expect(problem(shortest).kind).toBe("too-deep");
    expect(problem("[".repeat(MAX_JSON_DEPTH)).kind).toBe("malformed");
  });

  test("a million open brackets neither crash nor recurse", () => {
    expect(problem('{"a":' + "[".repeat(1_000_000)).kind).toBe("too-deep");
  });

  test("brackets inside strings do not count as nesting", () => {
    const text = JSON.stringify({ s: "[".repeat(500) + '\\"{' });
    expect(nestingExceeds(text, 2)).toBe(false);
    expect(parseClientJson(text)).toEqual({ s: "[".repeat(500) + '\\"{' });
  });

  test("findForbiddenKey walks arrays and objects", () => {
    expect(findForbiddenKey([1, [2, { ok: { prototype: 0 } }]])).toBe("prototype");
    expect(findForbiddenKey({ a: { b: [null, "x"] } })).toBeNull();
  });
});
