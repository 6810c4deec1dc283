// Shaped answers (runtime/core/answer/shaped.ts, docs/language.md §2.4, docs/operations.md): the base URL
// under attack (forged forwarded headers, hosts that would bend a link), header values that
// would split a response, and errors in the app's shape.

import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, test } from "../../support/jest.js";
import ts from "typescript";
import type { Model } from "../../../compiler/analyze/model/model.js";
import { respondSection } from "../../../compiler/generate/sections/respond.js";
import { Names } from "../../../compiler/generate/names.js";
import { HttpError, ValidationError } from "../../../runtime/core/errors.js";
import { RequestView, headerText, sendShapedError } from "../../../runtime/core/answer/shaped.js";
import type { ErrorShape } from "../../../runtime/contract/index.js";
import { memoryLogger } from "./helpers.js";

function view(headers: Record<string, string | string[]>, site: { publicUrl?: string; trustProxy?: boolean } = {}): RequestView {
  return new RequestView({ headers } as unknown as IncomingMessage, { publicUrl: site.publicUrl ?? null, trustProxy: site.trustProxy ?? false });
}

function status(fn: () => unknown): number | string {
  try {
    return String(fn());
  } catch (err) {
    return err instanceof HttpError ? err.status : "not an HttpError";
  }
}

describe("input.base_url", () => {
  test("from Host, lower-cased, over http", () => {
    expect(view({ host: "API.Example.com:8080" }).baseUrl()).toBe("http://api.example.com:8080");
    expect(view({ host: "[::1]:8080" }).baseUrl()).toBe("http://[::1]:8080");
    expect(view({ host: "127.0.0.1" }).baseUrl()).toBe("http://127.0.0.1");
  });

  test("forwarded headers are ignored unless the proxy is trusted", () => {
    const forged = { host: "api.example.com", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    expect(view(forged).baseUrl()).toBe("http://api.example.com");
    expect(view(forged, { trustProxy: true }).baseUrl()).toBe("https://evil.example");
  });

  test("behind a trusted proxy: the first (client-side) value; an odd proto is ignored", () => {
    const v = view({ host: "inner:8080", "x-forwarded-host": "a.example, inner:8080", "x-forwarded-proto": "https, http" }, { trustProxy: true });
    expect(v.baseUrl()).toBe("https://a.example");
    expect(view({ host: "a.example", "x-forwarded-proto": "javascript" }, { trustProxy: true }).baseUrl()).toBe("http://a.example");
    expect(view({ host: "a.example", "x-forwarded-host": " " }, { trustProxy: true }).baseUrl()).toBe("http://a.example");
  });

  test("a host that would bend the URL is a 400, from Host or a trusted X-Forwarded-Host", () => {
    for (const host of ["a.example@evil.example", "evil.example/path", "a b", "[::1", "a.example:99999x", "-a.example", "a..example", ""]) {
      expect([host, status(() => view({ host }).baseUrl())]).toEqual([host, 400]);
      expect([host, status(() => view({ host: "ok.example", "x-forwarded-host": `${host}x/` }, { trustProxy: true }).baseUrl())]).toEqual([host, 400]);
    }
    expect(status(() => view({}).baseUrl())).toBe(400);
  });

  test("a configured public URL wins over everything the request says", () => {
    const v = view({ host: "evil.example", "x-forwarded-host": "evil.example" }, { publicUrl: "https://api.example.com", trustProxy: true });
    expect(v.baseUrl()).toBe("https://api.example.com");
  });
});

describe("headers", () => {
  test("input.headers reads a request header; repeated ones are joined", () => {
    expect(view({ "x-tag": ["a", "b"] }).header("x-tag")).toBe("a, b");
    expect(view({}).header("x-tag")).toBeUndefined();
  });

  test("a header value can never split the response", () => {
    expect(headerText("/a\r\nSet-Cookie: x=1")).toBe("/a%0D%0ASet-Cookie: x=1");
    expect(headerText("/caf\u00e9")).toBe("/caf%C3%A9");
    expect([headerText(null), headerText(undefined), headerText(5), headerText({ a: 1 })]).toEqual([null, null, "5", '{"a":1}']);
  });
});

/** The [errors] function the generator writes, transpiled and loaded. */
function compiledShape(body: unknown, validationStatus = 422): ErrorShape {
  const model = { modules: ["m"], statements: [], routes: [], errorShape: { body, validationStatus } } as unknown as Model;
  const out = respondSection(model, new Names(model));
  const decl = out.find((s) => typeof s !== "string" && "declarations" in s) as { declarations: { initializer: string }[] };
  const js = ts.transpileModule(`return ${decl.declarations[0].initializer};`, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
  return new Function(js)() as ErrorShape;
}

describe("the [errors] body, compiled", () => {
  test("Conduit's shape, with a message that needs escaping", () => {
    const shape = compiledShape({ errors: { body: ["{message}"] } });
    expect(JSON.parse(shape.body(422, 'a "quoted"\nmessage'))).toEqual({ errors: { body: ['a "quoted"\nmessage'] } });
    expect(shape.validationStatus).toBe(422);
  });

  test("{status} alone is a number; inside text it is text; other values stay as written", () => {
    const shape = compiledShape({ error: { status: "{status}", text: "{status}: {message}", ok: false, n: 1, none: null } });
    expect(JSON.parse(shape.body(404, "not found"))).toEqual({ error: { status: 404, text: "404: not found", ok: false, n: 1, none: null } });
  });
});

describe("errors of shaped routes", () => {
  function fakeResponse() {
    const set: Record<string, string> = {};
    let code = 0;
    let body = "";
    const res = {
      headersSent: false,
      setHeader: (name: string, value: string) => (set[name.toLowerCase()] = value),
      writeHead: (c: number, more: Record<string, string | number>) => {
        code = c;
        for (const [k, v] of Object.entries(more)) set[k.toLowerCase()] = String(v);
      },
      end: (text: string) => (body = text),
    } as unknown as ServerResponse;
    return { res, answer: () => ({ code, body: JSON.parse(body) as unknown, set }) };
  }
  const shape = compiledShape({ errors: { body: ["{message}"] } });

  test("validation errors take validation_status; other statuses and their headers are kept", () => {
    const { log } = memoryLogger();
    const a = fakeResponse();
    sendShapedError(a.res, new ValidationError("SVC_ERR_ARGUMENT", 'argument "title" is required'), shape, log);
    expect(a.answer()).toMatchObject({ code: 422, body: { errors: { body: ['argument "title" is required'] } } });
    const b = fakeResponse();
    sendShapedError(b.res, new HttpError(405, "method not allowed", { headers: { Allow: "GET" } }), shape, log);
    expect(b.answer()).toMatchObject({ code: 405, set: { allow: "GET" } });
    const c = fakeResponse();
    sendShapedError(c.res, new HttpError(400, "malformed JSON body"), shape, log);
    expect(c.answer().code).toBe(400);
  });

  test("anything else is a 500 that says only `internal error`; the details go to the log", () => {
    const { log, lines } = memoryLogger();
    const r = fakeResponse();
    sendShapedError(r.res, new TypeError("secret detail"), shape, log, { request_id: "r1" });
    expect(r.answer()).toMatchObject({ code: 500, body: { errors: { body: ["internal error"] } } });
    expect(JSON.stringify(r.answer().body)).not.toContain("secret");
    expect(lines().some((l) => l.request_id === "r1" && String(l.error).includes("secret detail"))).toBe(true);
  });
});
