import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import type { SqlChecker } from "../../../compiler/analyze/sql/dialect.js";
import { createSqliteChecker } from "../../../compiler/analyze/sql/sqlite/check.js";
import { renderDiagnostic } from "../../../compiler/diagnostics/render.js";
import { FILE, checkSql, codes } from "./checking.js";
import { commentResource, param, spannedText, sqlBody, taskResource } from "./fixtures.js";

let checker: SqlChecker;
beforeAll(() => {
  checker = createSqliteChecker([taskResource(), commentResource()]);
});
afterAll(() => checker.dispose());

/** `line:column-line:column` of a diagnostic's span. */
function where(d: { span: { start: { line: number; column: number }; end: { line: number; column: number } } | null }): string {
  return d.span ? `${d.span.start.line}:${d.span.start.column}-${d.span.end.line}:${d.span.end.column}` : "none";
}

describe("unknown tables and columns point into the SQL", () => {
  // The body starts at line 7, column 3 (right after `{`); its first line is empty.
  const text = "\n    SELECT t.id, t.titel\n    FROM task t\n    WHERE t.stauts = 'open'\n  ";

  test("a qualified unknown column: its exact span on its line, and a did-you-mean hint", () => {
    const r = checkSql(checker, text);
    expect(codes(r)).toEqual(["SVC3002 error"]);
    const [d] = r.diagnostics;
    expect(d.file).toBe(FILE);
    expect(where(d)).toBe("8:18-8:25");
    expect(spannedText(r.body, d.span!)).toBe("t.titel");
    expect(d.message).toBe("no column `t.titel` (in query `q`)");
    expect(d.hint).toBe("did you mean `title`?");
  });

  test("an unknown table on the third line, with a hint", () => {
    const r = checkSql(checker, "\n  SELECT *\n  FROM tasks\n  WHERE id = @id\n", [param("id", "id")]);
    expect(codes(r)).toEqual(["SVC3001 error"]);
    expect(where(r.diagnostics[0])).toBe("9:8-9:13");
    expect(spannedText(r.body, r.diagnostics[0].span!)).toBe("tasks");
    expect(r.diagnostics[0].hint).toBe("did you mean `task`?");
  });

  test("with no near name, the hint lists the known tables or columns", () => {
    const table = checkSql(checker, "SELECT * FROM zzz");
    expect(table.diagnostics[0].hint).toBe("the tables are the declared resources: `task`, `comment`");
    const column = checkSql(checker, "SELECT nothing_like_it FROM comment");
    expect(column.diagnostics[0].hint).toBe("the columns here are `id`, `task_id`, `body`, `likes`");
    expect(spannedText(column.body, column.diagnostics[0].span!)).toBe("nothing_like_it");
  });

  test("the unknown name is found outside strings and comments", () => {
    const r = checkSql(checker, "SELECT 'assigne' AS x -- assigne\nFROM task WHERE assigne IS NULL");
    expect(codes(r)).toEqual(["SVC3002 error"]);
    expect(where(r.diagnostics[0])).toBe("8:17-8:24");
    expect(r.diagnostics[0].hint).toBe("did you mean `assignee`?");
  });

  test("a double-quoted string is a column to SQLite: the hint says to use single quotes", () => {
    const r = checkSql(checker, `SELECT * FROM task WHERE status = "open"`);
    expect(codes(r)).toEqual(["SVC3002 error"]);
    expect(spannedText(r.body, r.diagnostics[0].span!)).toBe(`"open"`);
    expect(r.diagnostics[0].hint).toMatch(/single quotes/);
  });

  test("INSERT naming a column the table lacks", () => {
    const r = checkSql(checker, "INSERT INTO task (id, titel) VALUES (@id, 'x')", [param("id", "id")], "statement");
    expect(codes(r)).toEqual(["SVC3002 error"]);
    expect(spannedText(r.body, r.diagnostics[0].span!)).toBe("titel");
    expect(r.diagnostics[0].hint).toBe("did you mean `title`?");
  });

  test("an ambiguous column in a join", () => {
    const r = checkSql(checker, "SELECT id FROM task JOIN comment ON comment.task_id = task.id");
    expect(codes(r)).toEqual(["SVC3015 error"]);
    expect(where(r.diagnostics[0])).toBe("7:10-7:12");
  });

  test("the diagnostic renders with a caret under the culprit", () => {
    const prefix = "module task_tracker\n\nresource task { id: id }\n\n\n";
    const source = `${prefix}query q() {${text}}\n`;
    const r = checkSql(checker, sqlBody(text, { offset: prefix.length + "query q() {".length, line: 6, column: 12 }));
    expect(renderDiagnostic(r.diagnostics[0], source)).toBe(
      [
        `${FILE}:7:18: error SVC3002: no column \`t.titel\` (in query \`q\`)`,
        "  5 |",
        "  6 | query q() {",
        "> 7 |     SELECT t.id, t.titel",
        `    | ${" ".repeat(17)}^^^^^^^`,
        "  = hint: did you mean `title`?",
      ].join("\n"),
    );
  });
});

