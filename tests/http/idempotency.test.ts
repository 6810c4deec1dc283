// Idempotency keys on SQLite (docs/language.md, "Idempotency keys"): a retried action call
// with the same key answers the first result and writes nothing again, across a restart;
// the same key with another request is a 422 for a signed-in caller and a call of its own
// for an anonymous one; what did not commit is not kept; the table holds no key.

import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { type Answer, call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

const TOKENS = "admin-token admin\nadmin2-token admin\nreader-token\n";
const ENV = { IDEM_TOKENS: TOKENS };

let dir: string;
let dbPath: string;
let server: TestServer;

beforeAll(async () => {
  dir = await buildTo({ mode: "project", dir: join(repoRoot, "tests", "http", "projects", "idem") });
  dbPath = join(dir, "idem.db");
  server = await startServer(dir, ["--db", dbPath], ENV);
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

function post(path: string, key: string | null, json: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(`${server.url}${path}`, { json, headers: key === null ? headers : { "idempotency-key": key, ...headers } });
}

/** Reads the database file beside the server (WAL lets a reader in while it serves). */
function rows<T>(sql: string, ...args: unknown[]): T[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

const notesWith = (text: string) => rows<{ amount: number }>("SELECT amount FROM note WHERE text = ?", text);
interface KeyRow {
  id: string;
  scope: string;
  idempotency_key: string;
  fingerprint: string;
  status: number;
  body: string;
}
const allKeyRows = () => rows<KeyRow>("SELECT id, scope, idempotency_key, fingerprint, status, body FROM svc_idempotency_keys");

/**
 * The rows of svc_idempotency_keys that `calls` added. The key is not stored, so a row is
 * found by what changed; each holds an empty key column.
 */
async function rowsAddedBy(calls: () => Promise<unknown>): Promise<Omit<KeyRow, "id" | "fingerprint" | "idempotency_key">[]> {
  const before = new Set(allKeyRows().map((r) => r.id));
  await calls();
  const added = allKeyRows().filter((r) => !before.has(r.id));
  for (const r of added) expect(r.idempotency_key).toBe("");
  return added.map(({ scope, status, body }) => ({ scope, status, body }));
}

describe("a retried call with the same key", () => {
  test("answers the first result, marked replayed, and writes nothing again", async () => {
    let first!: Answer;
    const added = await rowsAddedBy(async () => (first = await post("/api/idem:add", "k-replay", { text: "replay", amount: 3 })));
    expect(first.status).toBe(200);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const again = await post("/api/idem:add", "k-replay", { amount: 3, text: "replay" });
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      expect(again.headers["idempotent-replayed"]).toBe("true");
    }
    expect(notesWith("replay")).toEqual([{ amount: 3 }]);
    expect(added).toEqual([{ scope: "idem.add", status: 200, body: JSON.stringify(first.json.data) }]);
    expect(JSON.stringify(allKeyRows())).not.toContain("k-replay");
  });

  test("concurrent calls with one key run the action once and all get its answer", async () => {
    let answers: Answer[] = [];
    const added = await rowsAddedBy(async () => (answers = await Promise.all(Array.from({ length: 8 }, () => post("/api/idem:add", "k-burst", { text: "burst" })))));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers["idempotent-replayed"] === "true")).toHaveLength(7);
    expect(notesWith("burst")).toHaveLength(1);
    expect(added).toHaveLength(1);
  });

  test("the key is kept across a restart of the server", async () => {
    const first = await post("/api/idem:add", "k-restart", { text: "restart" });
    expect(first.status).toBe(200);
    expect(await server.stop()).toBe(0);
    server = await startServer(dir, ["--db", dbPath], ENV);
    const again = await post("/api/idem:add", "k-restart", { text: "restart" });
    expect(again.status).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.text).toBe(first.text);
    expect(notesWith("restart")).toHaveLength(1);
  });

  test("a declared route to the action shares its keys, and its path makes it another request", async () => {
    const first = await post("/v1/notes", "k-route", { text: "route" });
    expect(first.status).toBe(200);
    const again = await post("/v1/notes", "k-route", { text: "route" });
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.text).toBe(first.text);
    // Another path is another request: an anonymous caller's runs (and the unique text refuses it).
    const other = await post("/api/idem:add", "k-route", { text: "route" });
    expect([other.status, other.headers["idempotent-replayed"]]).toEqual([409, undefined]);
    expect(notesWith("route")).toHaveLength(1);
  });
});

