import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase, sqlitePath } from "../../../runtime/db/index.js";
import { openSqlite } from "../../../runtime/db/sqlite/index.js";
import { StartupError } from "../../../runtime/core/errors.js";
import type { Database, StatementSpec } from "../../../runtime/contract/index.js";
import { tempDir } from "./task-schema.js";

function pragma(name: string): StatementSpec {
  return { name: `test.pragma_${name}`, sql: { sqlite: { text: `PRAGMA ${name}`, slots: [] } } };
}

async function readPragma(db: Database, name: string): Promise<unknown> {
  const spec = pragma(name);
  db.prepare([spec]);
  const row = await db.one(spec, []);
  return row === null ? null : Object.values(row)[0];
}

let tmp: ReturnType<typeof tempDir>;

beforeEach(() => {
  tmp = tempDir("open");
});

afterEach(() => {
  tmp.remove();
});

describe("sqlitePath", () => {
  test.each([
    ["data/tasks.db", "data/tasks.db"],
    [":memory:", ":memory:"],
    ["sqlite:data/tasks.db", "data/tasks.db"],
    ["sqlite::memory:", ":memory:"],
    ["sqlite:///var/lib/tasks.db", "/var/lib/tasks.db"],
    ["SQLITE:x.db", "x.db"],
    ["  svc.db ", "svc.db"],
  ])("%s → %s", (db, path) => {
    expect(sqlitePath(db)).toBe(path);
  });

  test("an empty value or a URL of another database is refused, without its password", () => {
    expect(() => sqlitePath("")).toThrow(StartupError);
    expect(() => sqlitePath("sqlite:")).toThrow("--db sqlite: names no file");
    let message = "";
    try {
      sqlitePath("postgres://app:s3cret@db.internal:5432/tasks");
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      "--db postgres://app:***@db.internal:5432/tasks is a postgres URL, but the backend is sqlite; pass --backend or a file path",
    );
  });
});

describe("openDatabase", () => {
  test.each<["postgres" | "mysql" | "tidb", string, string]>([
    ["postgres", "postgres://app@127.0.0.1/tasks", "postgres"],
    ["mysql", "mysql://app@127.0.0.1/tasks", "mysql"],
    ["tidb", "mysql://app@127.0.0.1:4000/tasks", "mysql"],
  ])("backend %s opens its adapter (connecting only when first used)", async (backend, url, dialect) => {
    const db = await openDatabase({ backend, db: url });
    try {
      expect(db.dialect).toBe(dialect);
    } finally {
      await db.close();
    }
  });

  test("a URL for another backend is a start-up error", async () => {
    await expect(openDatabase({ backend: "postgres", db: "mysql://app@127.0.0.1/tasks" })).rejects.toThrow(StartupError);
    await expect(openDatabase({ backend: "mysql", db: "postgres://app:pw@127.0.0.1/tasks" })).rejects.toThrow(
      "--db postgres://app:***@127.0.0.1/tasks is not a mysql URL",
    );
  });

  test("sqlite::memory: opens an in-memory database that answers", async () => {
    const db = await openDatabase({ backend: "sqlite", db: "sqlite::memory:" });
    expect(db.dialect).toBe("sqlite");
    // SQLite is in process: its ping answers at once, no promise.
    expect(db.ping()).toBeUndefined();
    expect(await readPragma(db, "foreign_keys")).toBe(1);
    await db.close();
  });

  test("a file opens in WAL mode with synchronous NORMAL and foreign keys on, creating its folders", async () => {
    const file = join(tmp.dir, "a", "b", "tasks.db");
    const db = await openDatabase({ backend: "sqlite", db: `sqlite:${file}` });
    expect(existsSync(file)).toBe(true);
    expect(await readPragma(db, "journal_mode")).toBe("wal");
    expect(await readPragma(db, "synchronous")).toBe(1);
    expect(await readPragma(db, "foreign_keys")).toBe(1);
    // SQLite's own busy wait would freeze the event loop: waits happen in busy-retry.ts.
    expect(await readPragma(db, "busy_timeout")).toBe(0);
    await db.close();
  });
});

describe("openSqlite failures and close", () => {
  test("a folder where the file should be is a start-up error naming the path", () => {
    const dir = join(tmp.dir, "is-a-dir");
    mkdirSync(dir);
    expect(() => openSqlite(dir)).toThrow(StartupError);
    expect(() => openSqlite(dir)).toThrow(`cannot open sqlite database ${dir}:`);
  });

  test("a file that is not a database is a start-up error", () => {
    const file = join(tmp.dir, "notes.txt");
    writeFileSync(file, "this is not a database, just some text that is long enough to have a header\n".repeat(20));
    expect(() => openSqlite(file)).toThrow(
      new StartupError("SVC_ERR_DB_OPEN", `cannot open sqlite database ${file}: file is not a database`),
    );
  });

  test("an empty path is refused", () => {
    expect(() => openSqlite(" ")).toThrow("the sqlite database path is empty");
  });

  test("close is idempotent, and nothing runs after it", async () => {
    const db = openSqlite(join(tmp.dir, "c.db"));
    await db.close();
    await db.close();
    expect(() => db.ping()).toThrow("The database connection is not open");
  });
});
