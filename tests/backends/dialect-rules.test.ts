// SQL checked for the chosen backend at build time (issue 5, part 4): what SQLite accepts
// but PostgreSQL or MySQL/MariaDB/TiDB refuse or read otherwise is a diagnostic pointing
// at the construct; SQL every backend reads alike gets none.

import { describe, expect, test } from "../support/jest.js";
import { backendDiagnostics, withBackendRules } from "../../compiler/analyze/sql/backend-rules.js";
import type { SqlCheckInput } from "../../compiler/analyze/sql/dialect.js";
import type { RuleBackend } from "../../compiler/analyze/sql/portability.js";
import { createSqliteChecker } from "../../compiler/analyze/sql/sqlite/check.js";
import type { ResourceShape } from "../../compiler/analyze/sql/ddl/index.js";
import { field, sqlBody, spannedText, taskResource } from "../unit/sql/fixtures.js";

const FILE = "modules/shop/shop.svc";

/** A resource with a bool column, for the comparisons PostgreSQL refuses. */
const item: ResourceShape = {
  module: "shop",
  name: "item",
  doc: null,
  primaryKey: ["id"],
  fields: [
    field("id", "id"),
    field("name", "text"),
    field("active", "bool"),
    field("meta", "json", { nullable: true }),
  ],
  indexes: [],
};
const RESOURCES = [taskResource(), item];

function input(text: string, kind: SqlCheckInput["kind"] = "query"): SqlCheckInput {
  return { file: FILE, body: sqlBody(text), params: [], kind, name: "q" };
}

/** [code, the SQL text the diagnostic points at] for each finding, in the order of the SQL. */
function findings(backend: RuleBackend, text: string, kind: SqlCheckInput["kind"] = "query"): [string, string][] {
  const i = input(text, kind);
  return backendDiagnostics(i, backend, RESOURCES)
    .sort((a, b) => a.span!.start.offset - b.span!.start.offset)
    .map((d) => [d.code, spannedText(i.body, d.span!)]);
}

describe("SQL every backend reads alike", () => {
  test.each([
    "SELECT * FROM task WHERE (@status IS NULL OR status = @status) ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset",
    "SELECT count(*) AS n, coalesce(sum(1), 0) AS s, lower(title) || '!' AS t FROM task GROUP BY title HAVING count(*) > 1",
    'SELECT t."title", upper(t.status) AS s FROM task AS t JOIN item i ON i.name = t.title WHERE i.active = TRUE AND NOT i.active IS NULL',
    "SELECT id FROM (SELECT id FROM task) AS sub WHERE id IN (SELECT id FROM task WHERE assignee IS NOT NULL)",
    "UPDATE task SET status = 'done', completed_at = @now WHERE id = @id",
    "WITH open AS (SELECT * FROM task WHERE status = 'open') SELECT count(*) AS n FROM open",
  ])("no finding on postgres, mysql or tidb: %s", (sql) => {
    for (const backend of ["postgres", "mysql", "tidb"] as const) expect(findings(backend, sql)).toEqual([]);
  });
});

