// runtime/lang/shape.ts, runtime/lang/lists.ts and contains (runtime/lang/builtins.ts): the checks generated validators call for list and
// record arguments, attacked with the values a client can send.
import { describe, expect, test } from "../../support/jest.js";
import { HttpError, ValidationError } from "../../../runtime/core/errors.js";
import { contains } from "../../../runtime/lang/builtins.js";
import * as expectCheck from "../../../runtime/lang/expect.js";
import * as lists from "../../../runtime/lang/lists.js";
import * as shape from "../../../runtime/lang/shape.js";
import { parseClientJson } from "../../../runtime/core/safe-json.js";

function refusal(f: () => unknown): [number, string] {
  try {
    f();
  } catch (e) {
    if (e instanceof HttpError) return [e.status, e.message];
    throw e;
  }
  throw new Error("not refused");
}

describe("shape.list", () => {
  test("checks the length before any item, then each item at its index", () => {
    let seen = 0;
    const counting = (v: unknown, p: string) => {
      seen++;
      return expectCheck.text(v, p);
    };
    expect(refusal(() => shape.list(new Array(1_000_000).fill(1), "tags", 20, counting))).toEqual([400, "tags has 1000000 items; at most 20 are allowed"]);
    expect(seen).toBe(0);
    expect(refusal(() => shape.list(["a", "b", 3], "tags", 20, counting))).toEqual([400, "tags[2] must be text"]);
    expect(shape.list(["a", "b"], "tags", 2, expectCheck.text)).toEqual(["a", "b"]);
  });

  test("anything but an array is refused: a string, an object with length, null", () => {
    for (const v of ["abc", { length: 1, 0: "a" }, null, 5]) expect(refusal(() => shape.list(v, "xs", 5, shape.any))).toEqual([400, "xs must be a list"]);
  });

  test("nested lists name every index", () => {
    const grid = (v: unknown, p: string) => shape.list(v, p, 3, expectCheck.int);
    expect(refusal(() => shape.list([[1], [2, "x"]], "grid", 3, grid))).toEqual([400, "grid[1][1] must be a whole number between -(2^53-1) and 2^53-1"]);
  });
});

describe("shape.record", () => {
  test("only a plain object with declared members", () => {
    for (const v of [null, [], "x", 1, true]) expect(refusal(() => shape.record(v, "user", "NewUser", ["a"]))).toEqual([400, "user must be an object (NewUser)"]);
    expect(refusal(() => shape.record({ a: 1, toString: 2 }, "user", "NewUser", ["a"]))).toEqual([400, "user.toString is not a member of NewUser"]);
    expect(shape.record({ a: 1 }, "user", "NewUser", ["a"])).toEqual({ a: 1 });
  });

  test("keys that reach a prototype never get this far: the body parser refuses them", () => {
    expect(() => parseClientJson('{"user": {"__proto__": {"admin": true}}}')).toThrow(/forbidden key/);
    expect(() => parseClientJson('{"user": {"constructor": 1}}')).toThrow(/forbidden key/);
  });

  test("missing members and enum values", () => {
    expect(refusal(() => shape.missing("user.address", "city"))).toEqual([400, "user.address.city is required"]);
    const role = shape.oneOf(["reader", "writer"]);
    expect(role("reader", "user.role")).toBe("reader");
    expect(refusal(() => role("toString", "user.role"))).toEqual([400, "user.role must be one of: reader, writer"]);
    expect(shape.orNull(role)(null, "r")).toBeNull();
  });

  test("as text, a list or record is JSON", () => {
    expect(shape.fromText('["a"]', "tags", true)).toEqual(["a"]);
    expect(shape.fromText('["a"]', "tags", false)).toBe('["a"]');
    expect(refusal(() => shape.fromText("[nope", "tags", true))).toEqual([400, 'argument "tags" must be JSON']);
  });
});

describe("list builtins", () => {
  test("null-safe, by value", () => {
    expect(contains(null, "a")).toBe(false);
    expect(contains(["a", 1], 1)).toBe(true);
    expect(lists.unique(["b", "a", "b", "c", "a"])).toEqual(["b", "a", "c"]);
    expect(lists.unique(null)).toEqual([]);
    expect(lists.join(["a", "b"], ", ")).toBe("a, b");
    expect(lists.join(null, ",")).toBe("");
    expect(lists.items(null)).toEqual([]);
  });

  test("join of a list read from json checks each item", () => {
    expect(refusal(() => lists.join(["a", { b: 1 }], ",", "doc.tags"))).toEqual([400, "doc.tags[1] must be text"]);
    expect(refusal(() => expectCheck.listOrNull("a", "doc.tags"))).toEqual([400, "doc.tags must be a list"]);
    expect(expectCheck.listOrNull(undefined, "doc.tags")).toBeNull();
  });
});

describe("refusals of client values are validation errors", () => {
  // A route that responds renumbers validation errors with `[errors] validation_status`
  // (Conduit: 422): a missing record member must answer like a mistyped one.
  test("record, list, enum and json-member refusals", () => {
    const kinds: Array<() => unknown> = [
      () => shape.missing("user", "email"),
      () => shape.record("x", "user", "NewUser", ["a"]),
      () => shape.record({ b: 1 }, "user", "NewUser", ["a"]),
      () => shape.list("x", "tags", 5, shape.any),
      () => shape.list([1, 2], "tags", 1, shape.any),
      () => shape.oneOf(["a"])("b", "role"),
      () => lists.join([1], ",", "doc.items"),
      () => contains(5 as unknown as string, "a"),
    ];
    for (const f of kinds) {
      let caught: unknown;
      try {
        f();
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ValidationError);
      expect((caught as ValidationError).status).toBe(400);
    }
  });
});
