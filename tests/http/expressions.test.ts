// Expressions a real app needs (issue 31 part 3a), through a generated server on SQLite: the
// TechEmpower /queries and /updates written as plain code (one statement per row read, one per
// row written), random numbers within their bounds, text read as numbers with fallbacks, bounds
// on lists built in code, and PATCH with arguments that are absent, null or a value.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

const WORLDS = 40;

let dir: string;
let server: TestServer;
let api: string;

beforeAll(async () => {
  dir = await buildTo({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "expr") });
  server = await startServer(dir, ["--db", join(dir, "expr.db")]);
  api = `${server.url}/api/expr`;
  const seeded = await call(`${api}:seed`, { json: { n: WORLDS } });
  expect([seeded.status, seeded.json.data]).toEqual([200, WORLDS]);
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

const post = (name: string, json: unknown) => call(`${api}:${name}`, { json });
interface World {
  id: string;
  randomNumber: number;
}

function expectWorlds(rows: World[], count: number): void {
  expect(rows).toHaveLength(count);
  for (const w of rows) {
    expect(Object.keys(w)).toEqual(["id", "randomNumber"]);
    expect(Number(w.id)).toBeGreaterThanOrEqual(1);
    expect(Number(w.id)).toBeLessThanOrEqual(WORLDS);
    expect(Number.isInteger(w.randomNumber) && w.randomNumber >= 1 && w.randomNumber <= 10000).toBe(true);
  }
}

describe("TechEmpower /queries and /updates", () => {
  test("?queries=N reads N rows; foo, 0 and a blank mean 1; 501 means 500", async () => {
    for (const [q, n] of [["5", 5], ["foo", 1], ["0", 1], ["-3", 1], ["", 1], ["501", 500], ["500", 500], [" 7 ", 7], ["1e3", 1]] as const) {
      const r = await call(`${server.url}/queries?queries=${encodeURIComponent(q)}&worlds=${WORLDS}`);
      expect(r.status).toBe(200);
      expectWorlds(r.json.data, n);
    }
    const none = await call(`${server.url}/queries?worlds=${WORLDS}`);
    expectWorlds(none.json.data, 1);
  });

  test("/updates writes each row's new number; a read afterwards sees the last one written", async () => {
    const r = await call(`${server.url}/updates?queries=20&worlds=${WORLDS}`);
    expect(r.status).toBe(200);
    const rows: World[] = r.json.data;
    expectWorlds(rows, 20);
    const last = new Map(rows.map((w) => [w.id, w.randomNumber]));
    for (const [id, number] of last) {
      const back = await call(`${api}:world_by_id?id=${id}`);
      expect(back.json.data).toEqual({ id, randomNumber: number });
    }
  });

  test("a row that is not there fails the whole update, which rolls back", async () => {
    const before = (await call(`${api}:world_by_id?id=1`)).json.data;
    // Worlds past WORLDS do not exist: with 200 picks out of 10000 one is surely missing.
    const r = await call(`${server.url}/updates?queries=200&worlds=10000`);
    expect([r.status, r.json]).toEqual([404, { ok: false, error: "no world" }]);
    expect((await call(`${api}:world_by_id?id=1`)).json.data).toEqual(before);
  });
});

describe("random numbers", () => {
  test("random_int stays within its bounds, both included; random() in [0, 1)", async () => {
    const r = await post("rolls", { lo: -2, hi: 2, n: 2000 });
    expect(r.json).toEqual({ ok: true, data: { n: 2000, outside: 0, bad_fractions: 0, seen_lo: true, seen_hi: true } });
    const one = await post("rolls", { lo: 7, hi: 7, n: 10 });
    expect(one.json.data).toEqual({ n: 10, outside: 0, bad_fractions: 0, seen_lo: true, seen_hi: true });
  });

  test("bounds the wrong way round, a span past 2^48, a range past 10000 and a list past its max are 400s", async () => {
    expect((await post("rolls", { lo: 5, hi: 1, n: 1 })).json).toEqual({ ok: false, error: "random_int(5, 1): the low bound is above the high one" });
    expect((await post("rolls", { lo: 0, hi: 2 ** 50, n: 1 })).json).toEqual({ ok: false, error: `random_int(0, ${2 ** 50}): the bounds may be at most 2^48 - 2 apart` });
    expect((await post("rolls", { lo: 0, hi: 1, n: 10001 })).json).toEqual({ ok: false, error: "range(0, 10001) has 10001 items; at most 10000 are allowed" });
    const big = await call(`${server.url}/queries?queries=500&worlds=${WORLDS}`);
    expect(big.status).toBe(200);
  });

  test("SQL random() is a float in [0, 1) on SQLite too (its own is a 64-bit integer)", async () => {
    for (let i = 0; i < 20; i++) {
      const r = await call(`${api}:lucky?id=1`);
      expect(r.json.data.id).toBe("1");
      expect(typeof r.json.data.luck).toBe("number");
      expect(r.json.data.luck >= 0 && r.json.data.luck < 1).toBe(true);
    }
  });
});

describe("text read as values", () => {
  const cases: [string | null, unknown][] = [
    ["42", { int: 42, stored: 42, float: 42, bool: null, count: 42 }],
    [" -7\t", { int: -7, stored: -7, float: -7, bool: null, count: 1 }],
    ["+3", { int: 3, stored: 3, float: 3, bool: null, count: 3 }],
    ["007", { int: 7, stored: 7, float: 7, bool: null, count: 7 }],
    ["1.5", { int: null, stored: null, float: 1.5, bool: null, count: 1 }],
    ["1e3", { int: null, stored: null, float: 1000, bool: null, count: 1 }],
    [".5", { int: null, stored: null, float: 0.5, bool: null, count: 1 }],
    ["9007199254740991", { int: 9007199254740991, stored: 9007199254740991, float: 9007199254740991, bool: null, count: 500 }],
    ["9007199254740992", { int: null, stored: null, float: 9007199254740992, bool: null, count: 1 }],
    ["1e400", { int: null, stored: null, float: null, bool: null, count: 1 }],
    ["Infinity", { int: null, stored: null, float: null, bool: null, count: 1 }],
    ["0x10", { int: null, stored: null, float: null, bool: null, count: 1 }],
    ["1_000", { int: null, stored: null, float: null, bool: null, count: 1 }],
    ["", { int: null, stored: null, float: null, bool: null, count: 1 }],
    ["1", { int: 1, stored: 1, float: 1, bool: true, count: 1 }],
    ["0", { int: 0, stored: 0, float: 0, bool: false, count: 1 }],
    ["-0", { int: 0, stored: 0, float: 0, bool: null, count: 1 }],
    [" TRUE ", { int: null, stored: null, float: null, bool: true, count: 1 }],
    ["False", { int: null, stored: null, float: null, bool: false, count: 1 }],
    ["yes", { int: null, stored: null, float: null, bool: null, count: 1 }],
    [null, { int: null, stored: null, float: null, bool: null, count: 1 }],
  ];
  test.each(cases)("parse(%j)", async (s, expected) => {
    const r = await post("parse", { s });
    expect([r.status, r.json.data]).toEqual([200, expected]);
  });

  test("clamp, min and max", async () => {
    expect((await post("bounds", { x: 12.5, lo: 1, hi: 10 })).json.data).toEqual({ clamp: 10, min: 1, max: 12.5, ints: 5 });
    expect((await post("bounds", { x: -1, lo: 0, hi: 3 })).json.data).toEqual({ clamp: 0, min: -1, max: 3, ints: 5 });
  });
});

describe("PATCH: absent, null or a value", () => {
  test("a member left out keeps its value, null clears it, a value replaces it", async () => {
    const t = (await post("create_todo", { title: "Write", order: 3, due: "2026-12-01T10:00:00Z" })).json.data;
    const id = t.id;
    const p1 = await post("patch_todo", { id, completed: true });
    expect(p1.json.data).toEqual({ todo: { id, title: "Write", completed: true, order: 3, due: "2026-12-01T10:00:00.000Z" }, given: [false, true, false, false] });
    const p2 = await post("patch_todo", { id, order: null, due: null });
    expect(p2.json.data).toEqual({ todo: { id, title: "Write", completed: true, order: null, due: null }, given: [false, false, true, true] });
    const p3 = await post("patch_todo", { id, title: "Wrote", order: 1, due: "2027-01-02T03:04:05.678+01:00" });
    expect(p3.json.data.todo).toEqual({ id, title: "Wrote", completed: true, order: 1, due: "2027-01-02T02:04:05.678Z" });
    const p4 = await post("patch_todo", { id });
    expect(p4.json.data.todo).toEqual(p3.json.data.todo);
  });

  test("through a PATCH route whose path gives the id", async () => {
    const id = (await post("create_todo", { title: "Route", order: 8 })).json.data.id;
    const r = await call(`${server.url}/v1/todos/${id}`, { method: "PATCH", json: { completed: true } });
    expect([r.status, r.json.data.todo]).toEqual([200, { id, title: "Route", completed: true, order: 8, due: null }]);
    const cleared = await call(`${server.url}/v1/todos/${id}`, { method: "PATCH", json: { order: null } });
    expect(cleared.json.data.todo).toEqual({ id, title: "Route", completed: true, order: null, due: null });
  });

  test("null for a field that may not be null is a 400 naming it; nothing is written", async () => {
    const id = (await post("create_todo", { title: "Keep" })).json.data.id;
    const r = await post("patch_todo", { id, title: null, order: 9 });
    expect(r.status).toBe(400);
    expect(r.json.error).toContain("todo.title");
    expect((await post("patch_todo", { id })).json.data.todo).toMatchObject({ title: "Keep", order: null });
  });

  test("over a query string or form, an empty value is null and a missing key is absent", async () => {
    const id = (await post("create_todo", { title: "Form", order: 4 })).json.data.id;
    const r = await call(`${api}:patch_todo`, { headers: { "content-type": "application/x-www-form-urlencoded" }, body: `id=${id}&order=` });
    expect(r.json.data).toMatchObject({ todo: { title: "Form", order: null }, given: [false, false, true, false] });
  });

  test("in sql { }, an absent argument binds as null", async () => {
    const id = (await post("create_todo", { title: "Old" })).json.data.id;
    expect((await post("retitle", { id })).json.data.title).toBe("Old");
    expect((await post("retitle", { id, title: "New" })).json.data.title).toBe("New");
  });

  test("an insert given an absent value writes the default", async () => {
    expect((await post("add_todo", { title: "a" })).json.data.completed).toBe(false);
    expect((await post("add_todo", { title: "b", completed: true })).json.data.completed).toBe(true);
    const r = await post("add_todo", { title: "c", completed: null });
    expect(r.status).toBe(400);
  });

  test("members of a record type, and an absent argument passed on to another action", async () => {
    const id = (await post("create_profile", { name: "ann", bio: "hi", image: "a.png" })).json.data.id;
    const a = await post("update_profile", { id, profile: { bio: null } });
    expect(a.json.data).toEqual({ profile: { id, name: "ann", bio: null, image: "a.png" }, bio_given: true });
    const b = await post("update_profile", { id, profile: {} });
    expect(b.json.data).toEqual({ profile: { id, name: "ann", bio: null, image: "a.png" }, bio_given: false });
    const c = await post("update_profile", { id, profile: { image: 5 } });
    expect([c.status, c.json.error]).toEqual([400, "profile.image must be text"]);
    const t = (await post("create_todo", { title: "Via", order: 2 })).json.data.id;
    expect((await post("patch_via", { id: t })).json.data.todo.order).toBe(2);
    expect((await post("patch_via", { id: t, order: null })).json.data.todo.order).toBe(null);
  });
});
