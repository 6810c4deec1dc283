// Streamed answers' rows on SQLite and their text (runtime/db/sqlite/stream.ts,
// runtime/core/answer/stream/format.ts; docs/language.md §2.4 "Streamed answers"): a file
// database streams from a connection of its own while the server's connection writes; a
// `:memory:` one in pages, the shared connection free between them; both stop when told.

import { rmSync } from "node:fs";
import { afterEach, describe, expect, test } from "../../support/jest.js";
import { csvField, csvHeader, csvLine, ndjsonLine } from "../../../runtime/core/answer/stream/format.js";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import type { Row, StatementSpec } from "../../../runtime/contract/index.js";

const LIST: StatementSpec = { name: "list", sql: { sqlite: { text: "SELECT n FROM item WHERE n >= ? ORDER BY n", slots: [0] } } };
const COUNT: StatementSpec = { name: "count", sql: { sqlite: { text: "SELECT count(*) AS c FROM item", slots: [] } } };
const ADD: StatementSpec = { name: "add", sql: { sqlite: { text: "INSERT INTO item (n) VALUES (?)", slots: [0] } } };

let db: SqliteDatabase | null = null;
let file: string | null = null;

afterEach(async () => {
  await db?.close();
  if (file !== null) for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  db = null;
  file = null;
});

async function open(path: string, rows: number): Promise<SqliteDatabase> {
  const d = openSqlite(path);
  const create: StatementSpec = { name: "create", sql: { sqlite: { text: "CREATE TABLE IF NOT EXISTS item (n INTEGER NOT NULL)", slots: [] } } };
  d.prepare([create]);
  await d.run(create, []);
  d.prepare([LIST, ADD, COUNT]);
  await d.transaction(async (tx) => {
    for (let n = 0; n < rows; n++) await tx.run(ADD, [n]);
  });
  return d;
}

/** Streams LIST, writing a row on the server's connection whenever a batch waits (as a slow client makes it). */
async function streamWhileWriting(d: SqliteDatabase, stopAfter = Infinity): Promise<number[]> {
  const seen: number[] = [];
  let batches = 0;
  await d.stream(LIST, [0], 100, async (rows: Row[]) => {
    seen.push(...rows.map((r) => r.n as number));
    batches++;
    if (batches >= stopAfter) return false;
    // As sendStream does: nothing runs on the connection until the batch has been handed
    // back and the answer waits for its client ('drain'). Other requests write meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    await d.run(ADD, [1_000_000 + batches]);
    return true;
  });
  return seen;
}

describe("SQLite rows for streamed answers", () => {
  test("a file database: every row from one snapshot, while the server's connection writes", async () => {
    file = `/tmp/svc-stream-${process.pid}-${Math.random().toString(36).slice(2)}.db`;
    db = await open(file, 1000);
    const seen = await streamWhileWriting(db);
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, n) => n));
    // The writes went in meanwhile: 10 batches, 10 rows.
    expect(((await db.all(COUNT, [])) as Row[])[0].c).toBe(1010);
  });

  test("a :memory: database: pages between writes, the shared connection free for them", async () => {
    db = await open(":memory:", 1000);
    const seen = await streamWhileWriting(db);
    // Pages are read again past the rows sent: the rows written meanwhile sort last and are seen.
    expect(seen.slice(0, 1000)).toEqual(Array.from({ length: 1000 }, (_, n) => n));
    expect(seen.length).toBeGreaterThan(1000);
  });

  test("told to stop, both stop at once and leave the connection usable", async () => {
    file = `/tmp/svc-stream-${process.pid}-${Math.random().toString(36).slice(2)}.db`;
    db = await open(file, 1000);
    expect(await streamWhileWriting(db, 2)).toHaveLength(200);
    expect(((await db.all(LIST, [999])) as Row[]).map((r) => r.n)).toEqual([999, 1_000_001]);
    const memory = await open(":memory:", 1000);
    try {
      expect(await streamWhileWriting(memory, 3)).toHaveLength(300);
      expect(((await memory.all(LIST, [998])) as Row[]).map((r) => r.n)).toEqual([998, 999, 1_000_001, 1_000_002]);
    } finally {
      await memory.close();
    }
  });
});

describe("CSV and NDJSON lines", () => {
  test("RFC 4180: quoted only when needed, quotes doubled, CRLF line ends", () => {
    expect([csvField("plain"), csvField("a,b"), csvField('say "hi"'), csvField("two\nlines"), csvField("cr\r")]).toEqual([
      "plain",
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '"cr\r"',
    ]);
    expect([csvField(null), csvField(undefined), csvField(3.5), csvField({ a: [1, "x,y"] })]).toEqual(["", "", "3.5", '"{""a"":[1,""x,y""]}"']);
    const columns = [
      { name: "id", kind: "value" as const },
      { name: "done", kind: "bool" as const },
      { name: "meta", kind: "json" as const },
    ];
    expect(csvHeader(columns)).toBe("id,done,meta\r\n");
    expect(csvLine({ id: "a", done: 1, meta: '{"k":1}' }, columns)).toBe('a,true,"{""k"":1}"\r\n');
    expect(csvLine({ id: "b", done: 0, meta: null }, columns)).toBe("b,false,\r\n");
  });

  test("NDJSON: the columns in order, booleans and json as values, a __proto__ column an entry like any other", () => {
    const columns = [
      { name: "__proto__", kind: "value" as const },
      { name: "done", kind: "bool" as const },
      { name: "meta", kind: "json" as const },
      { name: "big", kind: "value" as const },
    ];
    const line = ndjsonLine({ ["__proto__"]: "p", done: "1", meta: '{"k":[1]}', big: 2n ** 64n }, columns);
    expect(line.endsWith("\n")).toBe(true);
    expect(line).toBe('{"__proto__":"p","done":true,"meta":{"k":[1]},"big":"18446744073709551616"}\n');
    expect(Object.getPrototypeOf(JSON.parse(line))).toBe(Object.prototype);
  });
});