describe("the same key with another request", () => {
  const admin = { authorization: "Bearer admin-token" };

  test("is a 422 that runs nothing for a signed-in caller", async () => {
    expect((await post("/api/idem:admin_add", "k-other", { text: "other-1" }, admin)).status).toBe(200);
    const reused = await post("/api/idem:admin_add", "k-other", { text: "other-2" }, admin);
    expect(reused.status).toBe(422);
    expect(reused.json).toEqual({
      ok: false,
      error: "this Idempotency-Key was used with a different request; use a new key for a new request",
    });
    expect(notesWith("other-2")).toEqual([]);
    // A key belongs to its action: the same key on another action is its own.
    const elsewhere = await post("/api/idem:bump", "k-other", { text: "other-1" }, admin);
    expect(elsewhere.status).toBe(200);
    expect(notesWith("other-1")).toEqual([{ amount: 1 }]);
  });

  test("is a call of its own for an anonymous caller: the key is bound to the whole request", async () => {
    const first = await post("/api/idem:add", "k-anon", { text: "anon-1" });
    const second = await post("/api/idem:add", "k-anon", { text: "anon-2" });
    expect([first.status, second.status, second.headers["idempotent-replayed"]]).toEqual([200, 200, undefined]);
    expect(second.json.data.text).toBe("anon-2");
    for (const [text, answer] of [["anon-1", first], ["anon-2", second]] as const) {
      const retry = await post("/api/idem:add", "k-anon", { text });
      expect([retry.headers["idempotent-replayed"], retry.text]).toEqual(["true", answer.text]);
      expect(notesWith(text)).toHaveLength(1);
    }
  });
});

describe("answers that did not commit are not kept", () => {
  test("a `fail` after a write rolls back the write and the key: a retry runs again", async () => {
    const added = await rowsAddedBy(async () => {
      for (let i = 0; i < 2; i++) {
        const r = await post("/api/idem:add_then_fail", "k-fail", { text: "failed" });
      expect(r.status).toBe(409);
        expect(r.json).toEqual({ ok: false, error: "changed my mind" });
        expect(r.headers["idempotent-replayed"]).toBeUndefined();
      }
    });
    expect(added).toEqual([]);
    expect(notesWith("failed")).toEqual([]);
  });

  test("a retry of a 4xx runs on the data as it is then, and its success is kept", async () => {
    expect((await post("/api/idem:bump", "k-bump", { text: "later" })).status).toBe(404);
    expect((await post("/api/idem:add", null, { text: "later" })).status).toBe(200);
    const ran = await post("/api/idem:bump", "k-bump", { text: "later" });
    expect(ran.status).toBe(200);
    expect(ran.headers["idempotent-replayed"]).toBeUndefined();
    const replayed = await post("/api/idem:bump", "k-bump", { text: "later" });
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
    expect(replayed.text).toBe(ran.text);
    expect(notesWith("later")).toEqual([{ amount: 1 }]);
  });

  test("a bad argument keeps nothing, so the corrected call may use the key", async () => {
    let bad!: Answer;
    expect(await rowsAddedBy(async () => (bad = await post("/api/idem:add", "k-arg", { amount: 1 })))).toEqual([]);
    expect(bad.status).toBe(400);
    expect((await post("/api/idem:add", "k-arg", { text: "arg", amount: 1 })).status).toBe(200);
  });
});

