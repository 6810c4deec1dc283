import { describe, expect, test } from "../../support/jest.js";
import type { ActionDecl, ResourceDecl, WebhookDecl } from "../../../compiler/parse/ast.js";
import type { Diagnostic } from "../../../compiler/diagnostics/diagnostic.js";
import { parseModule, parseRouteFile } from "../../../compiler/parse/index.js";

const broken = `module m

resource task {
  id: id
  title text
  done: bool
}

action a(x: int) {
  let y = x +
  if y == 2 { fail "no" }
  return y
}

garbage here

query q(x: int) { SELECT @x }
route GET "/x" => a
webhook w { provider: "github" secret "x", path: "/p" }
`;

describe("error recovery", () => {
  const { ast, diagnostics } = parseModule("broken.svc", broken);

  test("each separate error gets its own diagnostic, in source order", () => {
    expect(diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([
      ["SVC1001", 5],
      ["SVC1001", 11],
      ["SVC1001", 15],
      ["SVC1001", 19],
    ]);
    expect(diagnostics.every((d) => d.severity === "error" && d.file === "broken.svc")).toBe(true);
  });

  test("messages name what was found and what was expected in plain words", () => {
    expect(diagnostics.map((d) => d.message)).toEqual([
      'expected a field, index or drop, or "}", found name "title"',
      'expected an expression, found keyword "if"',
      'expected a declaration (resource, query, action, fn, type, route or webhook), found name "garbage"',
      'expected an entry `name: value`, or "}", found name "secret"',
    ]);
    expect(diagnostics[2].hint).toMatch(/resource, query, action/);
  });

  test("the good parts survive: later declarations, later fields, later statements and entries", () => {
    expect(ast.module?.name).toBe("m");
    expect(ast.decls.map((d) => d.kind)).toEqual(["Resource", "Action", "Query", "Route", "Webhook"]);
    expect((ast.decls[0] as ResourceDecl).fields.map((f) => f.name.name)).toEqual(["id", "done"]);
    expect((ast.decls[1] as ActionDecl).body.stmts.map((s) => s.kind)).toEqual(["If", "Return"]);
    expect((ast.decls[4] as WebhookDecl).fields.map((f) => f.key.name)).toEqual(["provider", "path"]);
  });

  test("a missing closing parenthesis does not hide the next declaration", () => {
    const result = parseModule("t.svc", "module m\nquery q(x: int { SELECT 1 }\naction b() { return 1 }");
    expect(result.diagnostics.map((d) => [d.code, d.message])).toContainEqual(["SVC1001", 'expected ")", found "{"']);
    expect(result.ast.decls.map((d) => d.kind)).toContain("Action");
  });

  test("unterminated strings and SQL bodies are reported and parsing goes on", () => {
    const text = 'module m\naction a() { let s = "abc\n return s }\nquery q() { SELECT (\nroute GET "/" => a\n';
    const result = parseModule("t.svc", text);
    expect(result.diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([
      ["SVC1002", 2],
      ["SVC1003", 4],
    ]);
    expect(result.ast.decls.map((d) => d.kind)).toEqual(["Action", "Query", "Route"]);
  });

  test("an if without its condition says so, and the statements after it survive", () => {
    const result = parseModule("t.svc", 'module m\naction a() {\n  if { fail "x" }\n  return 1\n}');
    expect(result.diagnostics.map((d) => [d.code, d.message, d.span?.start.line, d.span?.start.column])).toEqual([
      ["SVC1001", 'expected a condition, found "{"', 3, 6],
    ]);
    expect((result.ast.decls[0] as ActionDecl).body.stmts.map((s) => s.kind)).toEqual(["Return"]);
  });

  test("a keyword where a name belongs gets a hint", () => {
    const result = parseModule("t.svc", "module m\naction a() { let if = 1 }");
    expect(result.diagnostics[0]).toMatchObject({ code: "SVC1001", message: 'expected a name, found keyword "if"' });
    expect(result.diagnostics[0].hint).toMatch(/reserved/);
  });
});

/** Every diagnostic points at real positions: NaN would mean a recovery token leaked into a span. */
function expectFiniteSpans(diagnostics: Diagnostic[]): void {
  for (const d of diagnostics) {
    if (d.span === null) continue;
    const numbers = [d.span.start, d.span.end].flatMap((p) => [p.offset, p.line, p.column]);
    expect(numbers.every(Number.isFinite)).toBe(true);
  }
}

describe("hostile input never throws and never hangs", () => {
  // A fixed-seed generator: the same garbage on every run.
  function random(seed: number): () => number {
    let s = seed;
    return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  }

  test("binary garbage", () => {
    const next = random(7);
    for (const size of [1, 17, 500, 20000]) {
      const text = String.fromCharCode(...Array.from({ length: Math.min(size, 50000) }, () => Math.floor(next() * 256)));
      for (const parse of [parseModule, parseRouteFile]) {
        const { ast, diagnostics } = parse("bin.svc", text);
        expect(ast.span.end.offset).toBe(text.length);
        expect(diagnostics.length).toBeGreaterThan(0);
        expect(diagnostics.length).toBeLessThanOrEqual(51);
        expect(diagnostics.map((d) => d.code)).not.toContain("SVC1099");
        expectFiniteSpans(diagnostics);
      }
    }
  });

  test("token soup made of the language's own words", () => {
    const words = [
      "{", "}", "(", ")", "[", "]", "resource", "query", "action", "route", "webhook", "x", ":", "=", "=>",
      "if", "else", '"s"', '"', "1", "2.5", ",", ".", "get", "insert", "update", "delete", "not", "-", "+",
      "==", "<", "sql", "return", "fail", "let", "one", "index", "unique", "requires", "role", "\n", "@a", "?",
    ];
    const next = random(11);
    for (let round = 0; round < 30; round++) {
      const text = Array.from({ length: 40 + round * 20 }, () => words[Math.floor(next() * words.length)]).join(" ");
      for (const parse of [parseModule, parseRouteFile]) {
        const { ast, diagnostics } = parse("soup.svc", text);
        expect(diagnostics.map((d) => d.code)).not.toContain("SVC1099");
        expectFiniteSpans(diagnostics);
        // JSON turns NaN into null: no position in the partial AST may be NaN either.
        expect(JSON.stringify(ast)).not.toMatch(/"(offset|line|column)":null/);
      }
    }
  });

  test("a file of only unbalanced braces or parentheses", () => {
    for (const text of ["{".repeat(5000), "}".repeat(5000), "(".repeat(5000), "query q(".repeat(2000)]) {
      const { diagnostics } = parseModule("deep.svc", text);
      expect(diagnostics.length).toBeGreaterThan(0);
      expect(diagnostics.map((d) => d.code)).not.toContain("SVC1099");
    }
  });

  test("nesting deep enough to exhaust the stack is a diagnostic, and the parser still works after it", () => {
    const deep = `module m\naction a() { return ${"(".repeat(20000)}1${")".repeat(20000)} }`;
    const { diagnostics } = parseModule("deep.svc", deep);
    expect(diagnostics.map((d) => d.code)).toEqual(["SVC1013"]);
    const fine = parseModule("ok.svc", "module m\naction a() { return ((1)) }");
    expect(fine.diagnostics).toEqual([]);
    expect(fine.ast.decls).toHaveLength(1);
  });

  test("so many errors that the list is cut, with one diagnostic saying so", () => {
    const { diagnostics } = parseModule("many.svc", "module m\n" + "resource ;\n".repeat(200));
    expect(diagnostics.length).toBeLessThanOrEqual(51);
    expect(diagnostics.filter((d) => d.code === "SVC1012")).toHaveLength(1);
    expect(diagnostics.at(-1)).toMatchObject({ code: "SVC1012" });
    expect(diagnostics.at(-1)?.message).toBe(`too many syntax errors; only the first ${diagnostics.length - 1} are listed`);
  });
});

describe("an object spread is one error (SVC7110), not a cascade of syntax errors", () => {
  test("in a module route's respond: one diagnostic, and the next declaration still parses", () => {
    const { ast, diagnostics } = parseModule("m.svc", 'module m\nroute GET "/x" => q respond { ...result }\nroute GET "/y" => q\n');
    expect(diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column, d.span?.end.column])).toEqual([["SVC7110", 2, 31, 40]]);
    expect(diagnostics[0].message).toBe("`...result` (spreading a value into an object) is not part of svc");
    expect(diagnostics[0].hint).toMatch(/result\.member/);
    expect(ast.decls.map((d) => d.kind)).toEqual(["Route", "Route"]);
  });

  test("in a route-file block, between entries, and with two dots: the entries around it are kept", () => {
    const { ast, diagnostics } = parseRouteFile("app/x/route.svc", "GET {\n  respond { a: 1, ...records, b: 2 }\n}\nPOST { respond { ..result.x } }\n");
    expect(diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([["SVC7110", 2], ["SVC7110", 4]]);
    expect(diagnostics[1].message).toMatch(/^`\.\.\.result\.x`/);
    const respond = ast.blocks[0].steps[0];
    expect(respond.kind === "Respond" && respond.body?.kind === "Object" ? respond.body.entries.map((e) => e.key.name) : null).toEqual(["a", "b"]);
  });
});
