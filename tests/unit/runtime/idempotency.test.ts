// The parts of idempotency keys below HTTP: the header's grammar, the request fingerprint,
// the store's expiry and sweep on a real SQLite database with a fake clock, and what the
// analyzer puts in the model.

import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import { defaultConfig } from "../../../compiler/project/config.js";
import { IDEMPOTENCY_TABLE } from "../../../compiler/analyze/stores/idempotency-store.js";
import { idempotencyStatements, idempotencyTable } from "../../../runtime/idempotency/table.js";
import { analyze } from "../../../compiler/analyze/index.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import { HttpError } from "../../../runtime/core/errors.js";
import {
  canonicalJson,
  IdempotencyStore,
  KEY_LIFETIME_MS,
  type KeyedCall,
  parseKey,
  requestText,
  rowKeys,
  SWEEP_INTERVAL_MS,
} from "../../../runtime/idempotency/index.js";
import type { IdempotencySpec, StatementSpec, TableSpec } from "../../../runtime/contract/index.js";
import { memoryLogger } from "./helpers.js";
import { analyzeText } from "../analyze/analyze.js";

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

describe("the request", () => {
  test("object keys in any order are the same request; values, types, paths and methods are not", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    const base = requestText("POST", "/api/m:a", { a: 1, b: "x" }, false);
    expect(requestText("POST", "/api/m:a", { b: "x", a: 1 }, false)).toBe(base);
    expect(requestText("POST", "/api/m:a", { a: "1", b: "x" }, false)).not.toBe(base);
    expect(requestText("POST", "/api/m:a", { a: 1, b: "x" }, true)).not.toBe(base);
    expect(requestText("POST", "/api/m:b", { a: 1, b: "x" }, false)).not.toBe(base);
    expect(requestText("PUT", "/api/m:a", { a: 1, b: "x" }, false)).not.toBe(base);
  });
});

describe("what a row is named with", () => {
  const call = (over: Partial<KeyedCall> = {}): KeyedCall => ({
    target: "m.a",
    key: "8e03978e-40d5-43e8-bc93-6894a57f9324",
    caller: "user-1",
    request: requestText("POST", "/api/m:a", { a: 1 }, false),
    ...over,
  });

  test("a signed-in caller's row is the key's, whatever the request; the fingerprint tells requests apart", () => {
    const a = rowKeys(call());
    const b = rowKeys(call({ request: requestText("POST", "/api/m:a", { a: 2 }, false) }));
    expect(b.id).toBe(a.id);
    expect(b.fingerprint).not.toBe(a.fingerprint);
  });

  test("callers, targets and keys never share a row", () => {
    const ids = new Set([
      rowKeys(call()).id,
      rowKeys(call({ caller: "user-2" })).id,
      rowKeys(call({ caller: null })).id,
      rowKeys(call({ target: "m.b" })).id,
      rowKeys(call({ key: "another-key" })).id,
    ]);
    expect(ids.size).toBe(5);
  });

  test("an anonymous caller's row is bound to the request; a signed-in caller's is not", () => {
    const other = requestText("POST", "/api/m:a", { a: 2 }, false);
    expect(rowKeys(call({ caller: null, request: other })).id).not.toBe(rowKeys(call({ caller: null })).id);
    expect(rowKeys(call({ request: other })).id).toBe(rowKeys(call()).id);
  });

  test("every value is keyed by the client's key: the same request under another key shares nothing", () => {
    for (const caller of ["user-1", null]) {
      const a = rowKeys(call({ caller }));
      const b = rowKeys(call({ caller, key: "8e03978e-40d5-43e8-bc93-6894a57f9325" }));
      expect([b.id, b.fingerprint].some((v) => [a.id, a.fingerprint].includes(v))).toBe(false);
    }
  });
});

