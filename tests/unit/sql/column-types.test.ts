import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import { backendDiagnostics } from "../../../compiler/analyze/sql/backend-rules.js";
import type { SqlChecker } from "../../../compiler/analyze/sql/dialect.js";
import { bindParams } from "../../../compiler/analyze/sql/params.js";
import { createSqliteChecker } from "../../../compiler/analyze/sql/sqlite/check.js";
import { FILE, checkSql } from "./checking.js";
import { commentResource, param, spannedText, sqlBody, taskResource } from "./fixtures.js";

let checker: SqlChecker;
beforeAll(() => {
  checker = createSqliteChecker([taskResource(), commentResource()]);
});
afterAll(() => checker.dispose());

/** `name type` or `name type?` per column, after checking that the SQL is clean. */
function typed(sql: string, params = [param("id", "id")]): string[] {
  const r = checkSql(checker, sql, params);
  expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([]);
  return r.columns.map((c) => `${c.name} ${c.type}${c.nullable ? "?" : ""}`);
}

describe("expression columns get types", () => {
  test("EXISTS and NOT EXISTS are never-null booleans", () => {
    expect(
      typed(
        "SELECT EXISTS (SELECT 1 FROM comment c WHERE c.task_id = t.id) AS commented, " +
          "NOT EXISTS (SELECT 1 FROM comment c WHERE c.task_id = t.id AND c.likes > 3) AS quiet FROM task t",
      ),
    ).toEqual(["commented bool", "quiet bool"]);
  });

  test("comparisons are booleans, null only when an operand may be", () => {
    expect(
      typed(
        "SELECT title = 'x' AS is_x, assignee = 'ann' AS mine, assignee IS NULL AS unassigned, " +
          "status IN ('open', 'blocked') AS waiting, created_at < @since AND title <> '' AS old_named FROM task",
        [param("since", "timestamp")],
      ),
    ).toEqual(["is_x bool", "mine bool?", "unassigned bool", "waiting bool?", "old_named bool"]);
  });

  test("BETWEEN's AND is part of one comparison, not a second condition", () => {
    expect(
      typed("SELECT likes BETWEEN 1 AND 5 AS mid, likes BETWEEN 1 AND 5 AND body <> '' AS both_ FROM comment"),
    ).toEqual(["mid bool?", "both_ bool?"]);
  });

  test("a CASE has its branches' one type, never the type of its WHEN conditions", () => {
    expect(
      typed(
        "SELECT CASE WHEN likes > 1 THEN 'many' ELSE 'few' END AS amount, " +
          "CASE WHEN likes > 1 THEN body END AS popular, " +
          "CASE likes WHEN 0 THEN 0.5 WHEN 1 THEN likes ELSE CASE WHEN body = '' THEN 2 ELSE 3 END END AS score, " +
          "CASE WHEN likes > 1 THEN body ELSE likes END AS mixed FROM comment",
      ),
    ).toEqual(["amount text", "popular text?", "score float", "mixed unknown?"]);
  });

  test("counts are never-null ints; sum of ints an int, null over no rows; avg a float; max keeps its column's type", () => {
    expect(
      typed(
        "SELECT count(*) AS n, count(assignee) AS assigned, count(*) - count(assignee) AS unassigned, " +
          "max(created_at) AS newest, 1 + 1 AS two FROM task",
      ),
    ).toEqual(["n int", "assigned int", "unassigned int", "newest timestamp?", "two int"]);
    expect(typed("SELECT sum(likes) AS total, avg(likes) AS mean, sum(likes) * 2 AS twice FROM comment")).toEqual([
      "total int?",
      "mean float?",
      "twice int?",
    ]);
  });

  test("a scalar subquery takes its column's type: count is never null, anything else may be", () => {
    expect(
      typed(
        "SELECT t.id, (SELECT count(*) FROM comment c WHERE c.task_id = t.id) AS comments, " +
          "(SELECT c.body FROM comment c WHERE c.task_id = t.id LIMIT 1) AS first_body FROM task t",
      ),
    ).toEqual(["id id", "comments int", "first_body text?"]);
  });

  test("every spelling of the JSON functions is json, on SQLite as written", () => {
    expect(
      typed(
        "SELECT json_object('id', t.id) AS a, json_build_object('id', t.id) AS b, jsonb_build_object('id', t.id) AS c, " +
          "json_array(t.id) AS d, json_build_array(t.id, t.title) AS e, " +
          "(SELECT json_group_array(body) FROM comment WHERE task_id = t.id) AS f, " +
          "(SELECT json_agg(body) FROM comment WHERE task_id = t.id) AS g, " +
          "(SELECT JSON_ARRAYAGG(body) FROM comment WHERE task_id = t.id) AS h, " +
          "(SELECT json_object_agg(id, likes) FROM comment WHERE task_id = t.id) AS i, " +
          "coalesce(t.description, '{}') AS j, coalesce(json(t.description), '[]') AS k FROM task t",
      ),
    ).toEqual(["a json", "b json", "c json", "d json", "e json", "f json", "g json", "h json", "i json", "j text", "k json"]);
  });

  test("a stand-in keeps SQLite's argument count: json_agg takes one argument", () => {
    const r = checkSql(checker, "SELECT json_agg(id, title) AS x FROM task");
    expect(r.diagnostics.map((d) => d.code)).toEqual(["SVC3016"]);
  });
});

