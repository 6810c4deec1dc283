import { describe, expect, test } from "../../support/jest.js";
import type { IndexModel, ParamModel } from "../../../compiler/analyze/model/model.js";
import { createSqliteChecker } from "../../../compiler/analyze/sql/sqlite/check.js";
import { checkSql } from "./checking.js";
import { CREATED_INDEX, STATUS_INDEX, commentResource, param, taskResource } from "./fixtures.js";

const LIST_TASKS =
  "SELECT * FROM task\n  WHERE (@status IS NULL OR status = @status)\n  ORDER BY created_at DESC, id DESC\n  LIMIT @limit OFFSET @offset";
const LIST_PARAMS = [
  param("status", "text", { nullable: true }),
  param("limit", "int", { default: 50 }),
  param("offset", "int", { default: 0 }),
];
const GET_TASK = "SELECT * FROM task WHERE id = @id";

/** Diagnostics of one query against task (with `taskIndexes`) and comment (with `commentIndexes`). */
function diagnose(text: string, params: ParamModel[], taskIndexes: IndexModel[], commentIndexes: IndexModel[] = []) {
  const checker = createSqliteChecker([taskResource(taskIndexes), commentResource(commentIndexes)]);
  try {
    return checkSql(checker, text, params, "query", "list_tasks");
  } finally {
    checker.dispose();
  }
}

const index = (name: string, ...columns: [string, boolean][]): IndexModel => ({
  name,
  unique: false,
  columns: columns.map(([n, desc]) => ({ name: n, desc })),
});

