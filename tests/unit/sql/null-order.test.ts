// null-order.ts and divisions.ts: what svc writes into PostgreSQL's and MySQL's SQL so that
// ORDER BY places NULL and `/` divides ints as SQLite does. tests/backends/portability.test.ts
// runs both on the three servers.
import { describe, expect, test } from "../../support/jest.js";
import { bindParams } from "../../../compiler/analyze/sql/params.js";
import { createSqliteChecker } from "../../../compiler/analyze/sql/sqlite/check.js";
import type { ResourceShape } from "../../../compiler/analyze/sql/ddl/index.js";
import { field, sqlBody } from "./fixtures.js";

const item: ResourceShape = {
  module: "m",
  name: "item",
  doc: null,
  primaryKey: ["id"],
  fields: [field("id", "id"), field("name", "text"), field("note", "text", { nullable: true }), field("qty", "int"), field("price", "float")],
  indexes: [],
};
const sale: ResourceShape = { ...item, name: "sale", fields: [field("id", "id"), field("item", "text"), field("n", "int")] };

/** The SQL per dialect as a query of these resources is written, the checker's findings included. */
function dialects(sql: string) {
  const body = sqlBody(sql);
  const checker = createSqliteChecker([item, sale]);
  const checked = checker.check({ file: "m.svc", body, params: [], kind: "query", name: "q" });
  checker.dispose();
  expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return bindParams(body, undefined, undefined, checked.jsonValues, [item, sale]).dialects;
}

describe("NULL's place in ORDER BY on PostgreSQL", () => {
  test("a nullable key gets SQLite's placement; a NOT NULL column is left as written", () => {
    const d = dialects("SELECT name, note FROM item ORDER BY note, name, note DESC, qty DESC");
    expect(d.postgres.text).toBe("SELECT name, note FROM item ORDER BY note NULLS FIRST, name, note DESC NULLS LAST, qty DESC");
    expect(d.sqlite.text).toBe("SELECT name, note FROM item ORDER BY note, name, note DESC, qty DESC");
    expect(d.mysql.text).toBe(d.sqlite.text);
  });

  test("expressions, aliases, the nullable side of a LEFT JOIN, windows and aggregates", () => {
    const d = dialects(
      "SELECT i.name, s.n, max(s.n) OVER (PARTITION BY i.name ORDER BY s.n) AS top, lower(i.name) AS low, " +
        "json_group_array(i.note ORDER BY i.note DESC) AS notes " +
        "FROM item i LEFT JOIN sale s ON s.item = i.id GROUP BY i.name, s.n ORDER BY s.n, low, i.name ASC, lower(i.name) LIMIT 5",
    );
    expect(d.postgres.text).toContain("OVER (PARTITION BY i.name ORDER BY s.n NULLS FIRST)");
    expect(d.postgres.text).toContain("json_agg(i.note ORDER BY i.note DESC NULLS LAST)");
    expect(d.postgres.text).toContain("ORDER BY s.n NULLS FIRST, low NULLS FIRST, i.name ASC, lower(i.name) NULLS FIRST LIMIT 5");
  });

  test("a key that says NULLS FIRST or LAST is left as written", () => {
    expect(dialects("SELECT name FROM item ORDER BY note NULLS LAST").postgres.text).toBe("SELECT name FROM item ORDER BY note NULLS LAST");
  });
});

describe("`/` of two ints on MySQL", () => {
  test("is DIV where both operands are ints, `/` elsewhere", () => {
    const d = dialects(
      "SELECT qty / 2 AS half, price / 2 AS a, qty / 2.0 AS b, (qty + 1) / -2 AS c, abs(qty) / qty AS d, 3 * qty / 2 AS e, " +
        "qty * price / 2 AS f, CASE WHEN qty > 0 THEN qty ELSE 1 END / 2 AS g FROM item",
    );
    expect(d.mysql.text).toBe(
      "SELECT qty DIV 2 AS half, price / 2 AS a, qty / 2.0 AS b, (qty + 1) DIV -2 AS c, abs(qty) DIV qty AS d, 3 * qty DIV 2 AS e, " +
        "qty * price / 2 AS f, CASE WHEN qty > 0 THEN qty ELSE 1 END DIV 2 AS g FROM item",
    );
    expect(d.postgres.text).toContain("SELECT qty / 2 AS half");
    expect(d.sqlite.text).toContain("SELECT qty / 2 AS half");
  });
});

describe("length() on MySQL", () => {
  test("counts characters: CHAR_LENGTH", () => {
    const d = dialects("SELECT length(name) AS n FROM item");
    expect(d.mysql.text).toBe("SELECT CHAR_LENGTH(name) AS n FROM item");
    expect(d.postgres.text).toBe("SELECT length(name) AS n FROM item");
  });
});
