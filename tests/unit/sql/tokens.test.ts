import { describe, expect, test } from "../../support/jest.js";
import { clauseTokens, equalityColumns, orderItems, selectItems } from "../../../compiler/analyze/sql/clauses.js";
import { tableRefs } from "../../../compiler/analyze/sql/refs.js";
import { tokenize } from "../../../compiler/analyze/sql/tokens.js";

describe("tokenize", () => {
  test("strings, quoted names, comments, parameters and operators", () => {
    const sql = `SELECT 'it''s', "a ""b""", \`c\`, [d e] -- note 'x\n/* block @no */ FROM t WHERE x >= @p AND y <> ?2 || :n AND z = x'0A' AND w = 1.5e3`;
    expect(tokenize(sql).map((t) => [t.kind, t.value])).toEqual([
      ["word", "SELECT"],
      ["string", "'it''s'"],
      ["op", ","],
      ["quoted", 'a "b"'],
      ["op", ","],
      ["quoted", "c"],
      ["op", ","],
      ["quoted", "d e"],
      ["word", "FROM"],
      ["word", "T"],
      ["word", "WHERE"],
      ["word", "X"],
      ["op", ">="],
      ["param", "@p"],
      ["word", "AND"],
      ["word", "Y"],
      ["op", "<>"],
      ["param", "?2"],
      ["op", "||"],
      ["param", ":n"],
      ["word", "AND"],
      ["word", "Z"],
      ["op", "="],
      ["blob", "x'0A'"],
      ["word", "AND"],
      ["word", "W"],
      ["op", "="],
      ["number", "1.5e3"],
    ]);
  });

  test("offsets cover the token text and depth follows parentheses", () => {
    const sql = "a (b (c)) d";
    const ts = tokenize(sql);
    expect(ts.map((t) => sql.slice(t.start, t.end))).toEqual(ts.map((t) => t.text));
    expect(ts.map((t) => `${t.text}${t.depth}`)).toEqual(["a0", "(0", "b1", "(1", "c2", ")1", ")0", "d0"]);
  });

  test("unterminated strings and comments run to the end; stray characters are one-character tokens", () => {
    expect(tokenize("SELECT 'open").map((t) => t.text)).toEqual(["SELECT", "'open"]);
    expect(tokenize("SELECT 1 /* never closed").map((t) => t.text)).toEqual(["SELECT", "1"]);
    expect(tokenize("# ~ ))").map((t) => [t.text, t.depth])).toEqual([
      ["#", 0],
      ["~", 0],
      [")", 0],
      [")", 0],
    ]);
  });
});

describe("table references", () => {
  test("aliases, comma lists, and the nullable side of outer joins", () => {
    const refs = tableRefs(
      tokenize(
        "SELECT * FROM a AS x, b y LEFT JOIN c ON 1 JOIN d USING (id) RIGHT OUTER JOIN e ON 1 WHERE x IN (SELECT 1 FROM f)",
      ),
    );
    expect(refs.map((r) => [r.table, r.alias, r.nullable, r.scope === -1])).toEqual([
      ["a", "x", true, true],
      ["b", "y", true, true],
      ["c", null, true, true],
      ["d", null, true, true],
      ["e", null, false, true],
      ["f", null, false, false],
    ]);
  });

  test("INSERT INTO t (columns), UPDATE, subqueries and table functions", () => {
    expect(tableRefs(tokenize("INSERT INTO task (id, title) VALUES (1, 2)")).map((r) => [r.table, r.alias])).toEqual([
      ["task", null],
    ]);
    expect(tableRefs(tokenize("UPDATE OR IGNORE main.task SET x = 1")).map((r) => r.table)).toEqual(["task"]);
    expect(tableRefs(tokenize("SELECT * FROM (SELECT 1) s, json_each(@j) j")).map((r) => [r.table, r.alias])).toEqual([
      [null, "s"],
      [null, "j"],
    ]);
  });
});

describe("clauses", () => {
  const where = (sql: string) => {
    const ts = tokenize(sql);
    return clauseTokens(
      ts,
      ts.findIndex((t) => t.value === "WHERE"),
    );
  };

  test("equality columns come only from top-level AND conjuncts", () => {
    expect(
      equalityColumns(where("SELECT 1 FROM t WHERE a = 1 AND @x = t.b AND c > 2 AND d BETWEEN 1 AND 2 AND e == @e ORDER BY a")),
    ).toEqual([
      { qualifier: null, column: "a" },
      { qualifier: "t", column: "b" },
      { qualifier: null, column: "e" },
    ]);
    expect(equalityColumns(where("SELECT 1 FROM t WHERE a = 1 OR b = 2"))).toEqual([]);
    expect(equalityColumns(where("SELECT 1 FROM t WHERE (@s IS NULL OR s = @s) AND k = 1"))).toEqual([
      { qualifier: null, column: "k" },
    ]);
  });

  test("ORDER BY items with directions; an expression makes them unnamed", () => {
    const order = (sql: string) => {
      const ts = tokenize(sql);
      return orderItems(
        clauseTokens(
          ts,
          ts.findIndex((t) => t.value === "BY"),
        ),
      );
    };
    expect(order("SELECT 1 FROM t ORDER BY created_at DESC, t.id ASC NULLS LAST LIMIT 3")).toEqual([
      { column: { qualifier: null, column: "created_at" }, desc: true },
      { column: { qualifier: "t", column: "id" }, desc: false },
    ]);
    expect(order("SELECT 1 FROM t ORDER BY lower(name)")).toBeNull();
    expect(order("SELECT 1 FROM t ORDER BY name COLLATE NOCASE")).toBeNull();
  });

  test("select items: aliases with and without AS, stars, plain columns", () => {
    const sql = "SELECT DISTINCT t.*, *, a, b AS bee, count(*) n, CASE WHEN x THEN 1 END flag, 'lit' FROM t";
    const ts = tokenize(sql);
    const items = selectItems(ts, 0);
    expect(items.map((it) => [sql.slice(it.start, it.end), it.alias, it.star, it.column])).toEqual([
      ["t.*", null, { qualifier: "t" }, null],
      ["*", null, { qualifier: null }, null],
      ["a", null, null, { qualifier: null, column: "a" }],
      ["b AS bee", "bee", null, { qualifier: null, column: "b" }],
      ["count(*) n", "n", null, null],
      ["CASE WHEN x THEN 1 END flag", "flag", null, null],
      ["'lit'", null, null, null],
    ]);
  });
});
