import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import type { SqlChecker } from "../../../compiler/analyze/sql/dialect.js";
import { createSqliteChecker } from "../../../compiler/analyze/sql/sqlite/check.js";
import { checkSql, codes } from "./checking.js";
import { commentResource, param, taskResource } from "./fixtures.js";

let checker: SqlChecker;
beforeAll(() => {
  checker = createSqliteChecker([taskResource(), commentResource()]);
});
afterAll(() => checker.dispose());

describe("statements (an action's sql { … })", () => {
  test("DELETE from purge_done_tasks (docs/language.md §2.3): clean, no columns, writes", () => {
    const r = checkSql(checker, " DELETE FROM task WHERE status = 'done' ", [], "statement", "purge_done_tasks");
    expect(r).toMatchObject({ columns: [], rowResource: null, readonly: false, diagnostics: [] });
  });

  test("INSERT and UPDATE with @name bindings", () => {
    const insert = checkSql(
      checker,
      "INSERT INTO comment (id, task_id, body) VALUES (@id, @task, @body)",
      [param("id", "id"), param("task", "id"), param("body", "text")],
      "statement",
    );
    expect(insert.diagnostics).toEqual([]);
    expect(insert.readonly).toBe(false);
    const update = checkSql(
      checker,
      "UPDATE task SET status = 'done', completed_at = @now WHERE id = @id",
      [param("now", "timestamp"), param("id", "id")],
      "statement",
    );
    expect(update.diagnostics).toEqual([]);
  });

  test("a statement naming an unknown table or column is an error like in a query", () => {
    const r = checkSql(checker, "UPDATE task SET finished = 1 WHERE id = @id", [param("id", "id")], "statement", "finish");
    expect(codes(r)).toEqual(["SVC3002 error"]);
    expect(r.diagnostics[0].message).toBe("no column `finished` (in the `sql { … }` of action `finish`)");
  });

  test("a SELECT as a statement is allowed and reads", () => {
    const r = checkSql(checker, "SELECT count(*) FROM task", [], "statement");
    expect(r).toMatchObject({ columns: [], readonly: true, diagnostics: [] });
  });

  test("statements get no plan warnings", () => {
    const r = checkSql(checker, "DELETE FROM comment WHERE body = 'spam'", [], "statement");
    expect(r.diagnostics).toEqual([]);
  });
});

describe("queries must read rows", () => {
  test("a query without rows is an error", () => {
    const r = checkSql(checker, "DELETE FROM task WHERE status = 'done'");
    expect(codes(r)).toEqual(["SVC3007 error"]);
    expect(r.columns).toEqual([]);
  });

  test("a query that writes (RETURNING) is an error, though its columns are still typed", () => {
    const r = checkSql(checker, "UPDATE task SET status = 'done' WHERE id = @id RETURNING id, status", [param("id", "id")]);
    expect(codes(r)).toEqual(["SVC3008 error"]);
    expect(r.readonly).toBe(false);
    expect(r.columns.map((c) => c.name)).toEqual(["id", "status"]);
  });
});
