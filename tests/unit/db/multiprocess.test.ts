// Several server processes on one file, as `--workers` or a rolling deploy runs them.

import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import BetterSqlite3 from "better-sqlite3";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { openSqlite } from "../../../runtime/db/sqlite/index.js";
import { TASK_COLUMNS, taskTable, tempDir } from "./task-schema.js";

const require = createRequire(import.meta.url);

// Each child waits for a common start time, migrates, then runs transactions that
// read the row count, yield to the event loop, and insert a row keyed by that count:
// two transactions that saw the same count would collide on the primary key.
const CHILD = `
const { openDatabase } = await import(process.env.OPEN_URL);
const s = await import(process.env.SCHEMA_URL);
const count = Number(process.env.TX_COUNT);
await new Promise((r) => setTimeout(r, Math.max(0, Number(process.env.START_AT) - Date.now())));
const db = await openDatabase({ backend: "sqlite", db: "sqlite:" + process.env.DB_FILE });
await db.migrate([s.taskTable(), s.commentTable]);
db.prepare(s.ALL_STATEMENTS);
for (let i = 0; i < count; i++) {
  await db.transaction(async (tx) => {
    const { n } = await tx.one(s.countTasks, []);
    await new Promise((r) => setImmediate(r));
    await tx.one(s.insertTask, s.taskArgs("n" + n, "task " + n));
  });
}
await db.close();
`;

function childEnv(file: string, txCount: number): Record<string, string> {
  return {
    OPEN_URL: new URL("../../../runtime/db/index.js", import.meta.url).href,
    SCHEMA_URL: new URL("./task-schema.js", import.meta.url).href,
    DB_FILE: file,
    TX_COUNT: String(txCount),
    START_AT: String(Date.now() + 700),
  };
}

/**
 * Makes `file` (a table `t`, not WAL) and has another process hold its write lock, having run
 * `sql` in the transaction, for `ms`; resolves once the lock is held (`exited`: the holder's exit code).
 */
async function holdWriteLock(file: string, sql: string, ms: number): Promise<{ exited: Promise<unknown> }> {
  const init = new BetterSqlite3(file);
  init.exec("CREATE TABLE t (x INTEGER)");
  init.close();
  const script = `const d = new (require(process.argv[1]))(process.argv[2]); d.exec("BEGIN IMMEDIATE"); if (process.argv[3]) d.exec(process.argv[3]); console.log("held"); setTimeout(() => { d.exec("COMMIT"); d.close(); }, ${ms});`;
  const holder = spawn(process.execPath, ["-e", script, require.resolve("better-sqlite3"), file, sql], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => holder.once("exit", resolve));
  await new Promise((resolve) => holder.stdout!.once("data", resolve));
  return { exited };
}

function runChild(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 40_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

let tmp: ReturnType<typeof tempDir>;

beforeEach(() => {
  tmp = tempDir("multi");
});

afterEach(() => {
  tmp.remove();
});

describe("several processes on one database file", () => {
  test("start at once on an older schema: all migrate without failing, then transact without losing a write", async () => {
    const file = join(tmp.dir, "shared.db");
    const old = openSqlite(file);
    await old.migrate([taskTable(TASK_COLUMNS.filter((c) => c.name !== "assignee"))]);
    await old.close();

    const processes = 4;
    const txCount = 25;
    const env = childEnv(file, txCount);
    const results = await Promise.all(Array.from({ length: processes }, () => runChild(env)));
    for (const r of results) expect(r).toEqual({ code: 0, stderr: "" });

    const raw = new BetterSqlite3(file, { readonly: true });
    try {
      expect(raw.prepare("SELECT count(*) AS n FROM task").get()).toEqual({ n: processes * txCount });
      const columns = raw.prepare("SELECT name FROM pragma_table_info('task')").all() as { name: string }[];
      expect(columns.map((c) => c.name)).toEqual(expect.arrayContaining(["assignee"]));
      expect(columns.filter((c) => c.name === "assignee")).toHaveLength(1);
      expect(raw.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'comment'").get()).toEqual({ n: 1 });
    } finally {
      raw.close();
    }
  }, 60_000);

  test("start at once on a file that does not exist yet: one creates it, in WAL mode, and none fails", async () => {
    const file = join(tmp.dir, "new", "fresh.db");
    const env = childEnv(file, 5);
    const results = await Promise.all(Array.from({ length: 4 }, () => runChild(env)));
    for (const r of results) expect(r).toEqual({ code: 0, stderr: "" });
    const raw = new BetterSqlite3(file);
    try {
      expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(raw.prepare("SELECT count(*) AS n FROM task").get()).toEqual({ n: 20 });
    } finally {
      raw.close();
    }
  }, 60_000);

  test("opening a file another process is writing (not yet WAL) waits for the write, then switches to WAL", async () => {
    // Holding its write lock, the other process would need this one's read lock gone to commit,
    // so SQLite answers this one's switch to WAL busy at once, without waiting: as a server
    // starting beside another one that is creating the same file meets it. It was a failed start.
    const file = join(tmp.dir, "journal.db");
    const { exited } = await holdWriteLock(file, "INSERT INTO t VALUES (1)", 400);
    // Opened (before the change, this threw "database is locked" at once).
    const db = openSqlite(file, { busyTimeoutMs: 5000 });
    await db.close();
    expect(await exited).toBe(0);
    const raw = new BetterSqlite3(file, { readonly: true });
    try {
      expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(raw.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 1 });
    } finally {
      raw.close();
    }
  }, 30_000);

  test("a file held longer than the busy timeout: the open fails, saying why", async () => {
    const file = join(tmp.dir, "held.db");
    const { exited } = await holdWriteLock(file, "", 1500);
    expect(() => openSqlite(file, { busyTimeoutMs: 200 })).toThrow(/cannot open sqlite database .*held\.db: database is locked/);
    expect(await exited).toBe(0);
  }, 30_000);
});
