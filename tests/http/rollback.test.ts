// An action runs in one transaction: a `fail`, a failed check or a database error rolls
// back everything it wrote, and the server keeps serving.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

let dir: string;
let server: TestServer;
let api: string;

beforeAll(async () => {
  dir = await buildTo({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "ledger") });
  server = await startServer(dir, ["--db", join(dir, "ledger.db")]);
  api = `${server.url}/api/ledger`;
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

async function entries(): Promise<any[]> {
  const r = await call(`${api}:entries`);
  expect(r.status).toBe(200);
  return r.json.data;
}

describe("rollback", () => {
  test("fail after a write leaves the database as it was", async () => {
    const before = await entries();
    const r = await call(`${api}:add_then_fail`, { json: { note: "a" } });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ ok: false, error: "changed my mind" });
    expect(await entries()).toEqual(before);
  });

  test("a value outside an enum is a 400 naming the field, and undoes the earlier write", async () => {
    const before = await entries();
    const r = await call(`${api}:add_then_bad_kind`, { json: { note: "b", kind: "refund" } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatch(/entry\.kind/);
    expect(await entries()).toEqual(before);
  });

  test("a unique violation is a 409 and undoes the earlier write", async () => {
    const before = await entries();
    const r = await call(`${api}:add_twice`, { json: { note: "c" } });
    expect(r.status).toBe(409);
    expect(r.json.ok).toBe(false);
    expect(await entries()).toEqual(before);
  });

  test("successful actions commit, and sql blocks run", async () => {
    await call(`${api}:add`, { json: { note: "kept", amount: 5 } });
    await call(`${api}:add`, { json: { note: "gone", amount: -5 } });
    expect((await entries()).map((e) => e.note)).toEqual(["kept", "gone"]);
    const purged = await call(`${api}:purge`, { json: {} });
    expect(purged.json).toEqual({ ok: true, data: null });
    expect((await entries()).map((e) => e.note)).toEqual(["kept"]);
  });

  test("a json argument is bound as its JSON text (not refused as an object)", async () => {
    const r = await call(`${api}:echo_json?doc=${encodeURIComponent('{"n":7,"tags":["a"]}')}`);
    expect(r.status).toBe(200);
    expect(r.json.data.n).toBe(7);
    // json(…) is a json column: the value, not its text (docs/language.md, "Result column types").
    expect(r.json.data.doc).toEqual({ n: 7, tags: ["a"] });
  });

  test("concurrent actions each see a consistent database", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(`${api}:${i % 2 ? "add" : "add_then_fail"}`, { json: { note: `n${i}` } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(10);
    const notes = (await entries()).map((e) => e.note);
    for (let i = 0; i < 20; i++) expect(notes.includes(`n${i}`)).toBe(i % 2 === 1);
  });
});
