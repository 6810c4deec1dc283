// The parser's scan of a SQL body and analysis's tokens come from one lexer
// (compiler/parse/sql-lex.ts): they agree on what is code.

import { describe, expect, test } from "../../support/jest.js";
import { tokenize } from "../../../compiler/analyze/sql/tokens.js";
import { scanSqlBody } from "../../../compiler/parse/sql-scan.js";

function scan(body: string) {
  const text = `query q() {${body}}\nquery r() { SELECT 1 }\n`;
  const s = scanSqlBody(text, text.indexOf("{"));
  return { ...s, body: text.slice(s.textStart, s.textEnd), names: s.params.map((p) => p.name) };
}

describe("one SQL lexer for the parser and analysis", () => {
  test("braces inside strings, quoted names and comments do not end the body", () => {
    const body = ` SELECT '}', "}", \`}\`, [}] -- }\n /* } */ FROM t `;
    const s = scan(body);
    expect(s.terminated).toBe(true);
    expect(s.body).toBe(body);
    // Analysis sees the same four quoted runs and no brace.
    expect(tokenize(body).filter((t) => t.text === "}")).toEqual([]);
  });

  test("nested braces balance", () => {
    expect(scan(" SELECT json_object('a', 1) /* { */ FROM t WHERE x = '{' ").terminated).toBe(true);
  });

  test("@name: ASCII names only, @@name is a system variable, and the lexer's tokens agree", () => {
    const body = " SELECT @a, @b$c, @@version, @1x, @_d FROM t ";
    expect(scan(body).names).toEqual(["a", "b", "_d"]);
    expect(tokenize(body).filter((t) => t.kind === "param").map((t) => t.text)).toEqual(["@a", "@b$c", "@@version", "@1x", "@_d"]);
  });

  test("a [ that nothing closes is an operator, not a quoted name running to the end", () => {
    const s = scan(" SELECT tags[1 FROM t ");
    expect(s.terminated).toBe(true);
    expect(tokenize("SELECT tags[1 FROM t").map((t) => t.text)).toEqual(["SELECT", "tags", "[", "1", "FROM", "t"]);
    expect(tokenize("SELECT [a b] FROM t")[1]).toMatchObject({ kind: "quoted", value: "a b" });
  });

  test("an unterminated string is cut before the next declaration", () => {
    const text = "query q() { SELECT 'open }\nquery r() { SELECT 1 }\n";
    const s = scanSqlBody(text, text.indexOf("{"));
    expect(s.terminated).toBe(false);
    expect(text.slice(s.end)).toBe("\nquery r() { SELECT 1 }\n");
  });
});
