import { describe, expect, test } from "../../support/jest.js";
import { buildLexer, tokenize } from "../../../compiler/parse/lexer.js";
import { PositionMap } from "../../../compiler/parse/positions.js";
import type { SqlScan } from "../../../compiler/parse/sql-scan.js";

function lex(text: string, kind: "module" | "route" = "module") {
  return tokenize(kind, "test.svc", text, new PositionMap(text));
}

function kinds(text: string, kind: "module" | "route" = "module"): string[] {
  return lex(text, kind).tokens.map((t) => `${t.tokenType.name}:${t.image}`);
}

describe("lexer", () => {
  test("the validated lexer accepts every token definition and lexes a file", () => {
    const lexer = buildLexer({ validate: true });
    expect(lexer.lexerDefinitionErrors).toEqual([]);
    const result = lexer.tokenize("module m\nquery q() { SELECT 1 }\n", "module");
    expect(result.errors).toEqual([]);
    expect(result.tokens.map((t) => t.tokenType.name)).toEqual([
      "Module", "Identifier", "Query", "Identifier", "LParen", "RParen", "SqlBody",
    ]);
  });

  test("keywords are whole words: identifiers that start with one stay identifiers", () => {
    expect(kinds("get get_task index indexes one oneself delete deleted null nullable")).toEqual([
      "Get:get", "Identifier:get_task", "Index:index", "Identifier:indexes", "One:one", "Identifier:oneself",
      "Delete:delete", "Identifier:deleted", "Null:null", "Identifier:nullable",
    ]);
  });

  test("keywords are case-sensitive, so HTTP methods are identifiers", () => {
    expect(kinds("GET POST DELETE delete")).toEqual([
      "Identifier:GET", "Identifier:POST", "Identifier:DELETE", "Delete:delete",
    ]);
  });

  test("operators take their longest form", () => {
    expect(kinds("=> == = != <= < >= > + - * / . , : ?").map((k) => k.split(":")[0])).toEqual([
      "Arrow", "EqEq", "Equals", "NotEq", "LtEq", "Lt", "GtEq", "Gt", "Plus", "Minus", "Star", "Slash", "Dot",
      "Comma", "Colon", "Question",
    ]);
  });

  test("numbers: whole numbers and decimals", () => {
    expect(kinds("42 3.25 1e3 7")).toEqual(["IntLiteral:42", "FloatLiteral:3.25", "FloatLiteral:1e3", "IntLiteral:7"]);
  });

  test("# and // comments run to the end of the line and produce no tokens", () => {
    expect(kinds("a # b c\nd // e f\ng")).toEqual(["Identifier:a", "Identifier:d", "Identifier:g"]);
  });

  test("/// doc comments are kept apart from the tokens; //// is a plain comment", () => {
    const result = lex("/// one\n///two\n//// not a doc\nresource r {}");
    expect(result.docs.map((t) => t.image)).toEqual(["/// one", "///two"]);
    expect(result.tokens.map((t) => t.image)).toEqual(["resource", "r", "{", "}"]);
  });

  test("strings keep their quotes in the token; an unclosed one is an error at its opening quote", () => {
    const closed = lex('"a \\" b"');
    expect(closed.tokens.map((t) => t.tokenType.name)).toEqual(["ClosedString"]);
    expect(closed.diagnostics).toEqual([]);
    const open = lex('x = "abc\ny');
    expect(open.tokens.map((t) => `${t.tokenType.name}:${t.image}`)).toEqual([
      "Identifier:x", "Equals:=", 'UnterminatedString:"abc', "Identifier:y",
    ]);
    expect(open.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([["SVC1002", 1, 5]]);
  });

  test("invalid characters are reported with their position and the lexer goes on", () => {
    const result = lex("a ; b\n  @c");
    expect(result.tokens.map((t) => t.image)).toEqual(["a", "b", "c"]);
    expect(result.diagnostics.map((d) => [d.code, d.message, d.span?.start.line, d.span?.start.column])).toEqual([
      ["SVC1004", 'unexpected character ";"', 1, 3],
      ["SVC1004", 'unexpected character "@"', 2, 3],
    ]);
    expect(result.diagnostics[1].hint).toMatch(/SQL/);
  });
});

describe("SQL bodies", () => {
  function sqlTokens(text: string) {
    return lex(text).tokens.filter((t) => t.tokenType.name === "SqlBody");
  }

  test("a body follows a query's parameter list, `one`, and `sql`; other braces stay braces", () => {
    const text = "query q(a: int) one { SELECT 1 }\naction b() { sql { DELETE FROM t } return { x: 1 } }";
    expect(sqlTokens(text).map((t) => t.image)).toEqual(["{ SELECT 1 }", "{ DELETE FROM t }"]);
    expect(kinds(text).filter((k) => k === "LBrace:{")).toHaveLength(2);
  });

  test("a query whose name is a keyword still gets a body; a route file never has one", () => {
    expect(sqlTokens("query index() { SELECT 1 }").map((t) => t.image)).toEqual(["{ SELECT 1 }"]);
    expect(kinds("GET { query m.q { a: 1 } }", "route")).not.toContain("SqlBody:{ a: 1 }");
  });

  test("braces balance, and braces inside strings and comments do not count", () => {
    const body = `{
  SELECT json_object('a', '{') AS "x}y", '}}' -- }
  FROM t /* { */ WHERE a = '{ @not_a_param }' AND b IN (SELECT { } )
}`;
    const [token] = sqlTokens(`query q() ${body}\nquery r() { SELECT 2 }`);
    expect(token.image).toBe(body);
  });

  test("a doubled quote escapes the quote inside SQL strings", () => {
    const [token] = sqlTokens("query q() { SELECT 'it''s }' , @a }");
    expect(token.image).toBe("{ SELECT 'it''s }' , @a }");
    expect((token.payload as SqlScan).params.map((p) => p.name)).toEqual(["a"]);
  });

  test("@name parameters are found with their offsets, skipping strings, comments and @@vars", () => {
    const text = "query q(a: int) { SELECT @a, '@b', @@version -- @c\n /* @d */ FROM t WHERE x = @e_2 }";
    const [token] = sqlTokens(text);
    const scan = token.payload as SqlScan;
    expect(scan.params.map((p) => [p.name, text.slice(p.offset, p.offset + p.name.length + 1)])).toEqual([
      ["a", "@a"],
      ["e_2", "@e_2"],
    ]);
  });

  test("an unterminated body is one diagnostic at its brace, cut before the next declaration", () => {
    const text = "query q() { SELECT '}' \nWHERE a = 1\naction b() { return 1 }";
    const result = lex(text);
    const [token] = result.tokens.filter((t) => t.tokenType.name === "SqlBody");
    expect(token.image).toBe("{ SELECT '}' \nWHERE a = 1");
    expect((token.payload as SqlScan).terminated).toBe(false);
    expect(result.tokens.map((t) => t.image).slice(-8)).toEqual(["action", "b", "(", ")", "{", "return", "1", "}"]);
    expect(result.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([["SVC1003", 1, 11]]);
  });

  test("an unterminated body with nothing after it runs to the end of the file", () => {
    const result = lex("query q() { SELECT (");
    expect(result.tokens.at(-1)?.image).toBe("{ SELECT (");
    expect(result.diagnostics.map((d) => d.code)).toEqual(["SVC1003"]);
  });
});