describe("the header", () => {
  test("a quoted key (a Structured Field string) and a bare one are the same key", async () => {
    const quoted = await post("/api/idem:add", '"k-\\"quoted\\""', { text: "quoted" });
    expect(quoted.status).toBe(200);
    const bare = await post("/api/idem:add", 'k-"quoted"', { text: "quoted" });
    expect(bare.headers["idempotent-replayed"]).toBe("true");
    expect(notesWith("quoted")).toHaveLength(1);
  });

  test("a key that is empty, too long, not printable ASCII or sent twice is a 400 that runs nothing", async () => {
    const bad = ['""', "x".repeat(256), '"unterminated', '"a"b"', '"tab\there"'];
    for (const key of bad) {
      const r = await post("/api/idem:add", key, { text: `bad-${key}` });
      expect([key, r.status]).toEqual([key, 400]);
      expect(r.json.ok).toBe(false);
    }
    const utf8 = await call(`${server.url}/api/idem:add`, {
      body: JSON.stringify({ text: "bad-utf8" }),
      headers: { "content-type": "application/json", "idempotency-key": Buffer.from("clé").toString("latin1") },
    });
    expect(utf8.status).toBe(400);
    const twice = await call(`${server.url}/api/idem:add`, {
      body: JSON.stringify({ text: "bad-twice" }),
      headers: { "content-type": "application/json", "idempotency-key": ["a", "b"] as unknown as string },
    });
    expect(twice.status).toBe(400);
    expect(twice.json.error).toBe("Idempotency-Key is sent more than once");
    expect(rows("SELECT text FROM note WHERE text LIKE 'bad-%'")).toEqual([]);
    expect(((await post("/api/idem:add", "x".repeat(255), { text: "longest" })).status)).toBe(200);
  });

  test("a query ignores it", async () => {
    let r!: Answer;
    expect(await rowsAddedBy(async () => (r = await call(`${server.url}/api/idem:notes`, { headers: { "idempotency-key": "k-query" } })))).toEqual([]);
    expect(r.status).toBe(200);
    expect(r.headers["idempotent-replayed"]).toBeUndefined();
  });
});

describe("requires", () => {
  const admin = { authorization: "Bearer admin-token" };

  test("is checked before a stored answer is replayed, and a key is the caller's own", async () => {
    let first!: Answer;
    const added = await rowsAddedBy(async () => (first = await post("/api/idem:admin_add", "k-admin", { text: "admin" }, admin)));
    expect(first.status).toBe(200);
    expect((await post("/api/idem:admin_add", "k-admin", { text: "admin" })).status).toBe(401);
    expect((await post("/api/idem:admin_add", "k-admin", { text: "admin" }, { authorization: "Bearer reader-token" })).status).toBe(403);
    // Another admin's call with the key is not a retry of this one: it runs, and the unique text refuses it.
    const other = await post("/api/idem:admin_add", "k-admin", { text: "admin" }, { authorization: "Bearer admin2-token" });
    expect(other.status).toBe(409);
    const again = await post("/api/idem:admin_add", "k-admin", { text: "admin" }, admin);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.text).toBe(first.text);
    // Neither the caller nor the key is stored: only the action names the row.
    expect(added.map((r) => r.scope)).toEqual(["idem.admin_add"]);
    const stored = JSON.stringify(allKeyRows());
    for (const secret of ["admin-token", "bearer:", "k-admin"]) expect(stored).not.toContain(secret);
  });
});

describe("route files", () => {
  test("a JSON post replays the route data", async () => {
    let first!: Answer;
    const added = await rowsAddedBy(async () => (first = await post("/api/notes", "k-rf-json", { text: "rf-json" })));
    expect(first.status).toBe(200);
    expect(first.json.data.result.text).toBe("rf-json");
    const again = await post("/api/notes", "k-rf-json", { text: "rf-json" });
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.text).toBe(first.text);
    // An anonymous caller's other request with the key runs as a call of its own.
    const other = await post("/api/notes", "k-rf-json", { text: "rf-other" });
    expect([other.status, other.headers["idempotent-replayed"]]).toEqual([200, undefined]);
    expect(notesWith("rf-json")).toHaveLength(1);
    expect(notesWith("rf-other")).toHaveLength(1);
    expect(added.map((r) => r.scope)).toEqual(["POST /api/notes"]);
  });

  test("a form post replays its redirect", async () => {
    const form = () =>
      call(`${server.url}/api/notes`, {
        method: "POST",
        body: "text=rf-form&amount=2",
        headers: { "content-type": "application/x-www-form-urlencoded", "idempotency-key": "k-rf-form", origin: server.url },
      });
    const first = await form();
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe("/api/notes/done");
    const again = await form();
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe("/api/notes/done");
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(notesWith("rf-form")).toEqual([{ amount: 2 }]);
  });
});

