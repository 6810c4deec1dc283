import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import { setTimeout as sleep } from "node:timers/promises";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import { Fail, HttpError } from "../../../runtime/core/errors.js";
import type { Executor, StatementSpec, TableSpec } from "../../../runtime/contract/index.js";
import {
  ALL_STATEMENTS,
  commentTable,
  countTasks,
  deleteTask,
  getTask,
  insertComment,
  insertTask,
  listTasks,
  purgeDone,
  taskArgs,
  taskTable,
  updateTask,
} from "./task-schema.js";

let db: SqliteDatabase;

// A foreign key checked only at COMMIT, to see a COMMIT fail.
const noteTable: TableSpec = {
  name: "note",
  ddl: {
    sqlite: {
      createTable:
        "CREATE TABLE IF NOT EXISTS note (id TEXT NOT NULL PRIMARY KEY, task_id TEXT NOT NULL REFERENCES task (id) DEFERRABLE INITIALLY DEFERRED)",
      columns: [
        { name: "id", definition: "id TEXT NOT NULL PRIMARY KEY", sqlType: "TEXT", nullable: false, hasDefault: false },
        { name: "task_id", definition: "task_id TEXT NOT NULL", sqlType: "TEXT", nullable: false, hasDefault: false },
      ],
      createIndexes: [],
    },
  },
};
const insertNote: StatementSpec = {
  name: "note.insert",
  sql: { sqlite: { text: "INSERT INTO note (id, task_id) VALUES (?, ?)", slots: [0, 1] } },
};
const allRows: StatementSpec = {
  name: "test.dump",
  sql: {
    sqlite: {
      text:
        "SELECT 'task' AS t, json_object('id', id, 'title', title, 'status', status, 'assignee', assignee) AS r FROM task " +
        "UNION ALL SELECT 'comment', json_object('id', id, 'task_id', task_id, 'body', body) FROM comment " +
        "UNION ALL SELECT 'note', json_object('id', id, 'task_id', task_id) FROM note ORDER BY 1, 2",
      slots: [],
    },
  },
};

beforeEach(async () => {
  db = openSqlite(":memory:");
  await db.migrate([taskTable(), commentTable, noteTable]);
  db.prepare([...ALL_STATEMENTS, insertNote, allRows]);
  await db.one(insertTask, taskArgs("a", "Existing"));
  await db.one(insertComment, ["c1", "a", "hello"]);
});

afterEach(async () => {
  await db.close();
});

