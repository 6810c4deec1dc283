// runtime/values/: random numbers within their bounds, text read as numbers and bools (null on
// anything else), clamp/min/max, range and the bounded lists a collecting `for` builds.

import { describe, expect, test } from "../../support/jest.js";
import { ValidationError } from "../../../runtime/core/errors.js";
import { clamp, collect, max, min, parseBool, parseFloat, parseInt, random, randomInt, range } from "../../../runtime/values/index.js";

describe("random", () => {
  test("random_int gives every value from lo to hi, both included, and nothing else", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 3000; i++) {
      const n = randomInt(-3, 3);
      expect(Number.isInteger(n) && n >= -3 && n <= 3).toBe(true);
      seen.add(n);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(randomInt(5, 5)).toBe(5);
  });

  test("bounds at the edges of safe integers work; wrong ones are 400s, not RangeErrors", () => {
    const top = Number.MAX_SAFE_INTEGER;
    for (let i = 0; i < 50; i++) {
      const n = randomInt(top - 3, top);
      expect(n >= top - 3 && n <= top).toBe(true);
      const m = randomInt(-top, -top + 1);
      expect(m === -top || m === -top + 1).toBe(true);
    }
    expect(() => randomInt(2, 1)).toThrow(new ValidationError("SVC_ERR_VALIDATION", "random_int(2, 1): the low bound is above the high one"));
    expect(() => randomInt(0, 2 ** 48)).toThrow(ValidationError);
    expect(() => randomInt(-top, top)).toThrow(ValidationError);
    expect(randomInt(0, 2 ** 48 - 3)).toBeLessThanOrEqual(2 ** 48 - 3);
  });

  test("random() is in [0, 1), and not stuck on a few values", () => {
    const values = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const r = random();
      expect(r >= 0 && r < 1).toBe(true);
      values.add(r);
    }
    expect(values.size).toBe(2000);
    const low = [...values].filter((v) => v < 0.5).length;
    // A fair coin 2000 times: outside 800…1200 has a probability far below 1e-18.
    expect(low > 800 && low < 1200).toBe(true);
  });
});

describe("parse_int, parse_float, parse_bool", () => {
  test.each([
    ["42", 42],
    ["-42", -42],
    ["+42", 42],
    [" \t42\r\n", 42],
    ["007", 7],
    ["-0", 0],
    ["9007199254740991", 9007199254740991],
    ["-9007199254740991", -9007199254740991],
    ["9007199254740992", null],
    ["1.0", null],
    ["1e3", null],
    ["0x1A", null],
    ["1_000", null],
    ["", null],
    [" ", null],
    ["+", null],
    ["4 2", null],
    ["٤٢", null],
    ["\u00a042", null],
    [null, null],
  ] as [string | null, number | null][])("parse_int(%j) is %j", (s, n) => {
    expect(parseInt(s)).toBe(n);
  });

  test.each([
    ["1.5", 1.5],
    ["-.5", -0.5],
    ["2.", 2],
    ["1e3", 1000],
    ["1E-2", 0.01],
    [" 3 ", 3],
    ["-0", 0],
    ["1e308", 1e308],
    ["1e309", null],
    ["Infinity", null],
    ["NaN", null],
    [".", null],
    ["e3", null],
    ["0x10", null],
    ["1,5", null],
    ["", null],
    [null, null],
  ] as [string | null, number | null][])("parse_float(%j) is %j", (s, n) => {
    expect(parseFloat(s)).toBe(n);
  });

  test.each([
    ["true", true],
    ["TRUE", true],
    [" True ", true],
    ["1", true],
    ["false", false],
    ["0", false],
    ["yes", null],
    ["on", null],
    ["", null],
    ["01", null],
    [null, null],
  ] as [string | null, boolean | null][])("parse_bool(%j) is %j", (s, b) => {
    expect(parseBool(s)).toBe(b);
  });
});

describe("clamp, min, max", () => {
  test("clamp brings x into [lo, hi]; when lo is above hi, hi wins", () => {
    expect([clamp(5, 1, 10), clamp(-1, 1, 10), clamp(11, 1, 10), clamp(5, 10, 1)]).toEqual([5, 1, 10, 1]);
    expect([min(3, 1, 2), max(3, 1, 2), min(1.5, 2), max(-1, -2)]).toEqual([1, 3, 1.5, -1]);
  });
});

describe("range and collect", () => {
  test("range(a, b) is a … b-1, empty when b is not past a, at most 10000 items", () => {
    expect(range(0, 3)).toEqual([0, 1, 2]);
    expect(range(2, 5)).toEqual([2, 3, 4]);
    expect(range(5, 5)).toEqual([]);
    expect(range(0, -4)).toEqual([]);
    expect(range(0, 10000)).toHaveLength(10000);
    expect(() => range(0, 10001)).toThrow(new ValidationError("SVC_ERR_VALIDATION", "range(0, 10001) has 10001 items; at most 10000 are allowed"));
    expect(() => range(0, 1e15)).toThrow(ValidationError);
  });

  test("collect adds up to max items; one more is a 400 naming the list", () => {
    const xs: number[] = [];
    collect(xs, 1, 2, "xs");
    collect(xs, 2, 2, "xs");
    expect(xs).toEqual([1, 2]);
    expect(() => collect(xs, 3, 2, "xs")).toThrow(new ValidationError("SVC_ERR_VALIDATION", "xs has more than 2 items; at most 2 are allowed"));
    expect(xs).toEqual([1, 2]);
  });
});