describe("plan warnings", () => {
  test("list_tasks with index (created_at desc, id desc) declared gets no warning", () => {
    expect(diagnose(LIST_TASKS, LIST_PARAMS, [STATUS_INDEX, CREATED_INDEX]).diagnostics).toEqual([]);
  });

  test.each([
    ["with only index (status)", [STATUS_INDEX]],
    ["with no index", []],
  ])("list_tasks %s gets one warning naming exactly index (created_at desc, id desc)", (_label, indexes) => {
    const r = diagnose(LIST_TASKS, LIST_PARAMS, indexes);
    expect(r.diagnostics).toEqual([
      {
        code: "SVC3010",
        severity: "warning",
        file: "modules/task_tracker/task_tracker.svc",
        span: r.body.span,
        message: "query `list_tasks` sorts the rows of `task` without an index",
        hint: "declare `index (created_at desc, id desc)` in resource `task`",
      },
    ]);
  });

  test.each([
    ["the declared indexes", [STATUS_INDEX, CREATED_INDEX]],
    ["no index at all", []],
  ])("get_task never warns, with %s", (_label, indexes) => {
    expect(diagnose(GET_TASK, [param("id", "id")], indexes).diagnostics).toEqual([]);
  });

  test("a full scan names the index on the columns its WHERE compares with =", () => {
    const r = diagnose(
      "SELECT * FROM task WHERE assignee = @who AND title = @title",
      [param("who", "text"), param("title", "text")],
      [],
    );
    expect(r.diagnostics.map((d) => [d.code, d.message, d.hint])).toEqual([
      [
        "SVC3009",
        "query `list_tasks` scans all of table `task` (no index for its WHERE)",
        "declare `index (assignee, title)` in resource `task`",
      ],
    ]);
    const fixed = diagnose(
      "SELECT * FROM task WHERE assignee = @who AND title = @title",
      [param("who", "text"), param("title", "text")],
      [index("task_assignee_idx", ["assignee", false])],
    );
    expect(fixed.diagnostics).toEqual([]);
  });

  test("a sort after an equality names the index with the equality column first", () => {
    const r = diagnose("SELECT * FROM task WHERE status = @s ORDER BY title DESC", [param("s", "text")], [STATUS_INDEX]);
    expect(r.diagnostics.map((d) => [d.code, d.hint])).toEqual([
      ["SVC3010", "declare `index (status, title desc)` in resource `task`"],
    ]);
    const fixed = diagnose(
      "SELECT * FROM task WHERE status = @s ORDER BY title DESC",
      [param("s", "text")],
      [index("task_status_title_idx", ["status", false], ["title", true])],
    );
    expect(fixed.diagnostics).toEqual([]);
  });

  test("a sort the planner makes despite a declared index that gives the order asks for nothing (SVC3010's false positive)", () => {
    const taskIdx = index("comment_task_id_idx", ["task_id", false]);
    // GROUP BY sorts first; the table read inside a join cannot give the order.
    const grouped = diagnose(
      "SELECT t.id, count(c.id) AS n FROM task t LEFT JOIN comment c ON c.task_id = t.id GROUP BY t.id ORDER BY t.created_at DESC, t.id DESC",
      [],
      [CREATED_INDEX],
      [taskIdx],
    );
    expect(grouped.diagnostics).toEqual([]);
    const joined = diagnose(
      "SELECT t.* FROM comment c JOIN task t ON t.id = c.task_id WHERE c.task_id = @id ORDER BY t.created_at, t.id",
      [param("id", "id")],
      [CREATED_INDEX],
      [taskIdx],
    );
    expect(joined.diagnostics).toEqual([]);
    // A prefix of a declared index, a unique index, the primary key: each already gives the order.
    const prefix = diagnose(
      "SELECT t.id FROM comment c JOIN task t ON t.id = c.task_id WHERE c.task_id = @id ORDER BY t.created_at DESC",
      [param("id", "id")],
      [CREATED_INDEX],
      [taskIdx],
    );
    expect(prefix.diagnostics).toEqual([]);
    const unique = { ...index("task_title_key", ["title", false]), unique: true };
    const byTitle = diagnose(
      "SELECT t.title FROM comment c JOIN task t ON t.id = c.task_id WHERE c.task_id = @id ORDER BY t.title",
      [param("id", "id")],
      [unique],
      [taskIdx],
    );
    expect(byTitle.diagnostics).toEqual([]);
    const byKey = diagnose(
      "SELECT t.id FROM task t LEFT JOIN comment c ON c.task_id = t.id GROUP BY t.id, t.title ORDER BY t.id DESC",
      [],
      [],
      [taskIdx],
    );
    expect(byKey.diagnostics).toEqual([]);
    // An index that does not give the order is still asked for.
    const other = diagnose(
      "SELECT t.id, count(c.id) AS n FROM task t LEFT JOIN comment c ON c.task_id = t.id GROUP BY t.id ORDER BY t.title",
      [],
      [CREATED_INDEX],
      [taskIdx],
    );
    expect(other.diagnostics.map((d) => [d.code, d.hint])).toEqual([["SVC3010", "declare `index (title)` in resource `task`"]]);
  });

  test("a sort on an expression warns without naming an index", () => {
    const r = diagnose("SELECT * FROM task ORDER BY lower(title)", [], [STATUS_INDEX, CREATED_INDEX]);
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["SVC3010", "query `list_tasks` sorts its rows without an index"],
    ]);
  });

  test("a join that needs an automatic index names the index on the joined table", () => {
    const text = "SELECT t.title, c.body FROM task t JOIN comment c ON c.task_id = t.id WHERE t.id = @id";
    const r = diagnose(text, [param("id", "id")], [STATUS_INDEX]);
    expect(r.diagnostics.map((d) => [d.code, d.hint])).toEqual([["SVC3009", "declare `index (task_id)` in resource `comment`"]]);
    const left = diagnose("SELECT t.title, c.body FROM task t LEFT JOIN comment c ON c.task_id = t.id", [], [STATUS_INDEX]);
    expect(left.diagnostics.map((d) => [d.code, d.hint])).toEqual([
      ["SVC3011", "declare `index (task_id)` in resource `comment`"],
    ]);
    const fixed = diagnose(text, [param("id", "id")], [STATUS_INDEX], [index("comment_task_id_idx", ["task_id", false])]);
    expect(fixed.diagnostics).toEqual([]);
  });

  test("reading a whole table that no index could narrow is not warned about", () => {
    expect(diagnose("SELECT * FROM task", [], []).diagnostics).toEqual([]);
    expect(diagnose("SELECT count(*) FROM task", [], [STATUS_INDEX]).diagnostics).toEqual([]);
    expect(diagnose("SELECT * FROM task WHERE status = 'open' OR assignee = 'x'", [], [STATUS_INDEX]).diagnostics).toEqual([]);
  });

  test("an ordered scan through an index with LIMIT is fine", () => {
    const r = diagnose("SELECT id FROM task ORDER BY created_at DESC, id DESC LIMIT 5", [], [CREATED_INDEX]);
    expect(r.diagnostics).toEqual([]);
  });

  test("a query with errors gets no plan warnings on top", () => {
    const r = diagnose("SELECT * FROM task WHERE assignee = @nobody", [], []);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["SVC3005"]);
  });
});