describe("type annotations: AS \"name: type\"", () => {
  test("give a type to what svc cannot type; `?` makes it nullable; the column is named without the annotation", () => {
    expect(
      typed(
        "SELECT CASE WHEN likes > 1 THEN 1 ELSE 0 END AS \"popular: bool\", " +
          "CASE WHEN likes > 1 THEN body ELSE likes END AS \"popular_body: text?\" FROM comment",
      ),
    ).toEqual(["popular bool", "popular_body text?"]);
  });

  test("override an expression's inferred type and a field's nullability, but not a field's type", () => {
    expect(typed('SELECT assignee AS "assignee: text", count(*) AS "n: float" FROM task GROUP BY assignee')).toEqual([
      "assignee text",
      "n float",
    ]);
    const r = checkSql(checker, 'SELECT title AS "title: int" FROM task');
    expect(r.diagnostics.map((d) => [d.code, d.message, d.hint, spannedText(r.body, d.span!)])).toEqual([
      [
        "SVC3031",
        "column `title` of query `q` is annotated `int`, but it reads field `task.title`",
        "the field is `text`; drop the annotation (`AS title`), or CAST the value to what you want",
        '"title: int"',
      ],
    ]);
  });

  test("an unknown type is an error at the annotation, with the likely type", () => {
    const r = checkSql(checker, 'SELECT EXISTS (SELECT 1 FROM comment) AS "any: boolean", 1 AS "one: flaot" FROM task');
    expect(r.diagnostics.map((d) => [d.code, d.message, d.hint, spannedText(r.body, d.span!)])).toEqual([
      ["SVC3030", "column `any` of query `q` is annotated with `boolean`, which is not a type", "did you mean `any: bool`?", '"any: boolean"'],
      ["SVC3030", "column `one` of query `q` is annotated with `flaot`, which is not a type", "did you mean `one: float`?", '"one: flaot"'],
    ]);
    expect(r.diagnostics[0].file).toBe(FILE);
  });

  test("a table named like a JSON function is not renamed", () => {
    const bound = bindParams(sqlBody("INSERT INTO json_array (a) VALUES (json_array(1))"));
    expect(bound.dialects.postgres.text).toBe("INSERT INTO json_array (a) VALUES (json_build_array(1))");
  });

  test("a quoted name with a colon that is not an alias stays a name", () => {
    const bound = bindParams(sqlBody('SELECT "a: b" FROM t'));
    expect(bound.dialects.postgres.text).toBe('SELECT "a: b" FROM t');
  });
});

