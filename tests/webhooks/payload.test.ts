// A verified body becomes the handler's `payload`: JSON, forms (Slack, GitHub's form
// content type), other text, nothing.

import { describe, expect, test } from "../support/jest.js";
import { HttpError } from "../../runtime/core/errors.js";
import { parsePayload } from "../../runtime/webhooks/payload.js";

const parse = (body: string | Buffer, contentType?: string) =>
  parsePayload(
    contentType === undefined ? {} : { "content-type": contentType },
    typeof body === "string" ? Buffer.from(body) : body,
  );

function status(f: () => unknown): number {
  try {
    f();
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    throw err;
  }
  return 200;
}

describe("payload", () => {
  test("JSON, whatever the declared media type", () => {
    expect(parse('{"a":[1,{"b":null}]}', "application/json")).toEqual({ a: [1, { b: null }] });
    expect(parse('{"a":1}', "application/vnd.provider+json; charset=utf-8")).toEqual({ a: 1 });
    expect(parse('{"a":1}', "text/plain")).toEqual({ a: 1 });
    expect(parse("[1,2]")).toEqual([1, 2]);
  });

  test("keys API arguments refuse are kept: provider metadata may use any key", () => {
    const value = parse('{"metadata":{"constructor":"x","__proto__":{"polluted":true}}}', "application/json") as any;
    expect(Object.keys(value.metadata)).toEqual(["constructor", "__proto__"]);
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value.metadata)).toBe(Object.prototype);
  });

  test("a form whose only field is payload is that field's JSON (GitHub's form type, Slack interactivity)", () => {
    const body = `payload=${encodeURIComponent('{"type":"block_actions","user":{"id":"U1"}}')}`;
    expect(parse(body, "application/x-www-form-urlencoded")).toEqual({ type: "block_actions", user: { id: "U1" } });
    expect(status(() => parse("payload=not+json", "application/x-www-form-urlencoded"))).toBe(400);
  });

  test("any other form is an object of its fields (Slack slash commands), a repeated one a list", () => {
    const value = parse(
      "command=%2Fdeploy&text=web+now&channel_id=C1&tag=a&tag=b",
      "application/x-www-form-urlencoded; charset=utf-8",
    );
    expect({ ...(value as object) }).toEqual({
      command: "/deploy",
      text: "web now",
      channel_id: "C1",
      tag: ["a", "b"],
    });
  });

  test("text that is not JSON is passed as the string", () => {
    expect(parse("plain words", "text/plain")).toBe("plain words");
    expect(parse("plain words")).toBe("plain words");
  });

  test("an empty body is null", () => {
    expect(parse("", "application/json")).toBeNull();
  });

  test("a body that says JSON and is not is a 400; so are bad UTF-8 and absurd nesting", () => {
    expect(status(() => parse("{nope", "application/json"))).toBe(400);
    expect(status(() => parse(Buffer.from([0x7b, 0xff, 0x7d]), "application/json"))).toBe(400);
    expect(status(() => parse("[".repeat(100) + "]".repeat(100)))).toBe(400);
  });
});
