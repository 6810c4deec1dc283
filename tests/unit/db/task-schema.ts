// Hand-written specs in the shape the generator emits for the task tracker example
// (docs/language.md §2.1), shared by the db adapter tests.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StatementSpec, TableColumnDdl, TableSpec } from "../../../runtime/contract/index.js";
import { sqliteStatement } from "../../support/sqlite-sql.js";

export const TASK_COLUMNS: TableColumnDdl[] = [
  { name: "id", definition: "id TEXT NOT NULL PRIMARY KEY", sqlType: "TEXT", nullable: false, hasDefault: false },
  { name: "title", definition: "title TEXT NOT NULL", sqlType: "TEXT", nullable: false, hasDefault: false },
  { name: "description", definition: "description TEXT", sqlType: "TEXT", nullable: true, hasDefault: false },
  {
    name: "priority",
    definition: "priority TEXT NOT NULL DEFAULT 'medium' CHECK (priority IN ('low','medium','high','critical'))",
    sqlType: "TEXT",
    nullable: false,
    hasDefault: true,
  },
  { name: "assignee", definition: "assignee TEXT", sqlType: "TEXT", nullable: true, hasDefault: false },
  {
    name: "status",
    definition:
      "status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','in_progress','blocked','done','cancelled'))",
    sqlType: "TEXT",
    nullable: false,
    hasDefault: true,
  },
  { name: "estimate", definition: "estimate INTEGER", sqlType: "INTEGER", nullable: true, hasDefault: false },
  {
    name: "urgent",
    definition: "urgent INTEGER NOT NULL DEFAULT 0",
    sqlType: "INTEGER",
    nullable: false,
    hasDefault: true,
  },
  { name: "created_at", definition: "created_at TEXT NOT NULL", sqlType: "TEXT", nullable: false, hasDefault: false },
  { name: "completed_at", definition: "completed_at TEXT", sqlType: "TEXT", nullable: true, hasDefault: false },
];

export function createTableSql(name: string, columns: readonly TableColumnDdl[]): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (\n  ${columns.map((c) => c.definition).join(",\n  ")}\n)`;
}

export function taskTable(columns: readonly TableColumnDdl[] = TASK_COLUMNS, extraIndexes: string[] = []): TableSpec {
  return {
    name: "task",
    ddl: {
      sqlite: {
        createTable: createTableSql("task", columns),
        columns: [...columns],
        createIndexes: [
          "CREATE UNIQUE INDEX IF NOT EXISTS task_title_key ON task (title)",
          "CREATE INDEX IF NOT EXISTS task_status_idx ON task (status)",
          "CREATE INDEX IF NOT EXISTS task_created_at_id_idx ON task (created_at DESC, id DESC)",
          ...extraIndexes,
        ],
      },
    },
  };
}

const COMMENT_COLUMNS: TableColumnDdl[] = [
  { name: "id", definition: "id TEXT NOT NULL PRIMARY KEY", sqlType: "TEXT", nullable: false, hasDefault: false },
  {
    name: "task_id",
    definition: "task_id TEXT NOT NULL REFERENCES task (id)",
    sqlType: "TEXT",
    nullable: false,
    hasDefault: false,
  },
  {
    name: "body",
    definition: "body TEXT NOT NULL CHECK (length(trim(body)) > 0)",
    sqlType: "TEXT",
    nullable: false,
    hasDefault: false,
  },
];

export const commentTable: TableSpec = {
  name: "comment",
  ddl: {
    sqlite: {
      createTable: createTableSql("comment", COMMENT_COLUMNS),
      columns: COMMENT_COLUMNS,
      createIndexes: ["CREATE INDEX IF NOT EXISTS comment_task_id_idx ON comment (task_id)"],
    },
  },
};

function sqlite(name: string, text: string, _params: number): StatementSpec {
  return sqliteStatement(name, text);
}

/** args: id, title, description, priority, assignee, status, estimate, urgent, created_at */
export const insertTask = sqlite(
  "task.insert",
  "INSERT INTO task (id, title, description, priority, assignee, status, estimate, urgent, created_at) " +
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING *",
  9,
);
export const getTask = sqlite("task.get", "SELECT * FROM task WHERE id = ?1", 1);
/** args: id, status, assignee */
export const updateTask = sqlite(
  "task.update",
  "UPDATE task SET status = ?2, assignee = ?3 WHERE id = ?1 RETURNING *",
  3,
);
export const deleteTask = sqlite("task.delete", "DELETE FROM task WHERE id = ?1 RETURNING *", 1);
/** args: status (nullable), limit, offset; `?1` is used twice. */
export const listTasks = sqlite(
  "task_tracker.list_tasks",
  "SELECT * FROM task\nWHERE (?1 IS NULL OR status = ?1)\nORDER BY created_at DESC, id DESC\nLIMIT ?2 OFFSET ?3",
  3,
);
export const countTasks = sqlite("task_tracker.count_tasks", "SELECT count(*) AS n FROM task", 0);
export const purgeDone = sqlite("task_tracker.purge_done_tasks", "DELETE FROM task WHERE status = 'done'", 0);
/** args: id, task_id, body */
export const insertComment = sqlite(
  "comment.insert",
  "INSERT INTO comment (id, task_id, body) VALUES (?1, ?2, ?3) RETURNING *",
  3,
);

export const ALL_STATEMENTS = [
  insertTask,
  getTask,
  updateTask,
  deleteTask,
  listTasks,
  countTasks,
  purgeDone,
  insertComment,
];

/** Insert arguments for a task with defaults for everything but id and title. */
export function taskArgs(
  id: string,
  title: string,
  over: { status?: string; urgent?: boolean; created?: string } = {},
): unknown[] {
  return [
    id,
    title,
    null,
    "medium",
    null,
    over.status ?? "open",
    null,
    over.urgent ?? false,
    over.created ?? "2026-01-01T00:00:00.000Z",
  ];
}

/** A fresh temp folder; call the returned function to remove it. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `svc-db-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
