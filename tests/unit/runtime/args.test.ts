import { describe, test, expect } from "../../support/jest.js";
import * as arg from "../../../runtime/lang/args.js";
import { HttpError } from "../../../runtime/core/errors.js";

function failure(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error("expected an HttpError");
}

/** Asserts a 400 whose message names the argument. */
function rejects(fn: () => unknown, name = "x"): string {
  const err = failure(fn);
  expect(err.status).toBe(400);
  expect(err.message).toContain(`"${name}"`);
  return err.message;
}

describe("text", () => {
  test("strings pass in both modes", () => {
    expect(arg.text("hi", "x", false)).toBe("hi");
    expect(arg.text("", "x", true)).toBe("");
  });
  test("JSON non-strings are refused", () => {
    for (const v of [1, true, null, {}, []]) rejects(() => arg.text(v, "x", false));
  });
});

describe("int", () => {
  test("JSON: safe integers only", () => {
    expect(arg.int(42, "x", false)).toBe(42);
    expect(arg.int(-(2 ** 53 - 1), "x", false)).toBe(-(2 ** 53 - 1));
    expect(arg.int(2 ** 53 - 1, "x", false)).toBe(2 ** 53 - 1);
    rejects(() => arg.int(2 ** 53, "x", false));
    rejects(() => arg.int(1.5, "x", false));
    rejects(() => arg.int("5", "x", false));
    rejects(() => arg.int(true, "x", false));
  });
  test("text: ^-?\\d+$ within the safe range", () => {
    expect(arg.int("50", "limit", true)).toBe(50);
    expect(arg.int("-7", "x", true)).toBe(-7);
    expect(arg.int("007", "x", true)).toBe(7);
    expect(Object.is(arg.int("-0", "x", true), 0)).toBe(true);
    expect(arg.int("9007199254740991", "x", true)).toBe(9007199254740991);
    expect(rejects(() => arg.int("9007199254740992", "x", true))).toContain("between");
    for (const bad of ["abc", "1e309", "1.5", "", "-", " 1", "1 ", "+1", "0x10", "1e3", "Infinity", "١"]) {
      expect(rejects(() => arg.int(bad, "limit", true), "limit")).toContain("integer");
    }
  });
  test("text mode still judges a non-string by the JSON rules", () => {
    expect(arg.int(3, "x", true)).toBe(3);
    rejects(() => arg.int(3.5, "x", true));
  });
});

describe("float", () => {
  test("JSON: finite numbers", () => {
    expect(arg.float(1.5, "x", false)).toBe(1.5);
    expect(arg.float(3, "x", false)).toBe(3);
    rejects(() => arg.float("1.5", "x", false));
    rejects(() => arg.float(null, "x", false));
  });
  test("text: decimal literals, finite", () => {
    expect(arg.float("1.5", "x", true)).toBe(1.5);
    expect(arg.float("-2e3", "x", true)).toBe(-2000);
    expect(arg.float(".5", "x", true)).toBe(0.5);
    expect(arg.float("1e308", "x", true)).toBe(1e308);
    expect(rejects(() => arg.float("1e309", "x", true))).toContain("finite");
    for (const bad of ["abc", "", "NaN", "Infinity", "0x1A", " 1", "1,5", "1.2.3", "e5"])
      rejects(() => arg.float(bad, "x", true));
  });
});

describe("bool", () => {
  test("JSON: true and false only", () => {
    expect(arg.bool(true, "x", false)).toBe(true);
    expect(arg.bool(false, "x", false)).toBe(false);
    rejects(() => arg.bool("true", "x", false));
    rejects(() => arg.bool(1, "x", false));
  });
  test("text: true/false/1/0", () => {
    expect(arg.bool("true", "x", true)).toBe(true);
    expect(arg.bool("1", "x", true)).toBe(true);
    expect(arg.bool("false", "x", true)).toBe(false);
    expect(arg.bool("0", "x", true)).toBe(false);
    for (const bad of ["yes", "TRUE", "", "2"]) rejects(() => arg.bool(bad, "x", true));
  });
});

