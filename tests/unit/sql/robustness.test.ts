import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import type { SqlChecker } from "../../../compiler/analyze/sql/dialect.js";
import { createSqliteChecker } from "../../../compiler/analyze/sql/sqlite/check.js";
import { checkSql } from "./checking.js";
import { param, taskResource } from "./fixtures.js";

let checker: SqlChecker;
beforeAll(() => {
  checker = createSqliteChecker([taskResource()]);
});
afterAll(() => checker.dispose());

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const PIECES = [
  "SELECT",
  "*",
  "FROM",
  "task",
  "WHERE",
  "(",
  ")",
  "'",
  '"',
  "`",
  "[",
  "--",
  "/*",
  "@id",
  "?",
  ";",
  ",",
  "=",
  "ORDER BY",
  "id",
  "LEFT JOIN",
  "ON",
  "x",
  "\n",
  "count(",
  "AS",
  "1",
];

describe("bad input never crashes the checker", () => {
  test("random token soup yields a result and every diagnostic has a span inside the body", () => {
    const next = random(42);
    for (let n = 0; n < 300; n++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 12) }, () => PIECES[Math.floor(next() * PIECES.length)]).join(
        " ",
      );
      const r = checkSql(checker, text, [param("id", "id")], next() < 0.5 ? "query" : "statement");
      for (const d of r.diagnostics) {
        expect(d.span).not.toBeNull();
        expect(d.span!.start.offset).toBeGreaterThanOrEqual(r.body.span.start.offset);
        expect(d.span!.end.offset).toBeLessThanOrEqual(r.body.span.end.offset);
      }
    }
  });
});