describe("commit and rollback", () => {
  test("a transaction that resolves commits every write and passes its value through", async () => {
    const result = await db.transaction(async (tx) => {
      await tx.one(insertTask, taskArgs("b", "Second"));
      await tx.one(updateTask, ["a", "in_progress", "ana"]);
      return { done: true };
    });
    expect(result).toEqual({ done: true });
    expect(await db.one(getTask, ["b"])).toMatchObject({ title: "Second" });
    expect(await db.one(getTask, ["a"])).toMatchObject({ status: "in_progress", assignee: "ana" });
  });

  test("a thrown error rolls back everything and is rethrown as it was", async () => {
    const before = await db.all(allRows, []);
    const failure = new Fail(404, "task not found");
    await expect(
      db.transaction(async (tx) => {
        await tx.one(insertTask, taskArgs("b", "Second"));
        await tx.one(updateTask, ["a", "done", "bo"]);
        await tx.one(insertComment, ["c2", "b", "on b"]);
        await tx.one(deleteTask, ["z"]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await db.all(allRows, [])).toEqual(before);
  });

  test("a constraint error inside the transaction arrives as an HttpError and rolls back", async () => {
    const before = await db.all(allRows, []);
    const err = await db
      .transaction(async (tx) => {
        await tx.one(insertTask, taskArgs("b", "Second"));
        await tx.one(insertTask, taskArgs("c", "Existing"));
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 409, message: "task.title already exists" });
    expect(await db.all(allRows, [])).toEqual(before);
  });

  test("a COMMIT that fails (deferred foreign key) rolls back, answers 409, and the next transaction works", async () => {
    const before = await db.all(allRows, []);
    const err = await db
      .transaction(async (tx) => {
        await tx.one(insertTask, taskArgs("b", "Second"));
        await tx.run(insertNote, ["n1", "nowhere"]);
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 409 });
    expect((err as Error).message).toMatch(/^foreign key constraint failed/);
    expect(await db.all(allRows, [])).toEqual(before);
    await db.transaction(async (tx) => tx.run(insertNote, ["n2", "a"]));
    expect((await db.all(allRows, [])).length).toBe(before.length + 1);
  });

  test("the executor refuses statements once its transaction has ended", async () => {
    let leaked: Executor | undefined;
    await db.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.one(getTask, ["a"])).rejects.toThrow("statement task.get ran after its transaction ended");
    expect(await db.one(countTasks, [])).toEqual({ n: 1 });
  });
});

describe("concurrency on one connection", () => {
  /** Reads the row count, yields to the event loop, then writes a row named after it. */
  async function readThenWrite(tx: Executor, label: string, log: string[]): Promise<string> {
    const { n } = (await tx.one(countTasks, [])) as { n: number };
    log.push(`${label} read ${n}`);
    await sleep(15);
    const id = `n${n}`;
    await tx.one(insertTask, taskArgs(id, `task ${id}`));
    log.push(`${label} wrote ${id}`);
    return id;
  }

  test("two transactions that await between statements do not interleave", async () => {
    const log: string[] = [];
    const [a, b] = await Promise.all([
      db.transaction((tx) => readThenWrite(tx, "A", log)),
      db.transaction((tx) => readThenWrite(tx, "B", log)),
    ]);
    // Interleaved, both would read 1 and the second insert would hit the primary key.
    expect([a, b]).toEqual(["n1", "n2"]);
    expect(log).toEqual(["A read 1", "A wrote n1", "B read 2", "B wrote n2"]);
  });

  test("many queued transactions all commit, in arrival order", async () => {
    const log: string[] = [];
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) => db.transaction((tx) => readThenWrite(tx, `T${i}`, log))),
    );
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => `n${i + 1}`));
    expect(log.filter((l) => l.includes("read"))).toEqual(Array.from({ length: 12 }, (_, i) => `T${i} read ${i + 1}`));
    expect(await db.one(countTasks, [])).toEqual({ n: 13 });
  });

  test("a failing transaction does not block the ones queued behind it", async () => {
    const outcomes = await Promise.allSettled([
      db.transaction(async (tx) => {
        await tx.one(insertTask, taskArgs("x", "doomed"));
        await sleep(10);
        throw new Fail(422, "no");
      }),
      db.transaction((tx) => tx.one(insertTask, taskArgs("y", "fine"))),
    ]);
    expect(outcomes[0].status).toBe("rejected");
    expect(outcomes[1]).toMatchObject({ status: "fulfilled", value: { id: "y" } });
    expect(await db.one(getTask, ["x"])).toBeNull();
  });

  test("a statement outside the transaction waits for it and never sees its uncommitted rows", async () => {
    let finish!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (finish = resolve));
    const running = db
      .transaction(async (tx) => {
        await tx.one(insertTask, taskArgs("u", "uncommitted"));
        if (!(await decided)) throw new Fail(409, "changed my mind");
      })
      .catch(() => "rolled back");
    await sleep(5);

    let seen: unknown = "pending";
    // While the transaction holds the connection, reads wait: a promise, not an answer.
    const waiting = db.one(getTask, ["u"]);
    expect(waiting).toBeInstanceOf(Promise);
    const reader = Promise.resolve(waiting).then((row) => (seen = row));
    const lister = db.all(listTasks, [null, 50, 0]);
    expect(lister).toBeInstanceOf(Promise);
    await sleep(30);
    expect(seen).toBe("pending");

    finish(false);
    expect(await running).toBe("rolled back");
    await reader;
    expect(seen).toBeNull();
    expect((await lister).map((r) => r.id)).toEqual(["a"]);
  });

  test("reads outside a transaction answer at once, without a promise; writes keep theirs", async () => {
    await db.one(insertTask, taskArgs("n", "now"));
    const one = db.one(getTask, ["n"]);
    expect(one).not.toBeInstanceOf(Promise);
    expect(one).toMatchObject({ id: "n", title: "now" });
    const all = db.all(listTasks, [null, 50, 0]);
    expect(Array.isArray(all)).toBe(true);
    expect((all as { id: string }[]).map((r) => r.id)).toEqual(["n", "a"]);
    expect(db.one(getTask, ["missing"])).toBeNull();
    const run = db.run(purgeDone, []);
    expect(run).toBeInstanceOf(Promise);
    expect(await run).toBe(0);
  });

  test("a statement called in the same turn as a transaction's start does not join it", async () => {
    await db.one(insertTask, taskArgs("p", "Finished", { status: "done" }));
    const running = db.transaction(async (tx) => {
      await tx.one(insertTask, taskArgs("x", "doomed"));
      throw new Fail(422, "no");
    });
    // Joined, the purge would be rolled back with the transaction.
    const purged = db.run(purgeDone, []);
    await expect(running).rejects.toThrow("no");
    expect(await purged).toBe(1);
    expect(await db.one(getTask, ["p"])).toBeNull();
  });

  test("after a commit, the waiting statement sees the committed row", async () => {
    let finish!: () => void;
    const decided = new Promise<void>((resolve) => (finish = resolve));
    const running = db.transaction(async (tx) => {
      await tx.one(insertTask, taskArgs("v", "visible"));
      await decided;
    });
    await sleep(5);
    const reader = db.one(getTask, ["v"]);
    finish();
    await running;
    expect(await reader).toMatchObject({ id: "v", title: "visible" });
  });

  test("a statement waiting for a transaction runs before the next queued one begins", async () => {
    let finish!: () => void;
    const decided = new Promise<void>((resolve) => (finish = resolve));
    const first = db
      .transaction(async (tx) => {
        await tx.one(insertTask, taskArgs("f", "rolled back"));
        await decided;
        throw new Fail(409, "no");
      })
      .catch(() => "rolled back");
    await sleep(5);
    // `first` holds an open transaction, so this read waits; `second` queues behind it.
    const second = db.transaction((tx) => tx.one(insertTask, taskArgs("w", "queued")));
    const reader = db.one(countTasks, []);
    finish();
    expect(await first).toBe("rolled back");
    await second;
    // Woken before `second` began, the reader counted neither first's row nor second's.
    expect(await reader).toEqual({ n: 1 });
    expect(await db.one(countTasks, [])).toEqual({ n: 2 });
  });
});
