// Text answers and the one error writer (runtime/core/answer/text.ts, errors.ts, server-header.ts;
// docs/language.md §2.4 "Answers of any media type", §3 "Error shape", docs/operations.md).

import { describe, expect, test } from "../../support/jest.js";
import { Answer } from "../../../runtime/core/answer/answer.js";
import { errorAnswers } from "../../../runtime/core/answer/error-answers.js";
import { answerClass, checkServerHeader } from "../../../runtime/core/answer/server-header.js";
import { answerHtml, answerText } from "../../../runtime/core/answer/text.js";
import { StartupError } from "../../../runtime/core/errors.js";
import type { ErrorShape } from "../../../runtime/contract/index.js";

const SHAPE: ErrorShape = { validationStatus: 422, body: (status, message) => JSON.stringify({ errors: { status, message } }) };

describe("text answers", () => {
  test("text as it is; an untyped value as text: null and absent empty, numbers as written, objects as JSON", () => {
    expect(answerText("Hello, World!")).toBe("Hello, World!");
    expect([answerText(null), answerText(undefined), answerText(42), answerText(true)]).toEqual(["", "", "42", "true"]);
    expect(answerText({ a: [1] })).toBe('{"a":[1]}');
  });

  test("html escapes what could become markup, in text and in attribute values alike", () => {
    expect(answerHtml(`<script>alert("x")</script>`)).toBe("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(answerHtml(`' onmouseover='x' & y`)).toBe("&#39; onmouseover=&#39;x&#39; &amp; y");
    expect(answerHtml({ tag: "<b>" })).toBe("{&quot;tag&quot;:&quot;&lt;b&gt;&quot;}");
  });
});

/** The head and body of a raw answer, split. */
function split(raw: string): { lines: string[]; body: string } {
  const at = raw.indexOf("\r\n\r\n");
  return { lines: raw.slice(0, at).split("\r\n"), body: raw.slice(at + 4) };
}

describe("the error writer", () => {
  test("raw answers: the envelope without [errors], the declared shape with it; Date always, Server when set", () => {
    const plain = split(errorAnswers(null, null).raw(408, "too slow", "req-1"));
    expect(plain.lines[0]).toBe("HTTP/1.1 408 Request Timeout");
    expect(JSON.parse(plain.body)).toEqual({ ok: false, error: "too slow" });
    expect(plain.lines.some((l) => l.startsWith("Date: "))).toBe(true);
    expect(plain.lines.some((l) => l.startsWith("Server:"))).toBe(false);
    const shaped = split(errorAnswers(SHAPE, "svc").raw(431, "headers too large", "req-2"));
    expect(JSON.parse(shaped.body)).toEqual({ errors: { status: 431, message: "headers too large" } });
    expect(shaped.lines).toEqual(expect.arrayContaining(["Server: svc", "X-Request-Id: req-2", "Connection: close", `Content-Length: ${Buffer.byteLength(shaped.body)}`]));
  });
});

describe("the Server header", () => {
  test("without the setting the response class is Answer itself; with it, a subclass", () => {
    expect(answerClass(null)).toBe(Answer);
    expect(answerClass(undefined)).toBe(Answer);
    const Named = answerClass("svc");
    expect(Named).not.toBe(Answer);
    expect(Named.prototype instanceof Answer).toBe(true);
  });

  test("values that could split a response or mislead are refused at start", () => {
    expect(checkServerHeader("svc/1.0 (linux)", "--server-header")).toBe("svc/1.0 (linux)");
    expect(checkServerHeader("", "--server-header")).toBeNull();
    for (const bad of ["svc\r\nSet-Cookie: a=b", "svc\n", " svc", "svc ", "zoë", "x".repeat(129), 5]) {
      expect(() => checkServerHeader(bad, "--server-header")).toThrow(StartupError);
    }
  });
});
