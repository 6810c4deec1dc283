// Another connection (as another worker or server would) holds the file's write lock.

import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import BetterSqlite3 from "better-sqlite3";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import { HttpError } from "../../../runtime/core/errors.js";
import {
  ALL_STATEMENTS,
  commentTable,
  countTasks,
  getTask,
  insertTask,
  purgeDone,
  taskArgs,
  taskTable,
  tempDir,
} from "./task-schema.js";

let tmp: ReturnType<typeof tempDir>;
let db: SqliteDatabase;
let other: BetterSqlite3.Database;

beforeEach(async () => {
  tmp = tempDir("busy");
  const file = join(tmp.dir, "busy.db");
  db = openSqlite(file, { busyTimeoutMs: 300 });
  await db.migrate([taskTable(), commentTable]);
  db.prepare(ALL_STATEMENTS);
  await db.one(insertTask, taskArgs("a", "Existing", { status: "done" }));
  other = new BetterSqlite3(file, { timeout: 0 });
});

afterEach(async () => {
  if (other.inTransaction) other.exec("ROLLBACK");
  other.close();
  await db.close();
  tmp.remove();
});

/** Counts event-loop turns while `p` is pending: a synchronous busy wait would show none. */
async function ticksWhile<T>(p: Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    return { value: await p, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe("waiting for another connection's write lock", () => {
  test("a transaction waits, without blocking the event loop, and runs once the lock is free", async () => {
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 120);
    const started = Date.now();
    const { value, ticks } = await ticksWhile(
      db.transaction((tx) => tx.one(insertTask, taskArgs("b", "After the lock"))),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(value).toMatchObject({ id: "b" });
    expect(ticks).toBeGreaterThan(0);
  });

  test("a transaction still locked out after the busy timeout is a 503, and the next one works", async () => {
    other.exec("BEGIN IMMEDIATE");
    const err = await db.transaction((tx) => tx.one(insertTask, taskArgs("b", "Never"))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 503, message: "database busy", headers: { "Retry-After": "1" } });
    other.exec("COMMIT");
    expect(await db.transaction((tx) => tx.one(insertTask, taskArgs("c", "Later")))).toMatchObject({ id: "c" });
  });

  test("reads outside a transaction do not wait for another connection's writer (WAL)", async () => {
    other.exec("BEGIN IMMEDIATE");
    other.exec("DELETE FROM task");
    // The lock is never released here: a read that waited for it would end in a 503.
    expect(await db.one(getTask, ["a"])).toMatchObject({ id: "a" });
    expect(await db.one(countTasks, [])).toEqual({ n: 1 });
  });

  test("a write outside a transaction is retried until the lock is free", async () => {
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 80);
    const { value, ticks } = await ticksWhile(db.run(purgeDone, []));
    expect(value).toBe(1);
    expect(ticks).toBeGreaterThan(0);
  });

  test("a write outside a transaction still locked out after the busy timeout is a 503", async () => {
    other.exec("BEGIN IMMEDIATE");
    await expect(db.run(purgeDone, [])).rejects.toMatchObject({ status: 503, message: "database busy" });
    other.exec("ROLLBACK");
    expect(await db.run(purgeDone, [])).toBe(1);
  });

  test("a local transaction opened during a retry's back-off is waited for, not joined", async () => {
    other.exec("BEGIN IMMEDIATE");
    const purge = db.run(purgeDone, []);
    await sleep(40);
    // The purge is backing off. The lock comes free and, in the same turn, a local
    // transaction takes it, inserts a done task and holds it uncommitted while the
    // purge's next attempts come due.
    other.exec("COMMIT");
    const local = db.transaction(async (tx) => {
      await tx.one(insertTask, taskArgs("d", "Done later", { status: "done" }));
      await sleep(150);
      throw new Error("roll back");
    });
    await expect(local).rejects.toThrow("roll back");
    // Had the purge run inside the local transaction, it would have counted 2 rows.
    expect(await purge).toBe(1);
    expect(await db.one(getTask, ["d"])).toBeNull();
  });
});
