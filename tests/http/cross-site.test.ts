// The one cross-site rule over real sockets (runtime/cross-site.ts, docs/language.md §3; issue 30
// part 3): a request that is not GET, HEAD or OPTIONS, from another site, is refused before
// it runs, whatever it targets (module endpoint, declared route, route file) and whatever its
// body (none, JSON, a form, text/plain). Each refusal also checks that nothing changed, so
// it fails if the check goes away. The client `--cors-origin` names, and clients that are not
// browsers, still get through; webhooks answer to their signatures only.

import { createHmac } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

const SECRET = "push-secret";
const CLIENT = "https://client.example";
const EVIL = "https://evil.example";

let dir: string;
let plain: TestServer;
let withCors: TestServer;
let anyOrigin: TestServer;

beforeAll(async () => {
  dir = await buildTo({ mode: "project", dir: join(repoRoot, "tests", "http", "projects", "crosssite") });
  const env = { PUSH_SECRET: SECRET };
  plain = await startServer(dir, ["--db", ":memory:"], env);
  withCors = await startServer(dir, ["--db", ":memory:", "--cors-origin", CLIENT], env);
  anyOrigin = await startServer(dir, ["--db", ":memory:", "--cors-origin", "*"], env);
});

afterAll(async () => {
  for (const s of [plain, withCors, anyOrigin]) expect(await s?.stop()).toBe(0);
  removeDir(dir);
});

/** Adds a note as a client that is no browser would (no Origin, no Fetch Metadata). */
async function addNote(server: TestServer, text: string): Promise<string> {
  const r = await call(`${server.url}/notes`, { json: { text } });
  expect(r.status).toBe(201);
  return r.json.note.id;
}

/** Every note, to compare before and after an attack. */
async function notes(server: TestServer): Promise<unknown[]> {
  const r = await call(`${server.url}/notes`);
  expect(r.status).toBe(200);
  return r.json.data;
}

type Body = { name: string; body?: string; type?: string };
const bodies = (id: string): Body[] => [
  { name: "no body and no Content-Type" },
  { name: "JSON", body: JSON.stringify({ id, text: "pwned" }), type: "application/json" },
  { name: "a form", body: `id=${id}&text=pwned`, type: "application/x-www-form-urlencoded" },
  { name: "text/plain", body: `id=${id}&text=pwned`, type: "text/plain" },
];

/** What each kind of target answers, by method: `:id` is the note under attack. */
const targets: [string, string, string][] = [
  ["module endpoint", "POST", "/api/notes:clear_notes"],
  ["module endpoint", "POST", "/api/notes:delete_note"],
  ["declared route", "POST", "/notes/clear"],
  ["declared route", "PUT", "/notes/:id"],
  ["declared route", "PATCH", "/notes/:id"],
  ["declared route", "DELETE", "/notes/:id"],
  ["route file", "POST", "/api/notes"],
  ["route file", "PUT", "/api/notes"],
  ["route file", "PATCH", "/api/notes"],
  ["route file", "DELETE", "/api/notes"],
];

/** Sends `bodies(id)[which]` to `path` with `headers`, for a fresh note `id`; the notes before and after. */
async function attack(server: TestServer, method: string, path: string, headers: Record<string, string>, which = 0) {
  const id = await addNote(server, "keep me");
  const body = bodies(id)[which];
  const before = await notes(server);
  const all = { ...headers, ...(body.type === undefined ? {} : { "content-type": body.type }) };
  const r = await call(`${server.url}${path.replace(":id", id)}`, { method, headers: all, body: body.body });
  return { r, before, after: await notes(server) };
}

describe("a browser on another site changes nothing", () => {
  const crossSite = { "sec-fetch-site": "cross-site", origin: EVIL };
  for (const [kind, method, path] of targets) {
    test(`${method} ${path} (${kind}), with each kind of body: 403`, async () => {
      for (let which = 0; which < bodies("").length; which++) {
        const { r, before, after } = await attack(plain, method, path, crossSite, which);
        expect([bodies("")[which].name, r.status]).toEqual([bodies("")[which].name, 403]);
        expect(after).toEqual(before);
      }
    });
  }

  test.each([
    ["Origin: null (a sandboxed frame)", { origin: "null" }],
    ["a foreign Origin without Fetch Metadata (an older browser)", { origin: EVIL }],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site", origin: "http://blog.127.0.0.1" }],
    ["Sec-Fetch-Site: cross-site and no Origin", { "sec-fetch-site": "cross-site" }],
  ])("%s is refused on a route, a route file and an endpoint", async (_what, headers) => {
    for (const [method, path] of [["DELETE", "/notes/:id"], ["DELETE", "/api/notes"], ["POST", "/api/notes:clear_notes"]]) {
      const { r, before, after } = await attack(plain, method, path, headers);
      expect([method, path, r.status]).toEqual([method, path, 403]);
      expect(after).toEqual(before);
    }
  });

  test("the 403 is in the app's error shape where the target answers in it, else the envelope", async () => {
    const routed = await call(`${plain.url}/notes`, { json: { text: "x" }, headers: { "sec-fetch-site": "cross-site", origin: EVIL } });
    expect([routed.status, routed.json]).toEqual([403, { errors: { body: ["cross-site POST requests are not accepted"] } }]);
    const block = await call(`${plain.url}/api/notes`, { json: { text: "x" }, headers: { origin: EVIL } });
    expect([block.status, block.json]).toEqual([403, { errors: { body: ["cross-site POST requests are not accepted"] } }]);
    const endpoint = await call(`${plain.url}/api/notes:clear_notes`, { method: "POST", headers: { origin: "null" } });
    expect([endpoint.status, endpoint.json]).toEqual([403, { ok: false, error: "cross-site POST requests are not accepted" }]);
    const unshaped = await call(`${plain.url}/notes/1`, { method: "PATCH", json: { text: "x" }, headers: { origin: EVIL } });
    expect([unshaped.status, unshaped.json]).toEqual([403, { ok: false, error: "cross-site PATCH requests are not accepted" }]);
  });

  test("a cross-site GET still reads: links from other sites work", async () => {
    const r = await call(`${plain.url}/notes`, { headers: { "sec-fetch-site": "cross-site", origin: EVIL } });
    expect(r.status).toBe(200);
  });
});

