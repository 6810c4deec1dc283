// Response control over real sockets (docs/language.md §2.4, §3, §4; issue 12 part 1): routes
// that `respond` answer their own status, body (no envelope) and headers, errors take the
// app's [errors] shape with 422 for validation, PATCH, HEAD and OPTIONS work, CORS
// preflights list every routed method, and `input.base_url` believes forwarded headers
// only when trust_proxy says so.

import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

let dir: string;
let server: TestServer;
let trusting: TestServer;
let fixed: TestServer;

beforeAll(async () => {
  dir = await buildTo({ mode: "project", dir: join(repoRoot, "tests", "http", "projects", "respond") });
  server = await startServer(dir, ["--db", join(dir, "a.db")]);
  trusting = await startServer(dir, ["--db", join(dir, "b.db"), "--trust-proxy", "true", "--cors-origin", "https://app.example"]);
  fixed = await startServer(dir, ["--db", join(dir, "c.db"), "--public-url", "https://api.example.com"]);
});

afterAll(async () => {
  for (const s of [server, trusting, fixed]) expect(await s?.stop()).toBe(0);
  removeDir(dir);
});

/** One raw HTTP/1.1 exchange: for a Host header no client library would send. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let out = "";
    socket.setTimeout(5000, () => socket.destroy(new Error("no answer")));
    socket.on("data", (c) => (out += c.toString("utf8")));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
    socket.write(text);
  });
}

describe("module routes with respond", () => {
  test("201 with the body as written, no envelope, and an absolute Location", async () => {
    const r = await call(`${server.url}/api/articles`, { json: { slug: "hello", title: "Hello" } });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ article: { id: expect.any(String), slug: "hello", title: "Hello", body: null } });
    expect(r.headers.location).toBe(`http://127.0.0.1:${server.port}/api/articles/hello`);
  });

  test("200 with request headers in the body; a missing one is left out", async () => {
    const r = await call(`${server.url}/api/articles/hello`, { headers: { "x-request-id": "req-42" } });
    expect([r.status, r.json.article.slug, r.json.requestId]).toEqual([200, "hello", "req-42"]);
    const plain = await call(`${server.url}/api/articles/hello`);
    expect([plain.status, "requestId" in plain.json]).toEqual([200, false]);
  });

  test("a `one` query with no row is a 404 in the error shape", async () => {
    const r = await call(`${server.url}/api/articles/nope`);
    expect([r.status, r.json]).toEqual([404, { errors: { body: ["not found"] } }]);
  });

  test("argument checks are 422 in the error shape; fail keeps its status", async () => {
    const missing = await call(`${server.url}/api/articles`, { json: { slug: "x" } });
    expect([missing.status, missing.json]).toEqual([422, { errors: { body: ['argument "title" is required'] } }]);
    const wrong = await call(`${server.url}/api/articles`, { json: { slug: "x", title: 5 } });
    expect([wrong.status, wrong.json]).toEqual([422, { errors: { body: ['argument "title" must be a string'] } }]);
    const blank = await call(`${server.url}/api/articles`, { json: { slug: "x", title: " " } });
    expect([blank.status, blank.json]).toEqual([422, { errors: { body: ["title must not be blank"] } }]);
    const gone = await call(`${server.url}/api/articles/nope`, { method: "PATCH", json: { title: "T" } });
    expect([gone.status, gone.json]).toEqual([404, { errors: { body: ["article not found"] } }]);
    const malformed = await call(`${server.url}/api/articles`, { body: "{", headers: { "content-type": "application/json" } });
    expect([malformed.status, malformed.json]).toEqual([400, { errors: { body: ["malformed JSON body"] } }]);
  });

  test("PATCH updates, DELETE answers 204 with no body, and the list answers its rows", async () => {
    const p = await call(`${server.url}/api/articles/hello`, { method: "PATCH", json: { title: "Hi" } });
    expect([p.status, p.json.article.title]).toEqual([200, "Hi"]);
    await call(`${server.url}/api/articles`, { json: { slug: "second", title: "Two" } });
    const list = await call(`${server.url}/api/articles`);
    expect(list.json.articles.map((a: { slug: string }) => a.slug)).toEqual(["hello", "second"]);
    const d = await call(`${server.url}/api/articles/second`, { method: "DELETE" });
    expect([d.status, d.text, d.headers["content-type"]]).toEqual([204, "", undefined]);
    expect((await call(`${server.url}/api/articles/second`)).status).toBe(404);
  });

  test("the module endpoint and a route without respond keep the envelope", async () => {
    const direct = await call(`${server.url}/api/blog:create_article`, { json: { slug: "third", title: "Three" } });
    expect([direct.status, direct.json.ok, direct.json.data.slug]).toEqual([200, true, "third"]);
    const bad = await call(`${server.url}/api/blog:create_article`, { json: { slug: "x" } });
    expect([bad.status, bad.json]).toEqual([400, { ok: false, error: 'argument "title" is required' }]);
    const plain = await call(`${server.url}/v1/articles`, { json: { title: "Four" } });
    expect([plain.status, plain.json]).toEqual([400, { ok: false, error: 'argument "slug" is required' }]);
  });
});

describe("route-file blocks with respond", () => {
  test("JSON callers get the block's answer; a form post is still redirected", async () => {
    const r = await call(`${server.url}/api/notes`, { json: { text: "first" }, headers: { "x-tag": "t1" } });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ note: { text: "first", tags: ["a", "t1"] } });
    expect(r.headers.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/api/notes/[0-9A-Z]{26}$`));
    const form = await call(`${server.url}/api/notes`, {
      body: "text=second",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    });
    expect([form.status, form.headers.location]).toEqual([303, "/"]);
    const list = await call(`${server.url}/api/notes`);
    expect(list.json.notes.map((n: { text: string }) => n.text)).toEqual(["first", "second"]);
    expect(list.json.base).toBe(`http://127.0.0.1:${server.port}`);
  });

  test("errors of a shaped block take the error shape; an unshaped PATCH block keeps the envelope", async () => {
    const blank = await call(`${server.url}/api/notes`, { json: { text: " " } });
    expect([blank.status, blank.json]).toEqual([400, { errors: { body: ["text must not be blank"] } }]);
    const missing = await call(`${server.url}/api/notes`, { json: {} });
    expect([missing.status, missing.json]).toEqual([422, { errors: { body: ['argument "text" is required'] } }]);
    const patched = await call(`${server.url}/api/notes`, { method: "PATCH", json: { text: "third" } });
    expect([patched.status, patched.json.ok, patched.json.data.result.text]).toEqual([200, true, "third"]);
  });

  test("a request header passed as an argument is text, coerced to the declared type", async () => {
    const r = await call(`${server.url}/api/notes`, { method: "PUT", json: {}, headers: { "x-n": "21" } });
    expect([r.status, r.json]).toEqual([200, { doubled: 42 }]);
    const bad = await call(`${server.url}/api/notes`, { method: "PUT", json: {}, headers: { "x-n": "abc" } });
    expect([bad.status, bad.json.errors.body[0]]).toEqual([422, expect.stringContaining('argument "n" must be')]);
    const none = await call(`${server.url}/api/notes`, { method: "PUT", json: {} });
    expect([none.status, none.json]).toEqual([422, { errors: { body: ['argument "n" is required'] } }]);
  });
});

describe("HEAD, OPTIONS and CORS", () => {
  test("HEAD answers like GET without a body, on module routes, route files and /health", async () => {
    for (const path of ["/api/articles/hello", "/api/notes", "/health", "/api/blog:list_articles"]) {
      const get = await call(`${server.url}${path}`);
      const head = await call(`${server.url}${path}`, { method: "HEAD" });
      expect([path, head.status, head.text, head.headers["content-length"]]).toEqual([path, get.status, "", get.headers["content-length"]]);
    }
  });

  test("OPTIONS on a known path is 204 with Allow; on an unknown one, 404", async () => {
    const article = await call(`${server.url}/api/articles/hello`, { method: "OPTIONS" });
    expect([article.status, article.headers.allow]).toEqual([204, "GET, HEAD, PATCH, DELETE, OPTIONS"]);
    const notes = await call(`${server.url}/api/notes`, { method: "OPTIONS" });
    expect([notes.status, notes.headers.allow]).toEqual([204, "GET, HEAD, POST, PUT, PATCH, OPTIONS"]);
    const action = await call(`${server.url}/api/blog:create_article`, { method: "OPTIONS" });
    expect([action.status, action.headers.allow]).toEqual([204, "POST, OPTIONS"]);
    const none = await call(`${server.url}/nowhere`, { method: "OPTIONS" });
    expect(none.status).toBe(404);
  });

  test("a CORS preflight allows every routed method, PATCH included", async () => {
    const r = await call(`${trusting.url}/api/articles/hello`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "PATCH" },
    });
    expect(r.status).toBe(204);
    expect(r.headers["access-control-allow-methods"]).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
    expect(r.headers["access-control-allow-origin"]).toBe("https://app.example");
  });
});

describe("input.base_url", () => {
  const forged = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

  test("without trust_proxy, forged X-Forwarded-Host and -Proto are ignored", async () => {
    const r = await call(`${server.url}/api/articles`, { json: { slug: "fwd", title: "F" }, headers: forged });
    expect(r.headers.location).toBe(`http://127.0.0.1:${server.port}/api/articles/fwd`);
  });

  test("with trust_proxy, the proxy's first forwarded values are used", async () => {
    const r = await call(`${trusting.url}/api/articles`, {
      json: { slug: "fwd", title: "F" },
      headers: { "x-forwarded-host": "api.example.org, inner.local", "x-forwarded-proto": "https" },
    });
    expect(r.headers.location).toBe("https://api.example.org/api/articles/fwd");
    const bent = await call(`${trusting.url}/api/notes`, { headers: { "x-forwarded-host": "evil.example/path?" } });
    expect([bent.status, bent.json]).toEqual([400, { errors: { body: ["the request's host is not a host name"] } }]);
  });

  test("a configured public URL wins over the request", async () => {
    const r = await call(`${fixed.url}/api/articles`, { json: { slug: "pub", title: "P" }, headers: forged });
    expect(r.headers.location).toBe("https://api.example.com/api/articles/pub");
  });

  test("a Host header that is not a host name is a 400, never a bent link", async () => {
    const answer = await raw(
      server.port,
      'POST /api/articles HTTP/1.1\r\nHost: a.example@evil\r\nContent-Type: application/json\r\nContent-Length: 27\r\nConnection: close\r\n\r\n{"slug":"h","title":"Host"}',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('{"errors":{"body":["the request\'s host is not a host name"]}}');
  });

  test("a header value from the request cannot split the response", async () => {
    const r = await call(`${server.url}/api/notes`, { json: { text: "x" }, headers: { "x-tag": "a\u00e9b" } });
    expect([r.status, r.json.note.tags]).toEqual([201, ["a", "a\u00e9b"]]);
  });
});
