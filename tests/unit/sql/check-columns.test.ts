import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import type { SqlChecker } from "../../../compiler/analyze/sql/dialect.js";
import { allTableDdl } from "../../../compiler/analyze/sql/ddl/index.js";
import { createSqliteChecker } from "../../../compiler/analyze/sql/sqlite/check.js";
import { checkSql } from "./checking.js";
import { commentResource, param, taskResource } from "./fixtures.js";

let checker: SqlChecker;
beforeAll(() => {
  const task = taskResource();
  checker = createSqliteChecker([{ ...task, ddl: allTableDdl(task) }, commentResource()]);
});
afterAll(() => checker.dispose());

const TASK_COLUMNS = [
  { name: "id", type: "id", enumValues: [], nullable: false },
  { name: "title", type: "text", enumValues: [], nullable: false },
  { name: "description", type: "text", enumValues: [], nullable: true },
  { name: "priority", type: "enum", enumValues: ["low", "medium", "high", "critical"], nullable: false },
  { name: "assignee", type: "text", enumValues: [], nullable: true },
  { name: "status", type: "enum", enumValues: ["open", "in_progress", "blocked", "done", "cancelled"], nullable: false },
  { name: "created_at", type: "timestamp", enumValues: [], nullable: false },
  { name: "completed_at", type: "timestamp", enumValues: [], nullable: true },
];

describe("result columns of valid queries", () => {
  test("SELECT * FROM task: every field with its type, enum values and nullability; the row is the resource", () => {
    const r = checkSql(checker, "SELECT * FROM task WHERE id = @id", [param("id", "id")]);
    expect(r.diagnostics).toEqual([]);
    expect(r.columns).toEqual(TASK_COLUMNS);
    expect(r.rowResource).toBe("task");
    expect(r.readonly).toBe(true);
  });

  test("list_tasks of docs/language.md §2.2 is clean and typed", () => {
    const r = checkSql(
      checker,
      "SELECT * FROM task\n  WHERE (@status IS NULL OR status = @status)\n  ORDER BY created_at DESC, id DESC\n  LIMIT @limit OFFSET @offset",
      [
        param("status", "text", { nullable: true }),
        param("limit", "int", { default: 50 }),
        param("offset", "int", { default: 0 }),
      ],
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.columns).toEqual(TASK_COLUMNS);
    expect(r.rowResource).toBe("task");
  });

  test("an aliased column keeps its field's type; count(*) is a non-null int; expressions are typed (column-types.test.ts)", () => {
    const r = checkSql(
      checker,
      "SELECT title AS name, count(*) AS n, COUNT( * ), max(created_at) AS newest, 1 + 1 FROM task GROUP BY title",
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.columns).toEqual([
      { name: "name", type: "text", enumValues: [], nullable: false },
      { name: "n", type: "int", enumValues: [], nullable: false },
      { name: "COUNT( * )", type: "int", enumValues: [], nullable: false },
      { name: "newest", type: "timestamp", enumValues: [], nullable: true },
      { name: "1 + 1", type: "int", enumValues: [], nullable: false },
    ]);
    expect(r.rowResource).toBeNull();
  });

  test("count(…) inside a larger expression: arithmetic on ints is an int", () => {
    const r = checkSql(checker, "SELECT count(*) - count(assignee) AS unassigned FROM task");
    expect(r.columns).toEqual([{ name: "unassigned", type: "int", enumValues: [], nullable: false }]);
  });

  test("LEFT JOIN makes the joined side's columns nullable, the other side keeps its own", () => {
    const r = checkSql(
      checker,
      "SELECT t.id, t.title, c.id AS comment_id, c.body, c.likes FROM task t LEFT JOIN comment c ON c.task_id = t.id",
    );
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.columns.map((c) => [c.name, c.type, c.nullable])).toEqual([
      ["id", "id", false],
      ["title", "text", false],
      ["comment_id", "id", true],
      ["body", "text", true],
      ["likes", "int", true],
    ]);
  });

  test("SELECT * over a LEFT JOIN expands both tables in order and only the right side turns nullable", () => {
    const r = checkSql(checker, "SELECT * FROM task LEFT OUTER JOIN comment ON comment.task_id = task.id");
    expect(r.columns.map((c) => `${c.name}${c.nullable ? "?" : ""}`)).toEqual([
      "id",
      "title",
      "description?",
      "priority",
      "assignee?",
      "status",
      "created_at",
      "completed_at?",
      "id?",
      "task_id?",
      "body?",
      "likes?",
    ]);
    expect(r.rowResource).toBeNull();
    // Both tables have `id`: a row object would keep only one of them.
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      ["SVC3018", "error", "query `q` returns more than one column named `id`"],
    ]);
  });

  test("RIGHT JOIN makes the left side nullable", () => {
    const r = checkSql(checker, "SELECT c.body, t.title FROM comment c RIGHT JOIN task t ON c.task_id = t.id");
    expect(r.columns.map((c) => [c.name, c.nullable])).toEqual([
      ["body", true],
      ["title", false],
    ]);
  });

  test("an inner join keeps both sides as declared; t.* gives the row of task", () => {
    const r = checkSql(checker, "SELECT t.* FROM task t JOIN comment c ON c.task_id = t.id WHERE c.likes > 10");
    expect(r.columns).toEqual(TASK_COLUMNS);
    expect(r.rowResource).toBe("task");
  });

  test("a subset of the fields, or the fields renamed, is not the resource's row", () => {
    expect(checkSql(checker, "SELECT id, title FROM task").rowResource).toBeNull();
    const renamed = checkSql(
      checker,
      "SELECT id, title AS t, description, priority, assignee, status, created_at, completed_at FROM task",
    );
    expect(renamed.rowResource).toBeNull();
    const all = checkSql(
      checker,
      "SELECT id, title, description, priority, assignee, status, created_at, completed_at FROM task",
    );
    expect(all.rowResource).toBe("task");
  });

  test("columns through a CTE keep their origin's type", () => {
    const r = checkSql(
      checker,
      "WITH open_tasks AS (SELECT * FROM task WHERE status = 'open') SELECT id, assignee FROM open_tasks",
    );
    expect(r.columns.map((c) => [c.name, c.type, c.nullable])).toEqual([
      ["id", "id", false],
      ["assignee", "text", true],
    ]);
  });
});
