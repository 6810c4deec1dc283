// Answers of any media type, the Server header and one error shape, over real sockets
// (docs/language.md §2.4 "Answers of any media type", §3 "Error shape"; docs/operations.md
// "Server header"; issue 31 parts 4 and 5a). The project is tests/http/projects/answers; a
// copy without `[errors]` and without a Server header shows the envelope as it always was.

import { cpSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import Database from "better-sqlite3";
import { request } from "undici";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer, tmpDir } from "../support/server.js";

const PROJECT = join(repoRoot, "tests", "http", "projects", "answers");
const ENV = { ANSWERS_JWT_SECRET: "answers-test-secret-that-is-long-enough-0123456789" };
const EVIL = "https://evil.example";

let dir: string;
let plainSource: string;
let plainDir: string;
let server: TestServer;
let slow: TestServer;
let plain: TestServer;

beforeAll(async () => {
  dir = await buildTo({ mode: "project", dir: PROJECT });
  // The same project, without [errors] and without a Server header.
  plainSource = tmpDir("answers-plain-src-");
  cpSync(PROJECT, plainSource, { recursive: true });
  writeFileSync(
    join(plainSource, "svc.toml"),
    '[project]\nname = "answers"\n[credentials]\njwt_secret = { env = "ANSWERS_JWT_SECRET" }\n' +
      '[auth.jwt]\nsecret = { credential = "jwt_secret" }\nissuer = "answers"\naudience = "answers"\nlifetime = "1h"\n',
  );
  plainDir = await buildTo({ mode: "project", dir: plainSource });
  server = await startServer(dir, ["--db", join(dir, "a.db"), "--max-body-size", "256"], ENV);
  slow = await startServer(dir, ["--db", join(dir, "b.db"), "--read-timeout", "300"], ENV);
  plain = await startServer(plainDir, ["--db", join(plainDir, "c.db")], ENV);
});

afterAll(async () => {
  for (const s of [server, slow, plain]) expect(await s?.stop()).toBe(0);
  for (const d of [dir, plainDir, plainSource]) if (d) removeDir(d);
});

