// Each case starts a "previous version" of the server on a real file, then the next
// version with changed declarations, as a deploy would.

import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import BetterSqlite3 from "better-sqlite3";
import { join } from "node:path";
import { migrateSqlite } from "../../../runtime/db/sqlite/migrate.js";
import { openSqlite } from "../../../runtime/db/sqlite/index.js";
import { StartupError } from "../../../runtime/core/errors.js";
import type { TableColumnDdl, TableSpec } from "../../../runtime/contract/index.js";
import { commentTable, TASK_COLUMNS, taskTable, tempDir } from "./task-schema.js";

let tmp: ReturnType<typeof tempDir>;
let file: string;

beforeEach(() => {
  tmp = tempDir("migrate");
  file = join(tmp.dir, "nested", "app.db");
});

afterEach(() => {
  tmp.remove();
});

async function startWith(tables: TableSpec[]): Promise<void> {
  const db = openSqlite(file);
  try {
    await db.migrate(tables);
  } finally {
    await db.close();
  }
}

/** The schema and every row, read through a separate connection. */
function snapshot(): { schema: unknown[]; tasks: unknown[] } {
  const raw = new BetterSqlite3(file, { readonly: true });
  try {
    const schema = raw.prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY name").all();
    const hasTask = schema.some((s) => (s as { name: string }).name === "task");
    return { schema, tasks: hasTask ? raw.prepare("SELECT * FROM task ORDER BY id").all() : [] };
  } finally {
    raw.close();
  }
}

function insertRaw(sql: string): void {
  const raw = new BetterSqlite3(file);
  try {
    raw.exec(sql);
  } finally {
    raw.close();
  }
}

function without(...names: string[]): TableColumnDdl[] {
  return TASK_COLUMNS.filter((c) => !names.includes(c.name));
}

function replacing(name: string, column: Partial<TableColumnDdl>): TableColumnDdl[] {
  return TASK_COLUMNS.map((c) => (c.name === name ? { ...c, ...column } : c));
}

async function startupError(tables: TableSpec[]): Promise<string> {
  const err = await startWith(tables).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StartupError);
  return (err as StartupError).message;
}

const SEED = "INSERT INTO task (id, title, created_at) VALUES ('t1', 'Existing', '2026-01-01T00:00:00.000Z')";

