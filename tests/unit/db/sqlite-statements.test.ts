import { afterEach, beforeEach, describe, expect, jest, test } from "../../support/jest.js";
import BetterSqlite3 from "better-sqlite3";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import { StartupError } from "../../../runtime/core/errors.js";
import type { StatementSpec } from "../../../runtime/contract/index.js";
import {
  ALL_STATEMENTS,
  commentTable,
  countTasks,
  deleteTask,
  getTask,
  insertTask,
  listTasks,
  purgeDone,
  taskArgs,
  taskTable,
  updateTask,
} from "./task-schema.js";

let db: SqliteDatabase;

beforeEach(async () => {
  db = openSqlite(":memory:");
  await db.migrate([taskTable(), commentTable]);
  db.prepare(ALL_STATEMENTS);
});

afterEach(async () => {
  await db.close();
});

async function seed(): Promise<void> {
  await db.one(insertTask, taskArgs("a", "Write spec", { status: "open", created: "2026-01-01T00:00:01.000Z" }));
  await db.one(insertTask, taskArgs("b", "Review spec", { status: "done", created: "2026-01-01T00:00:02.000Z" }));
  await db.one(insertTask, taskArgs("c", "Ship it", { status: "open", created: "2026-01-01T00:00:03.000Z" }));
}

describe("one / all / run", () => {
  test("insert … RETURNING * through one() gives the stored row with its defaults", async () => {
    const row = await db.one(insertTask, [
      "t1",
      "Write docs",
      "first draft",
      "high",
      "ana",
      "open",
      3,
      true,
      "2026-02-03T04:05:06.000Z",
    ]);
    expect(row).toEqual({
      id: "t1",
      title: "Write docs",
      description: "first draft",
      priority: "high",
      assignee: "ana",
      status: "open",
      estimate: 3,
      urgent: 1,
      created_at: "2026-02-03T04:05:06.000Z",
      completed_at: null,
    });
  });

  test("one() is null when no row matches", async () => {
    expect(await db.one(getTask, ["missing"])).toBeNull();
  });

  test("a parameter used twice binds one value: null matches everything, a value filters", async () => {
    await seed();
    const all = await db.all(listTasks, [null, 50, 0]);
    expect(all.map((r) => r.id)).toEqual(["c", "b", "a"]);
    const open = await db.all(listTasks, ["open", 50, 0]);
    expect(open.map((r) => r.id)).toEqual(["c", "a"]);
    const page = await db.all(listTasks, [null, 1, 1]);
    expect(page.map((r) => r.id)).toEqual(["b"]);
  });

  test("slots that are not the identity pick the right arguments", async () => {
    await seed();
    const reordered: StatementSpec = {
      name: "test.reordered",
      sql: {
        sqlite: { text: "SELECT id FROM task WHERE (? IS NULL OR status = ?) ORDER BY id LIMIT ?", slots: [2, 2, 0] },
      },
    };
    db.prepare([reordered]);
    expect(await db.all(reordered, [5, "unused", "open"])).toEqual([{ id: "a" }, { id: "c" }]);
  });

  test("update and delete … RETURNING * give the row, or null when no row has the key", async () => {
    await seed();
    const updated = await db.one(updateTask, ["a", "in_progress", "bo"]);
    expect(updated).toMatchObject({ id: "a", status: "in_progress", assignee: "bo" });
    expect(await db.one(updateTask, ["zzz", "done", null])).toBeNull();
    expect(await db.one(deleteTask, ["b"])).toMatchObject({ id: "b", title: "Review spec" });
    expect(await db.one(deleteTask, ["b"])).toBeNull();
    expect(await db.one(countTasks, [])).toEqual({ n: 2 });
  });

  test("run() returns the number of rows changed, also for a RETURNING statement", async () => {
    await seed();
    expect(await db.run(purgeDone, [])).toBe(1);
    expect(await db.run(purgeDone, [])).toBe(0);
    expect(await db.run(deleteTask, ["a"])).toBe(1);
    expect(await db.one(countTasks, [])).toEqual({ n: 1 });
  });

  test("booleans are stored as 1 and 0", async () => {
    await db.one(insertTask, taskArgs("y", "yes", { urgent: true }));
    await db.one(insertTask, taskArgs("n", "no", { urgent: false }));
    expect((await db.one(getTask, ["y"]))?.urgent).toBe(1);
    expect((await db.one(getTask, ["n"]))?.urgent).toBe(0);
  });

  test("an undefined or missing argument is a programming error naming the statement", async () => {
    await expect(db.one(getTask, [undefined])).rejects.toThrow(
      "statement task.get: argument 0 is undefined; pass null for SQL NULL",
    );
    await expect(db.all(listTasks, [null, 10])).rejects.toThrow(
      "statement task_tracker.list_tasks: argument 2 is missing (2 given)",
    );
  });

  test("a statement that was not prepared is refused", async () => {
    const stray: StatementSpec = { name: "test.stray", sql: { sqlite: { text: "SELECT 1", slots: [] } } };
    await expect(db.one(stray, [])).rejects.toThrow("statement test.stray was not prepared");
  });
});

describe("prepare", () => {
  test("a statement without sqlite SQL is a start-up error naming it", () => {
    const pgOnly: StatementSpec = {
      name: "task_tracker.pg_only",
      sql: { postgres: { text: "SELECT $1", slots: [0] } },
    };
    expect(() => db.prepare([pgOnly])).toThrow(StartupError);
    expect(() => db.prepare([pgOnly])).toThrow("statement task_tracker.pg_only has no sqlite SQL");
  });

  test("SQL that does not prepare is a start-up error naming the statement and the cause", () => {
    const bad: StatementSpec = {
      name: "task_tracker.bad",
      sql: { sqlite: { text: "SELECT nope FROM task", slots: [] } },
    };
    expect(() => db.prepare([bad])).toThrow(
      new StartupError("SVC_ERR_STATEMENT", "statement task_tracker.bad does not prepare: no such column: nope"),
    );
  });

  test("one bad statement prepares none of the batch", async () => {
    const good: StatementSpec = { name: "test.good", sql: { sqlite: { text: "SELECT 1 AS x", slots: [] } } };
    const bad: StatementSpec = { name: "test.bad", sql: { sqlite: { text: "SELEC 1", slots: [] } } };
    expect(() => db.prepare([good, bad])).toThrow(StartupError);
    await expect(db.one(good, [])).rejects.toThrow("was not prepared");
  });

  test("statements are prepared once at start, never per call", async () => {
    const spy = jest.spyOn(BetterSqlite3.prototype, "prepare");
    try {
      const fresh = openSqlite(":memory:");
      await fresh.migrate([taskTable()]);
      const before = spy.mock.calls.length;
      fresh.prepare([insertTask, getTask, listTasks]);
      expect(spy.mock.calls.length - before).toBe(3);
      fresh.prepare([insertTask, getTask]);
      expect(spy.mock.calls.length - before).toBe(3);
      const prepared = spy.mock.calls.length;
      for (let i = 0; i < 50; i++) {
        await fresh.one(insertTask, taskArgs(`t${i}`, `title ${i}`));
        await fresh.one(getTask, [`t${i}`]);
        await fresh.all(listTasks, ["open", 10, 0]);
        await fresh.transaction(async (tx) => tx.one(getTask, [`t${i}`]));
      }
      expect(spy.mock.calls.length).toBe(prepared);
      await fresh.close();
    } finally {
      spy.mockRestore();
    }
  });
});