describe("id", () => {
  test("a non-empty string of at most 64 characters", () => {
    expect(arg.id("01HZX3K9", "id", false)).toBe("01HZX3K9");
    expect(arg.id("a".repeat(64), "id", true)).toHaveLength(64);
    rejects(() => arg.id("a".repeat(65), "id", true), "id");
    rejects(() => arg.id("", "id", true), "id");
    rejects(() => arg.id(42, "id", false), "id");
  });
});

describe("timestamp", () => {
  test("normalized to UTC toISOString form", () => {
    expect(arg.timestamp("2024-05-01T12:00:00Z", "at", false)).toBe("2024-05-01T12:00:00.000Z");
    expect(arg.timestamp("2024-05-01T14:30:00+02:00", "at", true)).toBe("2024-05-01T12:30:00.000Z");
    expect(arg.timestamp("2024-05-01", "at", true)).toBe("2024-05-01T00:00:00.000Z");
  });
  test("not a timestamp: 400 naming the argument", () => {
    for (const bad of ["yesterday", "May 1, 2024", "2024-02-30", "2024-13-01", "", "1714564800000"])
      rejects(() => arg.timestamp(bad, "at", true), "at");
    rejects(() => arg.timestamp(1714564800000, "at", false), "at");
  });
});

describe("json", () => {
  test("JSON input passes through as is", () => {
    const value = { a: [1, 2] };
    expect(arg.json(value, "x", false)).toBe(value);
    expect(arg.json("just a string", "x", false)).toBe("just a string");
    expect(arg.json(null, "x", false)).toBeNull();
  });
  test("text input is parsed as JSON", () => {
    expect(arg.json('{"a":[1,2]}', "x", true)).toEqual({ a: [1, 2] });
    expect(arg.json("3", "x", true)).toBe(3);
    expect(rejects(() => arg.json("{nope", "meta", true), "meta")).toBe('argument "meta" must be JSON');
    expect(rejects(() => arg.json('{"__proto__":{"x":1}}', "meta", true), "meta")).toContain("__proto__");
    expect(rejects(() => arg.json("[".repeat(100) + "]".repeat(100), "meta", true), "meta")).toContain("deeper");
  });
});

describe("enumOf", () => {
  const priority = arg.enumOf(["low", "medium", "high", "critical"]);
  test("values in the list pass, in both modes", () => {
    expect(priority("high", "priority", false)).toBe("high");
    expect(priority("low", "priority", true)).toBe("low");
  });
  test("a value outside the list is a 400 listing the allowed values", () => {
    expect(rejects(() => priority("urgent", "priority", false), "priority")).toBe(
      'argument "priority" must be one of: low, medium, high, critical',
    );
    rejects(() => priority(1, "priority", false), "priority");
    rejects(() => priority("toString", "priority", false), "priority");
  });
});

describe("rejectUnknown, missing, isNull, isText", () => {
  test("unknown arguments are named, one or many", () => {
    expect(() => arg.rejectUnknown({ title: "a" }, ["title", "assignee"])).not.toThrow();
    expect(failure(() => arg.rejectUnknown({ title: "a", colour: "red" }, ["title"])).message).toBe(
      'unknown argument "colour"',
    );
    expect(failure(() => arg.rejectUnknown({ a: 1, b: 2 }, [])).message).toBe('unknown arguments "a", "b"');
  });
  test("missing throws the required-argument 400", () => {
    const err = failure(() => arg.missing("title"));
    expect(err.status).toBe(400);
    expect(err.message).toBe('argument "title" is required');
  });
  test("isNull: undefined, null, and an empty text value mean null for a nullable argument", () => {
    expect(arg.isNull(undefined, false)).toBe(true);
    expect(arg.isNull(null, false)).toBe(true);
    expect(arg.isNull("", true)).toBe(true);
    expect(arg.isNull("", false)).toBe(false);
    expect(arg.isNull(0, true)).toBe(false);
    expect(arg.isNull("x", true)).toBe(false);
  });
  test("isText: whole text input, or a path parameter merged into JSON", () => {
    expect(arg.isText({ args: {}, text: true }, "id")).toBe(true);
    expect(arg.isText({ args: {}, text: false }, "id")).toBe(false);
    expect(arg.isText({ args: {}, text: false, textArgs: ["id"] }, "id")).toBe(true);
    expect(arg.isText({ args: {}, text: false, textArgs: ["id"] }, "count")).toBe(false);
  });
});