describe("migrate", () => {
  test("creates missing tables and their indexes in a new file (and its folder)", async () => {
    await startWith([taskTable(), commentTable]);
    const names = snapshot().schema.map((s) => (s as { name: string }).name);
    expect(names).toEqual(
      expect.arrayContaining([
        "task",
        "comment",
        "task_title_key",
        "task_status_idx",
        "task_created_at_id_idx",
        "comment_task_id_idx",
      ]),
    );
  });

  test("a second start with the same declarations changes nothing", async () => {
    await startWith([taskTable(), commentTable]);
    insertRaw(SEED);
    const before = snapshot();
    await startWith([taskTable(), commentTable]);
    expect(snapshot()).toEqual(before);
  });

  test("a declared nullable column missing in the table is added; rows keep their data", async () => {
    await startWith([taskTable(without("assignee", "estimate"))]);
    insertRaw(SEED);
    await startWith([taskTable()]);
    const { tasks } = snapshot();
    expect(tasks).toEqual([expect.objectContaining({ id: "t1", title: "Existing", assignee: null, estimate: null })]);
  });

  test("a missing NOT NULL column with a default is added with the default in existing rows", async () => {
    await startWith([taskTable(without("urgent", "priority"))]);
    insertRaw(SEED);
    await startWith([taskTable()]);
    expect(snapshot().tasks).toEqual([expect.objectContaining({ id: "t1", urgent: 0, priority: "medium" })]);
  });

  test("a missing NOT NULL column without a default stops the start, changing nothing", async () => {
    await startWith([taskTable(without("assignee"))]);
    insertRaw(SEED);
    const before = snapshot();
    const owner: TableColumnDdl = {
      name: "owner",
      definition: "owner TEXT NOT NULL",
      sqlType: "TEXT",
      nullable: false,
      hasDefault: false,
    };
    const message = await startupError([taskTable([...TASK_COLUMNS, owner]), commentTable]);
    expect(message).toContain("no data is dropped implicitly");
    expect(message).toContain("table task: column owner is declared NOT NULL without a default");
    // All or nothing: neither the addable column nor the new table was created.
    expect(snapshot()).toEqual(before);
  });

  test("a live column that is not declared (dropped or renamed) stops the start", async () => {
    await startWith([taskTable()]);
    insertRaw(SEED);
    const before = snapshot();
    const renamed = TASK_COLUMNS.map((c) =>
      c.name === "assignee" ? { ...c, name: "owner", definition: "owner TEXT" } : c,
    );
    const message = await startupError([taskTable(renamed)]);
    expect(message).toContain("no data is dropped implicitly");
    expect(message).toContain("table task: column assignee is in the database but not declared; add `drop assignee` to drop it with its data, or `renamed from assignee` on the field that replaces it");
    expect(snapshot()).toEqual(before);
  });

  test("a retyped column stops the start; the type compare ignores case", async () => {
    await startWith([taskTable()]);
    await startWith([taskTable(replacing("estimate", { sqlType: "integer", definition: "estimate integer" }))]);
    const message = await startupError([
      taskTable(replacing("estimate", { sqlType: "REAL", definition: "estimate REAL" })),
    ]);
    expect(message).toContain("no data is dropped implicitly");
    expect(message).toContain("table task: column estimate is INTEGER in the database but declared REAL; add `changed from <its old type>` on the field");
  });

  test("a column whose nullability changed stops the start", async () => {
    await startWith([taskTable()]);
    const message = await startupError([
      taskTable(
        replacing("description", {
          nullable: false,
          definition: "description TEXT NOT NULL DEFAULT ''",
          hasDefault: true,
        }),
      ),
    ]);
    expect(message).toContain("table task: column description is nullable in the database but declared NOT NULL");
  });

  test("every problem is listed at once", async () => {
    await startWith([taskTable()]);
    const changed = replacing("estimate", { sqlType: "REAL", definition: "estimate REAL" }).filter(
      (c) => c.name !== "assignee",
    );
    const message = await startupError([taskTable(changed)]);
    expect(message.split("\n").filter((l) => l.startsWith("  - "))).toHaveLength(2);
  });

  test("a column SQLite cannot add to a table stops the start with SQLite's reason", async () => {
    await startWith([taskTable(without("completed_at"))]);
    // SQLite refuses such a default only when the table has rows to fill.
    insertRaw(SEED);
    const message = await startupError([
      taskTable(
        replacing("completed_at", {
          definition: "completed_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
          hasDefault: true,
        }),
      ),
    ]);
    expect(message).toContain(
      "table task: column completed_at cannot be added: Cannot add a column with non-constant default",
    );
  });

  test("a new index is created on an existing table", async () => {
    await startWith([taskTable()]);
    await startWith([taskTable(TASK_COLUMNS, ["CREATE INDEX IF NOT EXISTS task_assignee_idx ON task (assignee)"])]);
    expect(snapshot().schema).toContainEqual(expect.objectContaining({ type: "index", name: "task_assignee_idx" }));
  });

  test("a unique index the existing rows violate stops the start, naming the table", async () => {
    await startWith([taskTable()]);
    insertRaw(
      "INSERT INTO task (id, title, assignee, created_at) VALUES ('t1', 'a', 'ana', 'x'), ('t2', 'b', 'ana', 'y')",
    );
    const message = await startupError([
      taskTable(TASK_COLUMNS, ["CREATE UNIQUE INDEX IF NOT EXISTS task_assignee_key ON task (assignee)"]),
    ]);
    // Answered before anything runs (runtime/migrate), with the repeated values.
    expect(message).toContain('task index task_assignee_key: the table repeats values the unique index forbids, e.g. assignee="ana" (2 rows)');
    expect(snapshot().schema).not.toContainEqual(expect.objectContaining({ name: "task_assignee_key" }));
  });

  test("a table without sqlite DDL, or with DDL that fails, stops the start naming it", async () => {
    expect(await startupError([{ name: "ghost", ddl: {} }])).toBe(
      "table ghost has no sqlite DDL; rebuild the server for the sqlite backend",
    );
    const broken: TableSpec = {
      name: "broken",
      ddl: {
        sqlite: {
          createTable: "CREATE TABLE IF NOT EXISTS broken (id TEXT PRIMARY KEY,)",
          columns: [],
          createIndexes: [],
        },
      },
    };
    expect(await startupError([broken])).toMatch(/^table broken: cannot create the table: near "\)": syntax error/);
  });

  test("DDL whose column list disagrees with its CREATE TABLE is caught on the first start", async () => {
    const lying: TableSpec = {
      name: "lying",
      ddl: {
        sqlite: {
          createTable: "CREATE TABLE IF NOT EXISTS lying (id TEXT NOT NULL PRIMARY KEY, n INTEGER)",
          columns: [
            {
              name: "id",
              definition: "id TEXT NOT NULL PRIMARY KEY",
              sqlType: "TEXT",
              nullable: false,
              hasDefault: false,
            },
          ],
          createIndexes: [],
        },
      },
    };
    expect(await startupError([lying])).toContain("table lying: column n is in the database but not declared");
  });

  test("waits for another connection's write lock, then migrates", async () => {
    await startWith([taskTable(without("assignee"))]);
    const other = new BetterSqlite3(file);
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 100);
    try {
      await startWith([taskTable()]);
    } finally {
      other.close();
    }
    expect(snapshot().schema).toContainEqual(
      expect.objectContaining({ name: "task", sql: expect.stringContaining("assignee") }),
    );
  });

  test("a lock held past the wait is a start-up error", async () => {
    await startWith([taskTable()]);
    const other = new BetterSqlite3(file);
    other.exec("BEGIN IMMEDIATE");
    const raw = new BetterSqlite3(file, { timeout: 0 });
    try {
      const err = await migrateSqlite(raw, [taskTable()], 150).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StartupError);
      expect((err as Error).message).toContain("the database stayed locked by another connection for 0.15 s");
    } finally {
      other.exec("ROLLBACK");
      other.close();
      raw.close();
    }
  });

  test("two connections migrating one file at once both succeed and change it once", async () => {
    await startWith([taskTable(without("assignee", "estimate"))]);
    insertRaw(SEED);
    const a = openSqlite(file);
    const b = openSqlite(file);
    try {
      await Promise.all([a.migrate([taskTable(), commentTable]), b.migrate([taskTable(), commentTable])]);
    } finally {
      await a.close();
      await b.close();
    }
    const { schema, tasks } = snapshot();
    expect(schema.filter((s) => (s as { name: string }).name === "comment")).toHaveLength(1);
    expect(tasks).toEqual([expect.objectContaining({ id: "t1", assignee: null, estimate: null })]);
  });
});
