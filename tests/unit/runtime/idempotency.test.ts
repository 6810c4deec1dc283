// The parts of idempotency keys below HTTP: the header's grammar, the request fingerprint,
// the store's expiry and sweep on a real SQLite database with a fake clock, and what the
// analyzer puts in the model.

import { afterEach, beforeEach, describe, expect, test } from "@jest/globals";
import { defaultConfig } from "../../../compiler/project/config.js";
import { IDEMPOTENCY_TABLE, idempotencyStore } from "../../../compiler/analyze/idempotency-store.js";
import { analyze } from "../../../compiler/analyze/index.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import { HttpError } from "../../../runtime/errors.js";
import {
  canonicalJson,
  fingerprint,
  IdempotencyStore,
  KEY_LIFETIME_MS,
  parseKey,
  SWEEP_INTERVAL_MS,
} from "../../../runtime/idempotency/index.js";
import type { IdempotencySpec, StatementSpec, TableSpec } from "../../../runtime/types.js";
import { memoryLogger } from "./helpers.js";

describe("the header", () => {
  test("a bare key or a Structured Field string", () => {
    expect(parseKey("8e03978e-40d5-43e8-bc93-6894a57f9324")).toBe("8e03978e-40d5-43e8-bc93-6894a57f9324");
    expect(parseKey('"8e03978e"')).toBe("8e03978e");
    expect(parseKey('"a \\"b\\" \\\\ c"')).toBe('a "b" \\ c');
    expect(parseKey("x".repeat(255))).toBe("x".repeat(255));
  });

  test.each([
    ["empty", '""'],
    ["too long", "x".repeat(256)],
    ["too long when quoted", `"${"x".repeat(256)}"`],
    ["unterminated", '"abc'],
    ["text after the closing quote", '"a"b'],
    ["a bad escape", '"a\\nb"'],
    ["a control character", "a\tb"],
    ["a space in a bare key", "a b"],
    ["not ASCII", "cl\u00e9"],
  ])("refuses %s with a 400", (_why, value) => {
    let err: unknown;
    try {
      parseKey(value);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
  });
});

describe("the fingerprint", () => {
  test("object keys in any order are the same request; values, types, paths and methods are not", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    const base = fingerprint("POST", "/api/m:a", { a: 1, b: "x" }, false);
    expect(fingerprint("POST", "/api/m:a", { b: "x", a: 1 }, false)).toBe(base);
    expect(fingerprint("POST", "/api/m:a", { a: "1", b: "x" }, false)).not.toBe(base);
    expect(fingerprint("POST", "/api/m:a", { a: 1, b: "x" }, true)).not.toBe(base);
    expect(fingerprint("POST", "/api/m:b", { a: 1, b: "x" }, false)).not.toBe(base);
    expect(fingerprint("PUT", "/api/m:a", { a: 1, b: "x" }, false)).not.toBe(base);
  });
});

describe("the store on SQLite", () => {
  const model = idempotencyStore();
  const stmt = (s: typeof model.claim): StatementSpec => ({ name: s.name, sql: s.sql.dialects });
  const spec: IdempotencySpec = {
    claim: stmt(model.claim),
    lookup: stmt(model.lookup),
    expire: stmt(model.expire),
    settle: stmt(model.settle),
    sweep: stmt(model.sweep),
  };
  const table: TableSpec = { name: model.table, ddl: model.ddl };
  const count: StatementSpec = { name: "count", sql: { sqlite: { text: `SELECT count(*) AS n FROM ${IDEMPOTENCY_TABLE}`, slots: [] } } };
  let db: SqliteDatabase;
  let now: number;
  let store: IdempotencyStore;
  let runs: number;
  const run = async () => ++runs;

  beforeEach(async () => {
    db = openSqlite(":memory:");
    await db.migrate([table]);
    db.prepare([...Object.values(spec), count]);
    now = Date.UTC(2026, 0, 1);
    runs = 0;
    store = new IdempotencyStore(spec, db, memoryLogger().log, () => now);
  });

  afterEach(async () => {
    await db.close();
  });

  const rowCount = async () => Number((await db.one(count, []))!.n);
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  test("a key answers its first result until it expires, then runs afresh", async () => {
    expect(await store.call("m.a", "k", "f1", run, String)).toEqual({ status: 200, body: "1", replayed: false });
    now += KEY_LIFETIME_MS - 1;
    expect(await store.call("m.a", "k", "f1", run, String)).toEqual({ status: 200, body: "1", replayed: true });
    // Expired, a key is free again, even for another request.
    now += 1;
    expect(await store.call("m.a", "k", "f2", run, String)).toEqual({ status: 200, body: "2", replayed: false });
    expect(runs).toBe(2);
    expect(await rowCount()).toBe(1);
  });

  test("a run that throws keeps no row", async () => {
    const failing = async (): Promise<number> => {
      throw new HttpError(409, "no");
    };
    await expect(store.call("m.a", "k", "f", failing, String)).rejects.toThrow("no");
    expect(await rowCount()).toBe(0);
  });

  test("expired rows are swept once a minute at most, outside the calls", async () => {
    const t0 = now;
    const callAt = async (t: number, key: string) => {
      now = t;
      await store.call("m.a", key, "f", run, String);
      // The sweep runs after the call's transaction, without the caller waiting for it.
      await settle();
    };
    await callAt(t0, "a"); // the process's first sweep: nothing to delete
    await callAt(t0 + 30_000, "c"); // within the minute: no sweep
    await callAt(t0 + KEY_LIFETIME_MS + 10_000, "b"); // sweeps "a"; "c" has 20 s left
    expect(await rowCount()).toBe(2);
    await callAt(t0 + KEY_LIFETIME_MS + 40_000, "d"); // "c" has expired, but the last sweep was 30 s ago
    expect(await rowCount()).toBe(3);
    await callAt(t0 + KEY_LIFETIME_MS + 10_000 + SWEEP_INTERVAL_MS, "e"); // sweeps "c"
    expect(await rowCount()).toBe(3);
  });
});

describe("the model", () => {
  function modelOf(text: string) {
    const parsed = parseModule("m.svc", text);
    return analyze({ name: "t", version: "1", mode: "module", config: defaultConfig(), modules: [{ dir: ".", files: [parsed.ast] }], sources: ["m.svc"] });
  }

  test("has the store when an action is called over HTTP, and not for queries alone", () => {
    const queries = modelOf("module m\nresource r {\n  id: id\n}\nquery q() {\n  SELECT * FROM r\n}\n");
    expect(queries.model.idempotencyStore).toBeUndefined();
    const actions = modelOf("module m\nresource r {\n  id: id\n}\naction a() {\n  return insert r {}\n}\n");
    expect(actions.diagnostics).toEqual([]);
    expect(actions.model.idempotencyStore?.table).toBe(IDEMPOTENCY_TABLE);
  });

  test("a resource may not take the table's name once an action is called over HTTP", () => {
    const clash = "module m\nresource svc_idempotency_keys {\n  id: id\n}\n";
    expect(modelOf(clash + "query q() {\n  SELECT * FROM svc_idempotency_keys\n}\n").diagnostics).toEqual([]);
    const withAction = modelOf(clash + "action a() {\n  return insert svc_idempotency_keys {}\n}\n");
    expect(withAction.diagnostics.map((d) => d.code)).toEqual(["SVC2046"]);
  });

  test("MySQL keeps an answer in LONGTEXT: longer than TEXT's 64 KiB", () => {
    expect(idempotencyStore().ddl.mysql?.createTable).toContain("`body` LONGTEXT");
  });
});