describe("each backend gets its own SQL", () => {
  const sql =
    "SELECT json_object('id', t.id, 'tags', (SELECT json_agg(c.body) FILTER (WHERE c.body <> '') FROM comment c WHERE c.task_id = @id)) " +
    'AS "doc: json" FROM task t';

  test("JSON functions are renamed, aggregates over no rows give [] everywhere, nested subqueries stay JSON, annotations are stripped", () => {
    const d = bindParams(sqlBody(sql)).dialects;
    expect(d.sqlite.text).toBe(
      "SELECT json_object('id', t.id, 'tags', json((SELECT json_group_array(c.body) FILTER (WHERE c.body <> '') FROM comment c WHERE c.task_id = ?))) " +
        'AS "doc" FROM task t',
    );
    expect(d.postgres.text).toBe(
      "SELECT json_build_object('id', t.id, 'tags', (SELECT coalesce(json_agg(c.body) FILTER (WHERE c.body <> ''), '[]'::json) FROM comment c WHERE c.task_id = $1)) " +
        'AS "doc" FROM task t',
    );
    expect(d.mysql.text).toBe(
      "SELECT JSON_OBJECT('id', t.id, 'tags', JSON_EXTRACT((SELECT coalesce(JSON_ARRAYAGG(c.body) FILTER (WHERE c.body <> ''), JSON_ARRAY()) FROM comment c WHERE c.task_id = ?), '$')) " +
        'AS "doc" FROM task t',
    );
  });

  test("booleans handed to JSON functions are JSON true/false on SQLite and MySQL too", () => {
    const text =
      "SELECT json_object('open', t.status = 'open', 'mine', @me = t.assignee, 'title', t.title, 'any', " +
      "EXISTS (SELECT 1 FROM comment c WHERE c.task_id = t.id)) AS doc, " +
      "(SELECT json_group_array(c.likes > 1 ORDER BY c.id) FROM comment c WHERE c.task_id = t.id) AS liked FROM task t";
    const body = sqlBody(text);
    const r = checkSql(checker, body, [param("me", "text")]);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.jsonValues.map((b) => text.slice(b.start, b.end))).toEqual([
      "t.status = 'open'",
      "@me = t.assignee",
      "EXISTS (SELECT 1 FROM comment c WHERE c.task_id = t.id)",
      "c.likes > 1",
    ]);
    const d = bindParams(body, undefined, undefined, r.jsonValues).dialects;
    const yes = " WHEN 1 THEN 'true' WHEN 0 THEN 'false' END";
    expect(d.sqlite.text).toBe(
      `SELECT json_object('open', json(CASE (t.status = 'open')${yes}), 'mine', json(CASE (? = t.assignee)${yes}), 'title', t.title, 'any', ` +
        `json(CASE (EXISTS (SELECT 1 FROM comment c WHERE c.task_id = t.id))${yes})) AS doc, ` +
        `(SELECT json_group_array(json(CASE (c.likes > 1)${yes}) ORDER BY c.id) FROM comment c WHERE c.task_id = t.id) AS liked FROM task t`,
    );
    expect(d.mysql.text).toContain(`'mine', JSON_EXTRACT(CASE (? = t.assignee)${yes}, '$')`);
    expect(d.mysql.slots).toEqual([0]);
    expect(d.postgres.text).toContain("'mine', $1 = t.assignee, 'title'");
  });

  test("timestamps handed to JSON functions are svc's ISO text on every backend", () => {
    const text = "SELECT json_object('title', title, 'at', created_at, 'done', completed_at) AS doc FROM task";
    const body = sqlBody(text);
    const r = checkSql(checker, body);
    expect(r.jsonValues.map((v) => [v.type, text.slice(v.start, v.end)])).toEqual([
      ["timestamp", "created_at"],
      ["timestamp", "completed_at"],
    ]);
    const d = bindParams(body, undefined, undefined, r.jsonValues).dialects;
    expect(d.sqlite.text).toBe(text);
    expect(d.postgres.text).toBe(
      `SELECT json_build_object('title', title, 'at', to_char((created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ` +
        `'done', to_char((completed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) AS doc FROM task`,
    );
    expect(d.mysql.text).toContain(`'at', CONCAT(LEFT(DATE_FORMAT(created_at, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')`);
  });

  test("the JSON functions are not SQLite-only any more: PostgreSQL and MySQL rules let them through", () => {
    const input = { file: FILE, body: sqlBody(sql), params: [param("id", "id")], kind: "query" as const, name: "q" };
    const resources = [taskResource(), commentResource()];
    expect(backendDiagnostics(input, "postgres", resources).map((d) => d.message)).toEqual([]);
    const group = { ...input, body: sqlBody("SELECT json_group_array(title) AS titles, json_group_object(id, title) AS o FROM task") };
    expect(backendDiagnostics(group, "mysql", resources).map((d) => d.message)).toEqual([]);
  });
});