describe("postgres", () => {
  test("SQLite's functions, operators, IS and quoting", () => {
    expect(
      findings(
        "postgres",
        "SELECT strftime('%Y', created_at) AS y, ifnull(title, '') AS t FROM task WHERE title == 'a' OR title GLOB 'x*'",
      ),
    ).toEqual([
      ["SVC3101", "strftime"],
      ["SVC3101", "ifnull"],
      ["SVC3102", "=="],
      ["SVC3102", "GLOB"],
    ]);
    expect(findings("postgres", "SELECT `title`, [status] FROM task WHERE assignee IS @who")).toEqual([
      ["SVC3104", "`title`"],
      ["SVC3104", "[status]"],
      ["SVC3103", "IS"],
    ]);
  });

  test("LIMIT a, b and a negative limit", () => {
    expect(findings("postgres", "SELECT * FROM task LIMIT 5, 10")).toEqual([["SVC3105", "LIMIT"]]);
    expect(findings("postgres", "SELECT * FROM task LIMIT -1")).toEqual([["SVC3105", "LIMIT"]]);
  });

  test("conflict clauses of SQLite, index hints and collations", () => {
    expect(findings("postgres", "INSERT OR IGNORE INTO task (id, title) VALUES (@id, @t)", "statement")).toEqual([
      ["SVC3107", "INSERT OR IGNORE"],
    ]);
    expect(findings("postgres", "REPLACE INTO task (id, title) VALUES (@id, @t)", "statement")).toEqual([
      ["SVC3107", "REPLACE INTO"],
    ]);
    expect(
      findings("postgres", "SELECT * FROM task INDEXED BY task_status_idx WHERE title = 'a' COLLATE NOCASE"),
    ).toEqual([
      ["SVC3108", "INDEXED BY"],
      ["SVC3108", "COLLATE NOCASE"],
    ]);
    expect(findings("postgres", "SELECT count(*) AS n FROM (SELECT id FROM task)")).toEqual([["SVC3108", "("]]);
  });

  test("casts, a bool compared with 0/1, scalar max, round and LIKE", () => {
    expect(
      findings("postgres", "SELECT CAST(name AS BLOB) AS b FROM item WHERE active = 1 OR 0 <> item.active"),
    ).toEqual([
      ["SVC3109", "BLOB"],
      ["SVC3112", "active = 1"],
      ["SVC3112", "0 <> item.active"],
    ]);
    expect(
      findings(
        "postgres",
        "SELECT max(1, 2) AS m, round(3.14159, 2) AS r, random(7) AS x, random() AS y FROM task WHERE title LIKE 'a%'",
      ),
    ).toEqual([
      ["SVC3113", "max"],
      ["SVC3114", "round"],
      ["SVC3114", "random"],
      ["SVC3111", "LIKE"],
    ]);
    expect(findings("postgres", "SELECT date('now') AS d, trim(title, 'x') AS t FROM task")).toEqual([
      ["SVC3114", "date"],
      ["SVC3114", "trim"],
    ]);
  });

  test("a JSON path where PostgreSQL takes a key", () => {
    expect(findings("postgres", "SELECT meta->>'$.a' AS a, meta->>'b' AS b FROM item")).toEqual([
      ["SVC3115", "->>'$.a'"],
    ]);
  });

  test("each finding says what to write instead", () => {
    const [d] = backendDiagnostics(input("SELECT group_concat(title) AS t FROM task"), "postgres", RESOURCES);
    expect(d).toMatchObject({
      code: "SVC3101",
      severity: "error",
      message: "`group_concat` is not a function on PostgreSQL (in query `q`)",
      hint: "string_agg(x, ',') on PostgreSQL",
      file: FILE,
    });
  });
});

