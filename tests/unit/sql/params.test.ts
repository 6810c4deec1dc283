import { describe, expect, test } from "../../support/jest.js";
import { bindParams } from "../../../compiler/analyze/sql/params.js";
import { sqlBody } from "./fixtures.js";

describe("bindParams", () => {
  const listTasks = sqlBody(
    "SELECT * FROM task\n  WHERE (@status IS NULL OR status = @status)\n  ORDER BY created_at DESC, id DESC\n  LIMIT @limit OFFSET @offset",
  );

  test("args are the distinct names in order of first appearance", () => {
    expect(bindParams(listTasks).args).toEqual(["status", "limit", "offset"]);
  });

  test("sqlite has one positional ? per occurrence, its slots decided at build time", () => {
    const { sqlite } = bindParams(listTasks).dialects;
    expect(sqlite.text).toBe(
      "SELECT * FROM task\n  WHERE (? IS NULL OR status = ?)\n  ORDER BY created_at DESC, id DESC\n  LIMIT ? OFFSET ?",
    );
    expect(sqlite.slots).toEqual([0, 0, 1, 2]);
  });

  test("postgres uses $N with the same numbering", () => {
    const { postgres } = bindParams(listTasks).dialects;
    expect(postgres.text).toBe(
      // Without the resources, nothing is known NOT NULL: PostgreSQL is told where NULL sorts.
      "SELECT * FROM task\n  WHERE ($1 IS NULL OR status = $1)\n  ORDER BY created_at DESC NULLS LAST, id DESC NULLS LAST\n  LIMIT $2 OFFSET $3",
    );
    expect(postgres.slots).toEqual([0, 1, 2]);
  });

  test("mysql has one positional ? per occurrence, and slots repeat a name used twice", () => {
    const { mysql } = bindParams(listTasks).dialects;
    expect(mysql.text).toBe(
      "SELECT * FROM task\n  WHERE (? IS NULL OR status = ?)\n  ORDER BY created_at DESC, id DESC\n  LIMIT ? OFFSET ?",
    );
    expect(mysql.slots).toEqual([0, 0, 1, 2]);
  });

  test("an @name inside a string literal or comment is not a parameter and stays as written", () => {
    const body = sqlBody("SELECT '@nope', title -- @never\nFROM task WHERE id = @id AND note <> 'mail@example.com'");
    expect(body.params.map((p) => p.name)).toEqual(["id"]);
    const bound = bindParams(body);
    expect(bound.args).toEqual(["id"]);
    expect(bound.dialects.sqlite.text).toBe(
      "SELECT '@nope', title -- @never\nFROM task WHERE id = ? AND note <> 'mail@example.com'",
    );
    expect(bound.dialects.postgres.text).toBe(
      "SELECT '@nope', title -- @never\nFROM task WHERE id = $1 AND note <> 'mail@example.com'",
    );
    expect(bound.dialects.mysql.text).toBe(
      "SELECT '@nope', title -- @never\nFROM task WHERE id = ? AND note <> 'mail@example.com'",
    );
  });

  test("later names keep their first number when an earlier one repeats in between", () => {
    const bound = bindParams(sqlBody("UPDATE t SET a = @b, c = @a WHERE x = @b OR y = @a OR z = @c"));
    expect(bound.args).toEqual(["b", "a", "c"]);
    expect(bound.dialects.postgres.text).toBe("UPDATE t SET a = $1, c = $2 WHERE x = $1 OR y = $2 OR z = $3");
    expect(bound.dialects.postgres.slots).toEqual([0, 1, 2]);
    expect(bound.dialects.mysql.slots).toEqual([0, 1, 0, 1, 2]);
    expect(bound.dialects.sqlite.slots).toEqual([0, 1, 0, 1, 2]);
  });

  test("parameters given out of order are rewritten by position", () => {
    const body = sqlBody("SELECT @x + @y");
    const bound = bindParams({ ...body, params: [...body.params].reverse() });
    expect(bound.args).toEqual(["x", "y"]);
    expect(bound.dialects.postgres.text).toBe("SELECT $1 + $2");
  });

  test("SQL without parameters is unchanged", () => {
    const bound = bindParams(sqlBody("DELETE FROM task WHERE status = 'done'"));
    expect(bound.args).toEqual([]);
    for (const d of Object.values(bound.dialects)) {
      expect(d).toEqual({ text: "DELETE FROM task WHERE status = 'done'", slots: [] });
    }
  });

  test("the same body gives the same output every time", () => {
    expect(JSON.stringify(bindParams(listTasks))).toBe(JSON.stringify(bindParams(listTasks)));
  });

  test("a span that does not point at its @name is reported as a compiler bug", () => {
    const body = sqlBody("SELECT @a");
    const shifted = { ...body, params: [{ name: "a", span: { ...body.params[0].span, start: body.span.start } }] };
    expect(() => bindParams(shifted)).toThrow(/internal: @a is not at offset 0/);
  });
});
