// Micro-benchmark, run by hand (not a jest test):
//   node build-db/tests/unit/db/bench-one.js
// µs per `one()` by primary key on a warm 1,000-row table, through the adapter and, for
// scale, through better-sqlite3 directly.

import BetterSqlite3 from "better-sqlite3";
import { join } from "node:path";
import { openSqlite } from "../../../runtime/db/sqlite/index.js";
import { ALL_STATEMENTS, commentTable, getTask, insertTask, taskArgs, taskTable, tempDir } from "./task-schema.js";

const ROWS = 1000;
const CALLS = 200_000;

async function timeAsync(label: string, call: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 20_000; i++) await call(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await call(i);
  const us = Number(process.hrtime.bigint() - start) / CALLS / 1000;
  console.log(`${label.padEnd(44)} ${us.toFixed(2)} µs/call`);
}

async function bench(where: string, path: string): Promise<void> {
  const db = openSqlite(path);
  await db.migrate([taskTable(), commentTable]);
  db.prepare(ALL_STATEMENTS);
  const ids = Array.from({ length: ROWS }, (_, i) => `task-${String(i).padStart(4, "0")}`);
  await db.transaction(async (tx) => {
    for (const id of ids) await tx.one(insertTask, taskArgs(id, `title ${id}`));
  });
  const argLists = ids.map((id) => [id]);
  await timeAsync(`adapter one() by primary key (${where})`, (i) => Promise.resolve(db.one(getTask, argLists[i % ROWS])));
  await timeAsync(`adapter one() in a transaction (${where})`, (i) =>
    db.transaction((tx) => tx.one(getTask, argLists[i % ROWS])),
  );
  await db.close();

  const raw = new BetterSqlite3(path);
  if (path === ":memory:") {
    raw.exec(taskTable().ddl.sqlite!.createTable);
    const insert = raw.prepare("INSERT INTO task (id, title, created_at) VALUES (?, ?, ?)");
    for (const id of ids) insert.run(id, `title ${id}`, "2026-01-01T00:00:00.000Z");
  }
  const stmt = raw.prepare("SELECT * FROM task WHERE id = ?");
  await timeAsync(`better-sqlite3 get() directly (${where})`, async (i) => stmt.get(ids[i % ROWS]));
  raw.close();
}

const tmp = tempDir("bench");
try {
  await bench("memory", ":memory:");
  await bench("WAL file", join(tmp.dir, "bench.db"));
} finally {
  tmp.remove();
}
