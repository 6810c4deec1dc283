// A query's answer written by SQLite (json_object, docs/language.md "Generated code") is the
// text JSON.stringify writes for the same rows, byte for byte, with the same Content-Length:
// hostile text (escapes, quotes, text beyond ASCII, a lone surrogate, bytes that are not UTF-8),
// integers at the edge of exactness, booleans, nulls, computed and
// renamed columns, and rows in the query's order through ORDER BY, LIMIT and OFFSET.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

let dir: string;
let server: TestServer;
let db: Database.Database;

const COLUMNS = "id, name, note, count, big, done, maybe, kind, seen_at";

beforeAll(async () => {
  dir = await buildTo({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "sqljson") });
  server = await startServer(dir, ["--db", join(dir, "items.db")]);
  const items = [
    { name: "plain", count: 3, done: true, kind: "b", seen_at: "2026-11-28T07:00:00.000Z" },
    { name: 'quote " and \\ backslash', note: "tab\tnew\nline\rcr\bbs\fff\u0001\u001f\u007f", count: -7, done: false, maybe: true },
    { name: "Tâche é 😀 \u2028\u2029 \u00a0", note: "", count: 2 ** 53 - 1, big: -(2 ** 53 - 1), done: true, maybe: false },
    { name: "lone \ud800 surrogate \udfff", count: 0, done: false, weight: 0.1 + 0.2 },
    { name: "same count a", count: 3, done: true, weight: 1 },
    { name: "same count b", count: 3, done: false, weight: 1e21 },
  ];
  for (const item of items) {
    const r = await call(`${server.url}/api/sqljson:add`, { json: item });
    expect(r.status).toBe(200);
  }
  // Text that is not UTF-8, which svc never writes but a database may hold: read the same way
  // by both writers. (A bool column is CHECKed to 0 or 1.)
  db = new Database(join(dir, "items.db"));
  db.prepare("INSERT INTO item (id, name, count, done, kind) VALUES (?, CAST(x'61ff62c328e282' AS TEXT), 1, 0, 'a')").run(
    "01ARZ3NDEKTSV4RRFFQ69G5FA3",
  );
});

afterAll(async () => {
  db?.close();
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

/** As runtime/lang/record.ts toBool reads a boolean column. */
function toBool(v: unknown): boolean | null {
  return v === null ? null : v === 1 || v === "1" || v === "true";
}

/** The envelope JSON.stringify writes for `sql`'s rows, `bools` read as booleans. */
function expected(sql: string, params: unknown[], bools: string[], one = false): string {
  const rows = (db.prepare(sql).all(...params) as Record<string, unknown>[]).map((row) => {
    for (const b of bools) row[b] = toBool(row[b]);
    return row;
  });
  return JSON.stringify({ ok: true, data: one ? (rows[0] ?? null) : rows });
}

async function answer(path: string): Promise<string> {
  const r = await fetch(`${server.url}/api/sqljson:${path}`);
  const text = await r.text();
  expect(r.status).toBe(200);
  expect(Number(r.headers.get("content-length"))).toBe(Buffer.byteLength(text));
  return text;
}

describe("answers SQLite writes as JSON", () => {
  test("the build gives json_object SQL to queries of text, int, bool, enum and timestamp columns only", () => {
    const source = readFileSync(join(dir, "server.ts"), "utf8");
    // Each such endpoint names a generated function that asks the database for the text.
    const answered = [...source.matchAll(/return db\.json\((\w+), /g)].map((m) => m[1]).sort();
    expect(answered).toEqual(["computedSql", "oneItemSql", "pageSql"]);
    const named = [...source.matchAll(/\banswer: (\w+),/g)].map((m) => m[1]).sort();
    expect(named).toEqual(["computedDatabaseJson", "oneItemDatabaseJson", "pageDatabaseJson"]);
  });

  test("rows in the query's order, through ORDER BY, LIMIT and OFFSET, as JSON.stringify writes them", async () => {
    const sql = `SELECT ${COLUMNS} FROM item ORDER BY count DESC, name LIMIT ? OFFSET ?`;
    for (const [limit, offset] of [[50, 0], [2, 0], [3, 2], [4, 5], [5, 100]]) {
      expect(await answer(`page?limit=${limit}&offset=${offset}`)).toBe(expected(sql, [limit, offset], ["done", "maybe"]));
    }
    const all = JSON.parse(await answer("page"));
    expect(all.data).toHaveLength(7);
  });

  test("one row, and null for none", async () => {
    const sql = `SELECT ${COLUMNS} FROM item WHERE id = ?`;
    const ids = (db.prepare("SELECT id FROM item").pluck().all() as string[]).sort();
    for (const id of ids) expect(await answer(`one_item?id=${id}`)).toBe(expected(sql, [id], ["done", "maybe"], true));
    expect(await answer("one_item?id=01ARZ3NDEKTSV4RRFFQ69G5FAZ")).toBe('{"ok":true,"data":null}');
  });

  test("computed, renamed columns with quotes in their names", async () => {
    const sql = `SELECT count + 1 AS "next", name AS "label's ""name""", done AS flag FROM item ORDER BY name`;
    const text = await answer("computed");
    expect(text).toBe(expected(sql, [], ["flag"]));
    expect(JSON.parse(text).data[0]).toHaveProperty(`label's "name"`);
  });

  test("a float column stays with JavaScript's writer: 1 and 1e+21, not 1.0 and 1.0e+21", async () => {
    const text = await answer("weights");
    expect(text).toBe(expected("SELECT id, weight FROM item ORDER BY name", [], []));
    expect(text).toContain('"weight":1e+21');
    expect(text).toContain('"weight":1}');
  });

  test("a bad argument is the same 400 as before the query runs", async () => {
    const r = await call(`${server.url}/api/sqljson:page?limit=x`);
    expect([r.status, r.json.ok]).toEqual([400, false]);
    const unknown = await call(`${server.url}/api/sqljson:one_item?id=01ARZ3NDEKTSV4RRFFQ69G5FA1&extra=1`);
    expect([unknown.status, unknown.json.ok]).toEqual([400, false]);
  });
});
