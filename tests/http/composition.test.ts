// Private code and composition over real sockets (docs/language.md §2.3: Private queries
// and actions, Calling an action, Functions): a private query or action has no /api URL but serves the route files and
// actions that call it; an action's call to another shares its transaction, so a `fail`
// in the callee undoes what the caller and earlier calls wrote; a fn shapes the answer.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

let dir: string;
let server: TestServer;
let api: string;

beforeAll(async () => {
  dir = await buildTo({ mode: "project", dir: join(repoRoot, "fixtures", "private-and-composition", "input") });
  server = await startServer(dir, ["--db", join(dir, "social.db")]);
  api = `${server.url}/api/social`;
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

const profileOf = (name: string) => call(`${server.url}/api/profiles/${name}`, { headers: { accept: "application/json" } });

describe("private code", () => {
  test("a private query and a private action have no /api URL: 404, as for a name nobody declared", async () => {
    const q = await call(`${api}:account_by_name?username=alice`);
    expect(q.status).toBe(404);
    expect(q.json.ok).toBe(false);
    const a = await call(`${api}:create_account`, { json: { username: "mallory", email: "m@x", password_hash: "h" } });
    expect(a.status).toBe(404);
    expect(a.json.ok).toBe(false);
    const unknown = await call(`${api}:no_such_thing?username=alice`);
    expect(q.json).toEqual(unknown.json);
    // Nothing was written through the refused call.
    expect((await profileOf("mallory")).status).toBe(404);
  });

  test("a public action reaches the private action and query; the answer carries only what the fn shapes", async () => {
    const r = await call(`${api}:register`, { json: { username: "alice", email: "alice@example.com", password: "pw" } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, data: { username: "alice", bio: "", following: false } });
    expect(r.text).not.toContain("hashed:");
    expect(r.text).not.toContain("alice@example.com");
  });

  test("a route file fetches a private query and invokes a private action", async () => {
    const got = await profileOf("alice");
    expect(got.status).toBe(200);
    expect(got.json.data.result).toMatchObject({ username: "alice", email: "alice@example.com", password_hash: "hashed:pw" });
    const made = await call(`${server.url}/api/profiles/bob`, { json: { email: "bob@example.com", password_hash: "h2" } });
    expect(made.status).toBe(200);
    expect(made.json.data.result).toMatchObject({ username: "bob", email: "bob@example.com" });
    expect((await profileOf("bob")).status).toBe(200);
    expect((await profileOf("nobody")).status).toBe(404);
  });

  test("a page reaches a private query through its route file", async () => {
    const page = await call(`${server.url}/profiles/alice`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h1>alice</h1>");
    expect(page.text).not.toContain("hashed:pw");
    const missing = await call(`${server.url}/profiles/nobody`, { headers: { accept: "text/html" } });
    expect(missing.status).toBe(404);
  });

  test("no method, spelling or encoding reaches private code at /api, though its rows exist", async () => {
    expect((await profileOf("alice")).status).toBe(200);
    const unknownGet = await call(`${api}:no_such_thing`);
    const unknownPost = await call(`${api}:no_such_thing`, { json: {} });
    const attempts: [string, string, unknown][] = [
      ["GET", `${api}:create_account?username=m&email=e&password_hash=h`, undefined],
      ["POST", `${api}:account_by_name`, { username: "alice" }],
      ["PUT", `${api}:create_account`, { username: "m", email: "e", password_hash: "h" }],
      ["DELETE", `${api}:account_by_name?username=alice`, undefined],
      ["GET", `${api}:account_by_name/?username=alice`, undefined],
      ["GET", `${api}:ACCOUNT_BY_NAME?username=alice`, undefined],
      ["GET", `${server.url}/api/social%3Aaccount_by_name?username=alice`, undefined],
      ["POST", `${server.url}/api/social%3acreate_account`, { username: "m", email: "e", password_hash: "h" }],
      ["GET", `${server.url}/api//social:account_by_name?username=alice`, undefined],
    ];
    for (const [method, url, json] of attempts) {
      const r = await call(url, json === undefined ? { method } : { method, json });
      expect([url, r.status]).toEqual([url, 404]);
      expect(r.json?.ok).toBe(false);
      expect(r.text).not.toContain("alice@example.com");
    }
    expect(unknownGet.status).toBe(404);
    expect(unknownPost.status).toBe(404);
    // HEAD answers as GET does, without a body.
    const head = await call(`${api}:account_by_name?username=alice`, { method: "HEAD" });
    expect(head.status).toBe(404);
    expect((await profileOf("m")).status).toBe(404);
  });
});

describe("calls between actions", () => {
  test("a fail in the second call rolls back the first: no row is written", async () => {
    const r = await call(`${api}:register_pair`, { json: { first: "carol", second: "alice" } });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ ok: false, error: "username taken" });
    expect((await profileOf("carol")).status).toBe(404);
  });

  test("both calls commit together when neither fails", async () => {
    const r = await call(`${api}:register_pair`, { json: { first: "dave", second: "erin" } });
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual([
      { username: "dave", bio: "", following: false },
      { username: "erin", bio: "", following: false },
    ]);
    expect((await profileOf("dave")).status).toBe(200);
    expect((await profileOf("erin")).status).toBe(200);
  });

  test("a fail inside a fn stops the action with its status, before anything is written", async () => {
    const r = await call(`${api}:register`, { json: { username: "   ", email: "x@example.com", password: "pw" } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ ok: false, error: "username is required" });
  });

  test("what a fn gives is what the private action it is passed to writes", async () => {
    const r = await call(`${api}:register`, { json: { username: "  frank ", email: "f@example.com", password: "pw" } });
    expect(r.status).toBe(200);
    expect(r.json.data.username).toBe("frank");
    expect((await profileOf("frank")).json.data.result.username).toBe("frank");
  });
});

describe("fns", () => {
  test("one answer shape, written once, in a nested object; a fn whose body is an expression", async () => {
    const r = await call(`${api}:show`, { json: { username: "alice" } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, data: { profile: { username: "alice", bio: "", following: false }, greeting: "ALICE!" } });
    const missing = await call(`${api}:show`, { json: { username: "zed" } });
    expect(missing.status).toBe(404);
  });
});