describe("syntax errors", () => {
  test("the culprit is the occurrence SQLite stopped at, not an earlier one with the same text", () => {
    const r = checkSql(checker, "SELECT * FROM task\nWHERE status = 'open'\nWHERE id = 'x'");
    expect(codes(r)).toEqual(["SVC3003 error"]);
    expect(where(r.diagnostics[0])).toBe("9:1-9:6");
    expect(r.diagnostics[0].message).toBe('SQL syntax error in query `q`: near "WHERE": syntax error');
  });

  test("a misspelt keyword", () => {
    const r = checkSql(checker, "SELECT * FORM task");
    expect(codes(r)).toEqual(["SVC3003 error"]);
    expect(spannedText(r.body, r.diagnostics[0].span!)).toBe("FORM");
  });

  test("a statement that stops early points at its last token", () => {
    const r = checkSql(checker, "SELECT * FROM task WHERE");
    expect(codes(r)).toEqual(["SVC3003 error"]);
    expect(spannedText(r.body, r.diagnostics[0].span!)).toBe("WHERE");
    expect(r.diagnostics[0].message).toMatch(/ends too early/);
  });

  test("an unterminated string", () => {
    const r = checkSql(checker, "SELECT * FROM task WHERE title = 'open");
    expect(codes(r)).toEqual(["SVC3003 error"]);
    expect(spannedText(r.body, r.diagnostics[0].span!)).toBe("'open");
  });

  test("a syntax error right at a parameter quotes the @name as written", () => {
    const r = checkSql(checker, "SELECT * FROM task WHERE id = @id @id", [param("id", "id")]);
    expect(codes(r)).toEqual(["SVC3003 error"]);
    expect(r.diagnostics[0].message).toContain('near "@id"');
    expect(where(r.diagnostics[0])).toBe("7:37-7:40");
  });

  test("an unknown function", () => {
    const r = checkSql(checker, "SELECT levenshtein(title, 'x') FROM task");
    expect(codes(r)).toEqual(["SVC3016 error"]);
    expect(spannedText(r.body, r.diagnostics[0].span!)).toBe("levenshtein");
  });

  test("two statements in one block, and an empty block", () => {
    const two = checkSql(checker, "DELETE FROM comment; DELETE FROM task", [], "statement");
    expect(codes(two)).toEqual(["SVC3012 error"]);
    expect(spannedText(two.body, two.diagnostics[0].span!)).toBe("DELETE FROM task");
    const empty = checkSql(checker, "\n  -- nothing yet\n", [], "statement");
    expect(codes(empty)).toEqual(["SVC3013 error"]);
    expect(empty.diagnostics[0].span).toEqual(empty.body.span);
  });
});

describe("@name parameters", () => {
  test("an @name that is not a parameter is an error at that @name", () => {
    const r = checkSql(checker, "SELECT * FROM task\nWHERE status = @stats", [param("status", "text")]);
    const unknown = r.diagnostics.find((d) => d.code === "SVC3005")!;
    expect(unknown.severity).toBe("error");
    expect(unknown.span).toEqual(r.body.params[0].span);
    expect(where(unknown)).toBe("8:16-8:22");
    expect(unknown.message).toBe("`@stats` is not a parameter of query `q`");
    expect(unknown.hint).toBe("did you mean `@status`?");
  });

  test("a parameter the SQL never binds is a warning on the SQL that names it", () => {
    const r = checkSql(checker, "SELECT * FROM task WHERE id = @id", [param("id", "id"), param("verbose", "bool")]);
    expect(codes(r)).toEqual(["SVC3006 warning"]);
    expect(r.diagnostics[0].span).toEqual(r.body.span);
    expect(r.diagnostics[0].message).toBe("parameter `verbose` of query `q` is never used in its SQL");
  });

  test("each occurrence of an unknown @name is reported", () => {
    const r = checkSql(checker, "SELECT * FROM task WHERE title = @x OR description = @x");
    expect(r.diagnostics.map((d) => [d.code, spannedText(r.body, d.span!)])).toEqual([
      ["SVC3005", "@x"],
      ["SVC3005", "@x"],
    ]);
    expect(r.diagnostics[0].hint).toBe("the parameters are none");
  });

  test("driver placeholders (?, ?1, $1, :name) are refused in favour of @name", () => {
    const r = checkSql(checker, "UPDATE task SET title = ? WHERE id = :id OR id = $1 OR id = ?2", [], "statement");
    expect(r.diagnostics.map((d) => [d.code, spannedText(r.body, d.span!)])).toEqual([
      ["SVC3014", "?"],
      ["SVC3014", ":id"],
      ["SVC3014", "$1"],
      ["SVC3014", "?2"],
    ]);
  });
});

describe("start-up", () => {
  test("a table SQLite refuses is listed, not thrown", () => {
    const bad = { ...commentResource(), name: "sqlite_comment" };
    const c = createSqliteChecker([taskResource(), bad]);
    try {
      expect(c.rejectedTables).toEqual([
        { resource: "sqlite_comment", message: expect.stringContaining("reserved for internal use") },
      ]);
      expect(checkSql(c, "SELECT * FROM task").diagnostics).toEqual([]);
    } finally {
      c.dispose();
    }
  });

  test("check after dispose is a compiler bug with a clear message", () => {
    const c = createSqliteChecker([]);
    c.dispose();
    c.dispose();
    expect(() => checkSql(c, "SELECT 1")).toThrow(/after dispose/);
  });
});
