// Which queries SQLite answers as JSON itself (docs/language.md, "Generated code"), and the SQL
// it is given: the query inside, unchanged, bound as it is.

import { describe, expect, test } from "../../support/jest.js";
import Database from "better-sqlite3";
import type { ColumnModel } from "../../../compiler/analyze/model/model.js";
import { sqliteJsonRows } from "../../../compiler/analyze/sql/sqlite/json-rows.js";

const col = (name: string, type: ColumnModel["type"], nullable = false): ColumnModel => ({ name, type, enumValues: [], nullable });

describe("sqliteJsonRows", () => {
  test("text, id, enum, timestamp, int and bool columns: json_object over the query", () => {
    const sql = sqliteJsonRows("SELECT * FROM t WHERE id = ?", [col("id", "id"), col("n", "int", true), col("ok", "bool")]);
    expect(sql).toBe(
      [
        "SELECT json_object(",
        `  'id', "id",`,
        `  'n', "n",`,
        `  'ok', json(CASE WHEN "ok" IS NULL THEN NULL WHEN "ok" = 1 OR "ok" = '1' OR "ok" = 'true' THEN 'true' ELSE 'false' END)`,
        ")",
        "FROM (",
        "  SELECT * FROM t WHERE id = ?",
        ")",
      ].join("\n"),
    );
  });

  test("a float, json or untyped column, or names a row cannot hold one key each of: none", () => {
    for (const type of ["float", "json", "unknown"] as const) expect(sqliteJsonRows("SELECT a FROM t", [col("a", type)])).toBeNull();
    expect(sqliteJsonRows("SELECT a, a FROM t", [col("a", "text"), col("a", "text")])).toBeNull();
    expect(sqliteJsonRows("SELECT a AS __proto__ FROM t", [col("__proto__", "text")])).toBeNull();
    expect(sqliteJsonRows("SELECT a AS é FROM t", [col("é", "text")])).toBeNull();
    expect(sqliteJsonRows("SELECT 1 WHERE 0", [])).toBeNull();
  });

  test("a trailing semicolon, a trailing comment and quotes in names still make one statement that runs", () => {
    const db = new Database(":memory:");
    db.exec(`CREATE TABLE t (id TEXT, "it's ""q""" INTEGER, ok INTEGER)`);
    db.prepare(`INSERT INTO t VALUES ('a', 7, 1), ('b', NULL, 0)`).run();
    const sql = sqliteJsonRows(`SELECT * FROM t ORDER BY id DESC LIMIT ? -- newest first;\n; -- done\n/* really */`, [
      col("id", "id"),
      col(`it's "q"`, "int", true),
      col("ok", "bool"),
    ]);
    expect(sql).toMatch(/LIMIT \?\n\)$/);
    expect(db.prepare(sql!).pluck().all(5)).toEqual([`{"id":"b","it's \\"q\\"":null,"ok":false}`, `{"id":"a","it's \\"q\\"":7,"ok":true}`]);
    db.close();
  });
});