describe("who gets through", () => {
  test("a client that is not a browser (no Origin, no Fetch Metadata), whatever the body", async () => {
    const id = await addNote(plain, "curl");
    const none = await call(`${plain.url}/notes/${id}`, { method: "DELETE" });
    expect(none.status).toBe(204);
    const form = await call(`${plain.url}/api/notes`, { method: "PATCH", body: "text=from%20curl", headers: { "content-type": "application/x-www-form-urlencoded" } });
    // A form post that succeeds is sent on to the page it came from.
    expect(form.status).toBe(303);
    const cleared = await call(`${plain.url}/api/notes:clear_notes`, { method: "POST" });
    expect(cleared.status).toBe(200);
    expect(await notes(plain)).toEqual([]);
  });

  test("a page of this server: Sec-Fetch-Site: same-origin, or an Origin that is the Host", async () => {
    const id = await addNote(plain, "mine");
    const put = await call(`${plain.url}/notes/${id}`, { method: "PUT", json: { text: "renamed" }, headers: { "sec-fetch-site": "same-origin", origin: plain.url } });
    expect([put.status, put.json.note.text]).toEqual([200, "renamed"]);
    const del = await call(`${plain.url}/notes/${id}`, { method: "DELETE", headers: { origin: plain.url } });
    expect(del.status).toBe(204);
  });

  test("the origin --cors-origin names: fetch(url, {method: 'DELETE'}) with no body, on a route file and a route", async () => {
    const id = await addNote(withCors, "theirs");
    const headers = { "sec-fetch-site": "cross-site", origin: CLIENT };
    const route = await call(`${withCors.url}/notes/${id}`, { method: "DELETE", headers });
    expect([route.status, route.headers["access-control-allow-origin"]]).toEqual([204, CLIENT]);
    await addNote(withCors, "more");
    const file = await call(`${withCors.url}/api/notes`, { method: "DELETE", headers });
    expect([file.status, file.headers["access-control-allow-origin"]]).toEqual([200, CLIENT]);
    expect(await notes(withCors)).toEqual([]);
  });

  test("with --cors-origin set, any other origin is still refused", async () => {
    const { r, before, after } = await attack(withCors, "DELETE", "/api/notes", { "sec-fetch-site": "cross-site", origin: EVIL });
    expect(r.status).toBe(403);
    expect(after).toEqual(before);
  });

  test("--cors-origin '*': any site with credentials of its own, never with the browser's cookies", async () => {
    const id = await addNote(anyOrigin, "public");
    const cookie = await attack(anyOrigin, "DELETE", "/api/notes", { "sec-fetch-site": "cross-site", origin: EVIL, cookie: "svc_session=stolen" });
    expect(cookie.r.status).toBe(403);
    expect(cookie.after).toEqual(cookie.before);
    const bearer = await call(`${anyOrigin.url}/notes/${id}`, { method: "DELETE", headers: { "sec-fetch-site": "cross-site", origin: EVIL, authorization: "Bearer t" } });
    expect(bearer.status).toBe(204);
  });

  test("a webhook answers to its signature, not to the browser headers", async () => {
    const body = JSON.stringify({ ref: "main" });
    const signature = createHmac("sha256", SECRET).update(body).digest("hex");
    const headers = { "content-type": "application/json", "sec-fetch-site": "cross-site", origin: EVIL };
    const signed = await call(`${plain.url}/hooks/push`, { method: "POST", body, headers: { ...headers, "x-signature": signature } });
    expect(signed.status).toBe(200);
    const forged = await call(`${plain.url}/hooks/push`, { method: "POST", body, headers: { ...headers, "x-signature": "0".repeat(64) } });
    expect(forged.status).toBe(401);
  });
});