/** One raw HTTP/1.1 exchange, read until the server closes the connection. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let out = "";
    socket.on("data", (c) => (out += c.toString("utf8")));
    socket.on("end", () => resolve(out));
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
    socket.write(text);
  });
}

function headerOf(answer: string, name: string): string | undefined {
  const line = answer.split("\r\n").find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
}

const shaped = (status: number, detail: string) => ({ error: { status, detail } });

describe("answers of any media type", () => {
  let id: string;
  beforeAll(async () => {
    const r = await call(`${server.url}/items`, { json: { name: "Tea <b>&</b> 'cake'", qty: 3 } });
    expect(r.status).toBe(201);
    id = r.json.item.id;
  });

  test("TechEmpower plaintext: a route file answers text/plain, with Server, Date and Content-Length", async () => {
    const r = await call(`${server.url}/plaintext`);
    expect([r.status, r.text]).toEqual([200, "Hello, World!"]);
    expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(r.headers["content-length"]).toBe("13");
    expect(r.headers.server).toBe("svc");
    expect(new Date(String(r.headers.date)).getTime()).not.toBeNaN();
    const head = await call(`${server.url}/plaintext`, { method: "HEAD" });
    expect([head.status, head.text, head.headers["content-length"], head.headers["content-type"]]).toEqual([200, "", "13", "text/plain; charset=utf-8"]);
  });

  test("a module route answers its action's text result, and a row's field with a header of its own", async () => {
    const greet = await call(`${server.url}/greet/Ada`);
    expect([greet.status, greet.text, greet.headers["content-type"]]).toEqual([200, "Hello, Ada!", "text/plain; charset=utf-8"]);
    const name = await call(`${server.url}/items/${id}/name`);
    expect([name.text, name.headers["cache-control"]]).toEqual(["Tea <b>&</b> 'cake'", "max-age=60"]);
    // A text answer writes the text as UTF-8 and counts its bytes.
    const utf8 = await call(`${server.url}/greet/${encodeURIComponent("Zoë ✓")}`);
    expect([utf8.text, utf8.headers["content-length"]]).toEqual(["Hello, Zoë ✓!", String(Buffer.byteLength("Hello, Zoë ✓!"))]);
  });

  test("html escapes every value it did not write itself: a stored or requested <script> stays text", async () => {
    const r = await call(`${server.url}/items/${id}/card`);
    expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(r.text).toBe(`<p class="item">Tea &lt;b&gt;&amp;&lt;/b&gt; &#39;cake&#39;</p>`);
    const evil = await call(`${server.url}/items`, { json: { name: "<script>alert(1)</script>" } });
    const card = await call(`${server.url}/items/${evil.json.item.id}/card`);
    expect(card.text).toBe('<p class="item">&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(card.text).not.toContain("<script>");
  });

  test("type \"…\" names any media type: SVG as text, a +json type as JSON with its status", async () => {
    const svg = await call(`${server.url}/items/${id}/svg`);
    expect(svg.headers["content-type"]).toBe("image/svg+xml");
    expect(svg.text).toBe(`<svg xmlns="http://www.w3.org/2000/svg"><text>Tea <b>&</b> 'cake'</text></svg>`);
    const problem = await call(`${server.url}/items/${id}/problem`);
    expect([problem.status, problem.headers["content-type"], problem.json]).toEqual([202, "application/problem+json", { title: "Tea <b>&</b> 'cake'" }]);
  });

  test("a route-file block answers csv to JSON callers; its errors still take the error shape", async () => {
    const r = await call(`${server.url}/api/things`, { json: { name: "Jam" } });
    expect([r.status, r.headers["content-type"]]).toEqual([201, "text/csv; charset=utf-8"]);
    expect(r.text).toMatch(/^id,name\n[0-9A-Za-z]+,Jam\n$/);
    const bad = await call(`${server.url}/api/things`, { json: { name: 7 } });
    expect([bad.status, bad.json]).toEqual([422, shaped(422, 'argument "name" must be a string')]);
  });

  test("an Idempotency-Key replays a text answer whole: status, body and Content-Type", async () => {
    const headers = { "idempotency-key": "answers-csv-1" };
    const first = await call(`${server.url}/api/things`, { json: { name: "Once" }, headers });
    const again = await call(`${server.url}/api/things`, { json: { name: "Once" }, headers });
    expect([again.status, again.text, again.headers["content-type"], again.headers["idempotent-replayed"]]).toEqual([
      201,
      first.text,
      "text/csv; charset=utf-8",
      "true",
    ]);
  });

  test("a one query with no row is a 404 in the error shape, not an empty text", async () => {
    const r = await call(`${server.url}/items/nope/name`);
    expect([r.status, r.json]).toEqual([404, shaped(404, "not found")]);
  });
});

describe("with [errors], every error the server makes takes the declared shape", () => {
  test("a path nobody answers: 404", async () => {
    const r = await call(`${server.url}/nowhere`);
    expect([r.status, r.json, r.headers.server]).toEqual([404, shaped(404, "not found"), "svc"]);
    const api = await call(`${server.url}/api/shop:nothing`);
    expect([api.status, api.json]).toEqual([404, shaped(404, "not found")]);
  });

  test("a method the path does not take: 405 with Allow, for routes, route files and /health", async () => {
    const route = await call(`${server.url}/items`, { method: "DELETE" });
    expect([route.status, route.json, route.headers.allow]).toEqual([405, shaped(405, "method not allowed"), "POST, GET"]);
    const file = await call(`${server.url}/api/things`, { method: "PUT", json: {} });
    expect([file.status, file.json, file.headers.allow]).toEqual([405, shaped(405, "method not allowed"), "GET, POST"]);
    const health = await call(`${server.url}/health`, { method: "POST" });
    expect([health.status, health.json]).toEqual([405, shaped(405, "method not allowed")]);
  });

  test("a route file's unknown ?handler= is its path's 404", async () => {
    const r = await call(`${server.url}/api/things?handler=nope`, { json: { name: "x" } });
    expect([r.status, r.json]).toEqual([404, shaped(404, 'POST /api/things has no handler "nope"')]);
  });

  test("the cross-site refusal: 403", async () => {
    const headers = { "sec-fetch-site": "cross-site", origin: EVIL };
    const route = await call(`${server.url}/items`, { json: { name: "x" }, headers });
    expect([route.status, route.json]).toEqual([403, shaped(403, "cross-site POST requests are not accepted")]);
    const file = await call(`${server.url}/api/things`, { json: { name: "x" }, headers });
    expect([file.status, file.json]).toEqual([403, shaped(403, "cross-site POST requests are not accepted")]);
  });

  test("an invalid token: 401 with its challenge", async () => {
    const r = await call(`${server.url}/items`, { headers: { authorization: "Bearer not-a-jwt" } });
    expect(r.status).toBe(401);
    expect(r.json.error.status).toBe(401);
    expect(typeof r.json.error.detail).toBe("string");
    expect(String(r.headers["www-authenticate"])).toMatch(/^Bearer/);
    const file = await call(`${server.url}/api/things`, { headers: { authorization: "Bearer not-a-jwt" } });
    expect([file.status, file.json.error?.status]).toEqual([401, 401]);
  });

  test("a body over --max-body-size: 413; a body of another type: 415", async () => {
    const big = await call(`${server.url}/items`, { json: { name: "x".repeat(400) } });
    expect([big.status, big.json.error.status]).toEqual([413, 413]);
    const xml = await call(`${server.url}/items`, { body: "<item/>", headers: { "content-type": "text/xml" } });
    expect([xml.status, xml.json.error.status]).toEqual([415, 415]);
  });

  test("argument checks: validation_status; a plain fail keeps 400; malformed JSON 400", async () => {
    const typed = await call(`${server.url}/items`, { json: { name: 5 } });
    expect([typed.status, typed.json]).toEqual([422, shaped(422, 'argument "name" must be a string')]);
    const failed = await call(`${server.url}/items`, { json: { name: " " } });
    expect([failed.status, failed.json]).toEqual([400, shaped(400, "name must not be blank")]);
    const broken = await call(`${server.url}/items`, { body: "{", headers: { "content-type": "application/json" } });
    expect([broken.status, broken.json.error.status]).toEqual([400, 400]);
  });

  test("a rate limit: 429 with Retry-After", async () => {
    expect((await call(`${server.url}/limited`, { json: { name: "once" } })).status).toBe(201);
    const r = await call(`${server.url}/limited`, { json: { name: "twice" } });
    expect([r.status, r.json.error.status]).toEqual([429, 429]);
    expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
  });

  test("the database busy past its wait: 503 with Retry-After", async () => {
    const holder = new Database(join(dir, "a.db"));
    holder.exec("BEGIN IMMEDIATE");
    try {
      const r = await call(`${server.url}/items`, { json: { name: "blocked" } });
      expect([r.status, r.json]).toEqual([503, shaped(503, "database busy")]);
      expect(r.headers["retry-after"]).toBe("1");
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  });

  test("requests Node's parser refuses: 400, in the shape, with Date and Server", async () => {
    const answer = await raw(server.port, "POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab");
    expect(answer.startsWith("HTTP/1.1 400 ")).toBe(true);
    expect(bodyOf(answer)).toEqual({ error: { status: 400, detail: expect.stringMatching(/^malformed HTTP request/) } });
    expect(headerOf(answer, "Server")).toBe("svc");
    expect(new Date(headerOf(answer, "Date") ?? "").getTime()).not.toBeNaN();
  });

  test("the read timeout: 408 in the shape", async () => {
    // Headers that never end: the server gives up after --read-timeout and says so.
    const answer = await raw(slow.port, "GET /items HTTP/1.1\r\nHost: x\r\n");
    expect(answer.startsWith("HTTP/1.1 408 ")).toBe(true);
    expect(bodyOf(answer)).toEqual(shaped(408, "the request did not arrive within the read timeout (300 ms)"));
  });

  test("targets that answer with the envelope keep it, errors included", async () => {
    const route = await call(`${server.url}/v1/items`, { json: { name: 5 } });
    expect([route.status, route.json]).toEqual([400, { ok: false, error: 'argument "name" must be a string' }]);
    const endpoint = await call(`${server.url}/api/shop:add_item`, { json: {} });
    expect([endpoint.status, endpoint.json.ok]).toEqual([400, false]);
    const block = await call(`${server.url}/api/plain`, { json: { name: 5 } });
    expect([block.status, block.json]).toEqual([400, { ok: false, error: 'argument "name" must be a string' }]);
    const crossSite = await call(`${server.url}/v1/items`, { json: { name: "x" }, headers: { "sec-fetch-site": "cross-site", origin: EVIL } });
    expect([crossSite.status, crossSite.json]).toEqual([403, { ok: false, error: "cross-site POST requests are not accepted" }]);
  });
});

describe("without [errors] and without a Server header", () => {
  test("every error is the envelope, as before, and no Server header is sent", async () => {
    const missing = await call(`${plain.url}/nowhere`);
    expect([missing.status, missing.json, missing.headers.server]).toEqual([404, { ok: false, error: "not found" }, undefined]);
    const wrong = await call(`${plain.url}/items`, { method: "DELETE" });
    expect([wrong.status, wrong.json, wrong.headers.allow]).toEqual([405, { ok: false, error: "method not allowed" }, "POST, GET"]);
    const typed = await call(`${plain.url}/items`, { json: { name: 5 } });
    expect([typed.status, typed.json]).toEqual([400, { ok: false, error: 'argument "name" must be a string' }]);
    const crossSite = await call(`${plain.url}/items`, { json: { name: "x" }, headers: { "sec-fetch-site": "cross-site", origin: EVIL } });
    expect([crossSite.status, crossSite.json]).toEqual([403, { ok: false, error: "cross-site POST requests are not accepted" }]);
    const ok = await call(`${plain.url}/plaintext`);
    expect([ok.text, ok.headers.server, typeof ok.headers.date]).toEqual(["Hello, World!", undefined, "string"]);
  });

  test("Node's refusals are the envelope, with a Date and no Server", async () => {
    const answer = await raw(plain.port, "POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab");
    expect(answer.startsWith("HTTP/1.1 400 ")).toBe(true);
    expect(bodyOf(answer)).toEqual({ ok: false, error: expect.stringMatching(/^malformed HTTP request/) });
    expect(headerOf(answer, "Server")).toBeUndefined();
    expect(headerOf(answer, "Date")).toBeDefined();
  });

  test("--server-header names the server at start, overriding none", async () => {
    const named = await startServer(plainDir, ["--db", join(plainDir, "d.db"), "--server-header", "svc/0.1"], ENV);
    try {
      const res = await request(`${named.url}/plaintext`);
      await res.body.text();
      expect(res.headers.server).toBe("svc/0.1");
    } finally {
      expect(await named.stop()).toBe(0);
    }
  });
});