describe("routes and blocks with respond", () => {
  test("a module route replays its status, body and headers, not an envelope", async () => {
    let first!: Answer;
    const added = await rowsAddedBy(async () => (first = await post("/v2/notes", "k-shaped", { text: "shaped" }, { "x-client": "one" })));
    expect([first.status, first.headers.location, first.json.client]).toEqual([201, "/v2/notes/shaped", "one"]);
    expect(first.json.note.text).toBe("shaped");
    // The answer was made once, from the first request: a retry's own headers do not change it.
    const again = await post("/v2/notes", "k-shaped", { text: "shaped" }, { "x-client": "two" });
    expect([again.status, again.headers.location, again.headers["idempotent-replayed"]]).toEqual([201, "/v2/notes/shaped", "true"]);
    expect(again.text).toBe(first.text);
    expect(notesWith("shaped")).toHaveLength(1);
    expect(added.map((r) => [r.scope, r.status])).toEqual([["idem.add", 201]]);
  });

  test("a 204 replays with no body", async () => {
    await post("/api/idem:add", null, { text: "to-remove" });
    const del = (key: string) => call(`${server.url}/v2/notes/to-remove`, { method: "DELETE", headers: { "idempotency-key": key } });
    const first = await del("k-204");
    expect([first.status, first.text, first.headers["x-removed"]]).toEqual([204, "", "to-remove"]);
    expect(notesWith("to-remove")).toEqual([]);
    // Written again between the calls: a replay must not delete it.
    await post("/api/idem:add", null, { text: "to-remove" });
    const again = await del("k-204");
    expect([again.status, again.text, again.headers["x-removed"], again.headers["idempotent-replayed"]]).toEqual([204, "", "to-remove", "true"]);
    expect(notesWith("to-remove")).toHaveLength(1);
  });

  test("a signed-in caller's key used on the envelope endpoint is a 422 on the shaped route and the other way round", async () => {
    const admin = { authorization: "Bearer admin-token" };
    expect((await post("/api/idem:add", "k-mixed", { text: "mixed" }, admin)).status).toBe(200);
    const shaped = await post("/v2/notes", "k-mixed", { text: "mixed" }, admin);
    expect(shaped.status).toBe(422);
    expect(shaped.json.error).toMatch(/different request/);
    expect((await post("/v2/notes", "k-mixed-2", { text: "mixed-2" }, admin)).status).toBe(201);
    expect((await post("/v1/notes", "k-mixed-2", { text: "mixed-2" }, admin)).status).toBe(422);
    expect(notesWith("mixed")).toHaveLength(1);
    expect(notesWith("mixed-2")).toHaveLength(1);
  });

  test("a route-file block replays its JSON answer with the caller it named; a form post with the key is another request", async () => {
    const reader = { authorization: "Bearer reader-token", "x-client": "c1" };
    const first = await post("/api/shaped", "k-block", { text: "block" }, reader);
    expect(first.status).toBe(201);
    expect(first.json).toEqual({ text: "block", caller: expect.stringMatching(/^bearer:[0-9a-f]{16}$/) });
    expect(first.headers["x-client"]).toBe("c1");
    const again = await post("/api/shaped", "k-block", { text: "block" }, { ...reader, "x-client": "c2" });
    expect([again.status, again.text, again.headers["x-client"], again.headers["idempotent-replayed"]]).toEqual([201, first.text, "c1", "true"]);
    const anonymous = await post("/api/shaped", null, { text: "block-anon" });
    expect([anonymous.status, anonymous.json]).toEqual([201, { text: "block-anon" }]);
    const form = await call(`${server.url}/api/shaped`, {
      method: "POST",
      body: "text=block",
      headers: { ...reader, "content-type": "application/x-www-form-urlencoded", "idempotency-key": "k-block", origin: server.url },
    });
    expect(form.status).toBe(422);
    expect(notesWith("block")).toHaveLength(1);
  });

  test("a block with no data step answers who is calling", async () => {
    const admin = await call(`${server.url}/api/shaped`, { headers: { authorization: "Bearer admin-token" } });
    expect([admin.status, admin.json]).toEqual([200, { caller: expect.stringMatching(/^bearer:[0-9a-f]{16}$/), roles: ["admin"] }]);
    const anonymous = await call(`${server.url}/api/shaped`);
    expect([anonymous.status, anonymous.json]).toEqual([200, {}]);
  });
});
