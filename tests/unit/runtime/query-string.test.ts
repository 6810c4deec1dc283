import { describe, test, expect } from "../../support/jest.js";
import { HttpError } from "../../../runtime/core/errors.js";
import { parseQueryString, parseUrlEncoded } from "../../../runtime/core/query-string.js";

function failure(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error("expected an HttpError");
}

describe("query string", () => {
  test("plain pairs", () => {
    expect({ ...parseQueryString("a=1&b=two") }).toEqual({ a: "1", b: "two" });
  });

  test("+ is a space and %-escapes are decoded, in keys and values", () => {
    expect({ ...parseQueryString("title=buy+milk%21&na%6De=%C3%A9t%C3%A9") }).toEqual({
      title: "buy milk!",
      name: "été",
    });
    expect({ ...parseQueryString("q=1%2B1") }).toEqual({ q: "1+1" });
  });

  test("a key without = is an empty string; empty pieces are skipped", () => {
    expect({ ...parseQueryString("flag&&x=&y=1&") }).toEqual({ flag: "", x: "", y: "1" });
    expect({ ...parseQueryString("") }).toEqual({});
  });

  test("= inside a value is kept", () => {
    expect({ ...parseQueryString("expr=a=b") }).toEqual({ expr: "a=b" });
  });

  test("the result has no prototype, so __proto__ is a plain (unknown) key", () => {
    const parsed = parseQueryString("__proto__=x&constructor=y");
    expect("toString" in parsed).toBe(false);
    expect(Object.prototype.isPrototypeOf.call(Object.prototype, parsed)).toBe(false);
    expect(Object.keys(parsed)).toEqual(["__proto__", "constructor"]);
  });

  test("a repeated key is a 400 naming it", () => {
    const err = failure(() => parseQueryString("status=open&status=done"));
    expect(err.status).toBe(400);
    expect(err.message).toBe('argument "status" given more than once in the query string');
  });

  test("list syntax is a 400 naming the argument", () => {
    expect(failure(() => parseQueryString("tags[]=a")).message).toContain('argument "tags"');
    expect(failure(() => parseQueryString("filter[status]=open")).message).toContain('argument "filter"');
  });

  test("a bad %-escape is a 400", () => {
    for (const bad of ["a=%", "a=%zz", "a=%E0%A4%A", "%G1=1"]) {
      const err = failure(() => parseQueryString(bad));
      expect(err.status).toBe(400);
      expect(err.message).toBe("bad %-escape in the query string");
    }
  });

  test("form bodies name themselves in errors", () => {
    expect(failure(() => parseUrlEncoded("a=1&a=2", "form body")).message).toBe(
      'argument "a" given more than once in the form body',
    );
  });
});