describe("mysql (MySQL 8, MariaDB) and tidb", () => {
  test("RETURNING, ON CONFLICT and INSERT OR", () => {
    expect(findings("mysql", "UPDATE task SET status = 'done' WHERE id = @id RETURNING id", "statement")).toEqual([
      ["SVC3106", "RETURNING"],
    ]);
    expect(
      findings("tidb", "INSERT INTO task (id, title) VALUES (@id, @t) ON CONFLICT (id) DO NOTHING", "statement"),
    ).toEqual([["SVC3107", "ON CONFLICT"]]);
    expect(findings("mysql", "INSERT OR REPLACE INTO task (id, title) VALUES (@id, @t)", "statement")).toEqual([
      ["SVC3107", "INSERT OR REPLACE"],
    ]);
  });

  test("LIMIT and OFFSET take only a number or a parameter", () => {
    expect(findings("mysql", "SELECT * FROM task LIMIT @n + 1 OFFSET @o * 2")).toEqual([
      ["SVC3105", "LIMIT"],
      ["SVC3105", "OFFSET"],
    ]);
    expect(findings("mysql", "SELECT * FROM task LIMIT 10 OFFSET @o")).toEqual([]);
  });

  test("clauses MySQL lacks", () => {
    expect(
      findings(
        "mysql",
        "SELECT t.id, sum(1) FILTER (WHERE t.status = 'open') AS n FROM task t FULL JOIN task u ON u.id = t.id WHERE t.title IS DISTINCT FROM u.title ORDER BY t.assignee NULLS LAST",
      ),
    ).toEqual([
      ["SVC3108", "FILTER"],
      ["SVC3108", "FULL"],
      ["SVC3108", "DISTINCT FROM"],
      ["SVC3108", "NULLS LAST"],
    ]);
    expect(findings("mysql", "UPDATE task SET title = i.name FROM item i WHERE i.id = task.id", "statement")).toEqual([
      ["SVC3108", "FROM"],
    ]);
    expect(findings("mysql", "INSERT INTO task DEFAULT VALUES", "statement")).toEqual([["SVC3108", "DEFAULT VALUES"]]);
  });

  test("functions SQLite has and MySQL lacks or reads otherwise", () => {
    expect(
      findings(
        "mysql",
        "SELECT iif(1, 2, 3) AS a, log(10) AS l, group_concat(title, ';') AS g, json_extract(meta, '$.a') AS j FROM item, task",
      ),
    ).toEqual([
      ["SVC3101", "iif"],
      ["SVC3114", "log"],
      ["SVC3114", "group_concat"],
      ["SVC3114", "json_extract"],
    ]);
    // random() with no argument is written per backend (RAND() here): portable, not SVC3101.
    expect(findings("mysql", "SELECT min(1, 2) AS m, random() AS r FROM task")).toEqual([["SVC3113", "min"]]);
  });

  test("casts, backslashes, postfix ISNULL, LIKE, IS", () => {
    expect(
      findings("mysql", "SELECT CAST(id AS TEXT) AS a, CAST(id AS INTEGER) AS b, CAST(id AS CHAR) AS c FROM task"),
    ).toEqual([
      ["SVC3109", "TEXT"],
      ["SVC3109", "INTEGER"],
    ]);
    expect(
      findings("mysql", "SELECT id FROM task WHERE title = 'a\\b' OR assignee ISNULL OR title LIKE 'x' OR title IS @t"),
    ).toEqual([
      ["SVC3110", "'a\\b'"],
      ["SVC3102", "ISNULL"],
      ["SVC3111", "LIKE"],
      ["SVC3103", "IS"],
    ]);
  });

  test("-> and ->>: MariaDB has neither; TiDB takes a path", () => {
    expect(findings("mysql", "SELECT meta->>'$.a' AS a FROM item")).toEqual([["SVC3115", "->>"]]);
    expect(findings("tidb", "SELECT meta->>'$.a' AS a, meta->>'b' AS b FROM item")).toEqual([["SVC3115", "->>'b'"]]);
  });

  test("bool compared with 0/1 is fine on MySQL, where BOOLEAN is a tinyint", () => {
    expect(findings("mysql", "SELECT id FROM item WHERE active = 1")).toEqual([]);
  });
});

describe("withBackendRules", () => {
  test("adds the chosen backend's findings to SQLite's, and nothing for sqlite", () => {
    const base = createSqliteChecker(RESOURCES);
    try {
      const sql = "SELECT id FROM task WHERE title == 'x' AND nope = 1";
      const codes = (backend: "sqlite" | "postgres") =>
        withBackendRules(base, backend, RESOURCES)
          .check(input(sql))
          .diagnostics.map((d) => d.code);
      expect(codes("sqlite")).toEqual(["SVC3002"]);
      expect(codes("postgres")).toEqual(["SVC3002", "SVC3102"]);
    } finally {
      base.dispose();
    }
  });
});