describe("the store on SQLite", () => {
  // The runtime's own table and statements (runtime/idempotency/table.ts).
  const spec: IdempotencySpec = idempotencyStatements;
  const table: TableSpec = idempotencyTable;
  const count: StatementSpec = { name: "count", sql: { sqlite: { text: `SELECT count(*) AS n FROM ${IDEMPOTENCY_TABLE}`, slots: [] } } };
  const everything: StatementSpec = { name: "rows", sql: { sqlite: { text: `SELECT * FROM ${IDEMPOTENCY_TABLE}`, slots: [] } } };
  let db: SqliteDatabase;
  let now: number;
  let store: IdempotencyStore;
  let runs: number;
  const run = async () => ++runs;

  beforeEach(async () => {
    db = openSqlite(":memory:");
    await db.migrate([table]);
    db.prepare([...Object.values(spec), count, everything]);
    now = Date.UTC(2026, 0, 1);
    runs = 0;
    store = new IdempotencyStore(spec, db, memoryLogger().log, () => now);
  });

  afterEach(async () => {
    await db.close();
  });

  const rowCount = async () => Number((await db.one(count, []))!.n);
  /** A signed-in caller's call of `m.a`: another request with its key is a 422. */
  const keyed = (key: string, request: string, over: Partial<KeyedCall> = {}): KeyedCall => ({ target: "m.a", key, caller: "u", request, ...over });
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  test("a key answers its first result until it expires, then runs afresh", async () => {
    expect(await store.call(keyed("k", "f1"), run, String)).toEqual({ status: 200, body: "1", replayed: false });
    now += KEY_LIFETIME_MS - 1;
    expect(await store.call(keyed("k", "f1"), run, String)).toEqual({ status: 200, body: "1", replayed: true });
    // Expired, a key is free again, even for another request.
    now += 1;
    expect(await store.call(keyed("k", "f2"), run, String)).toEqual({ status: 200, body: "2", replayed: false });
    expect(runs).toBe(2);
    expect(await rowCount()).toBe(1);
  });

  test("a signed-in caller's other request with the key is a 422; an anonymous caller's runs as a call of its own", async () => {
    await store.call(keyed("k", "f1"), run, String);
    await expect(store.call(keyed("k", "f2"), run, String)).rejects.toThrow("different request");
    expect(await store.call(keyed("k", "f1", { caller: null }), run, String)).toEqual({ status: 200, body: "2", replayed: false });
    expect(await store.call(keyed("k", "f2", { caller: null }), run, String)).toEqual({ status: 200, body: "3", replayed: false });
    expect(await store.call(keyed("k", "f2", { caller: null }), run, String)).toEqual({ status: 200, body: "3", replayed: true });
    expect(runs).toBe(3);
  });

  test("a row holds neither the key nor the caller in clear", async () => {
    await store.call(keyed("key-in-clear", "f", { caller: "user-in-clear" }), run, String);
    const stored = await db.all(everything, []);
    expect(stored).toHaveLength(1);
    expect(stored[0].idempotency_key).toBe("");
    expect(JSON.stringify(stored)).not.toContain("key-in-clear");
    expect(JSON.stringify(stored)).not.toContain("user-in-clear");
  });

  test("a run that throws keeps no row", async () => {
    const failing = async (): Promise<number> => {
      throw new HttpError(409, "no");
    };
    await expect(store.call(keyed("k", "f"), failing, String)).rejects.toThrow("no");
    expect(await rowCount()).toBe(0);
  });

  test("expired rows are swept once a minute at most, outside the calls", async () => {
    const t0 = now;
    const callAt = async (t: number, key: string) => {
      now = t;
      await store.call(keyed(key, "f"), run, String);
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

  test("marks the actions that handle credentials, through the actions they call", () => {
    const text = `module m
resource user {
  id: id
  email: text
  password: password
}
private action token_for(id: text) {
  return issue_token(id)
}
action sign_in(id: id, password: text) {
  let u = get user(id)
  if not verify_password(u.password, password) { fail 401 "no" }
  return { ok: true }
}
action sign_up(email: text, password: text) {
  let u = insert user { email: email, password: password }
  return { id: u.id }
}
action rename(id: id, email: text) {
  let u = update user(id) { email: email }
  return { id: u.id }
}
action token(id: text) {
  return { token: token_for(id: id) }
}
action outer(id: text) {
  return token(id: id)
}
action sign_out() {
  return end_session()
}
action plain(id: id) {
  return { email: get user(id).email }
}
`;
    const { model, diagnostics } = analyzeText(text, { auth: { jwt: { secret: { credential: "jwt" } }, sessions: {} } });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const marked = model.actions.filter((a) => a.credentials === true).map((a) => a.name).sort();
    expect(marked).toEqual(["outer", "sign_in", "sign_out", "sign_up", "token", "token_for"]);
  });

  test("MySQL keeps an answer in LONGTEXT: longer than TEXT's 64 KiB", () => {
    expect(idempotencyTable.ddl.mysql?.createTable).toContain("`body` LONGTEXT");
    // The compiler reserves the name the runtime's table has.
    expect(idempotencyTable.name).toBe(IDEMPOTENCY_TABLE);
  });
});
