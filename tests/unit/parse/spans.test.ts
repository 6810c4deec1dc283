import { describe, expect, test } from "../../support/jest.js";
import type { ActionDecl, IfStmt, LetStmt, QueryDecl, ResourceDecl, ReturnStmt } from "../../../compiler/parse/ast.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { PositionMap } from "../../../compiler/parse/positions.js";
import { parseClean, textAt } from "./helpers.js";

const source = `module m

/// Tasks.
resource task {
  title: text?
}

action start(id: id) {
  let t = get task(id)
  if t.status != "open" { fail 409 "busy" }
  return update task(id) { status: "started" }
}

query q(a: int) {
  SELECT @a
}
`;

describe("spans", () => {
  const ast = parseClean(source);
  const resource = ast.decls[0] as ResourceDecl;
  const action = ast.decls[1] as ActionDecl;
  const query = ast.decls[2] as QueryDecl;

  test("positions are 1-based lines and columns with 0-based offsets; ends are exclusive", () => {
    expect(ast.module?.span).toEqual({
      start: { offset: 7, line: 1, column: 8 },
      end: { offset: 8, line: 1, column: 9 },
    });
    expect(ast.span.start).toEqual({ offset: 0, line: 1, column: 1 });
    expect(ast.span.end.offset).toBe(source.length);
  });

  test("a declaration spans its keyword to its closing brace, not its doc comment", () => {
    expect(resource.span.start).toMatchObject({ line: 4, column: 1 });
    expect(resource.span.end).toMatchObject({ line: 6, column: 2 });
    expect(textAt(source, resource.span)).toMatch(/^resource task \{[\s\S]*\}$/);
  });

  test("fields, types and names", () => {
    const field = resource.fields[0];
    expect(textAt(source, field.span)).toBe("title: text?");
    expect(textAt(source, field.type.span)).toBe("text?");
    expect(field.name.span.start).toMatchObject({ line: 5, column: 3 });
  });

  test("statements and expressions", () => {
    const [letStmt, ifStmt, ret] = action.body.stmts as [LetStmt, IfStmt, ReturnStmt];
    expect(textAt(source, letStmt.span)).toBe("let t = get task(id)");
    expect(textAt(source, letStmt.value.span)).toBe("get task(id)");
    expect(ifStmt.span.start).toMatchObject({ line: 10, column: 3 });
    expect(textAt(source, ifStmt.cond.span)).toBe('t.status != "open"');
    expect(textAt(source, ifStmt.then.span)).toBe('{ fail 409 "busy" }');
    const fail = ifStmt.then.stmts[0];
    expect(fail.kind === "Fail" && textAt(source, fail.status!.span)).toBe("409");
    expect(textAt(source, ret.span)).toBe('return update task(id) { status: "started" }');
    expect(textAt(source, action.body.span)).toMatch(/^\{\n  let[\s\S]*\}$/);
  });

  test("member and binary expressions span from their first to their last token", () => {
    const cond = (action.body.stmts[1] as IfStmt).cond;
    if (cond.kind !== "Binary" || cond.left.kind !== "Member") throw new Error("unexpected shape");
    expect(textAt(source, cond.left.span)).toBe("t.status");
    expect(cond.left.property.span.start).toMatchObject({ line: 10, column: 8 });
  });

  test("parenthesized expressions include their parentheses", () => {
    const text = "module m\naction a() { return (1 + 2) * 3 }";
    const ret = (parseClean(text).decls[0] as ActionDecl).body.stmts[0] as ReturnStmt;
    if (ret.value?.kind !== "Binary") throw new Error("unexpected shape");
    expect(textAt(text, ret.value.left.span)).toBe("(1 + 2)");
  });

  test("SQL text and @name spans point into the file", () => {
    expect(query.sql.span.start).toMatchObject({ line: 14, column: 18 });
    expect(query.sql.params[0].span).toMatchObject({ start: { line: 15, column: 10 }, end: { line: 15, column: 12 } });
  });

  test("diagnostics at the end of input point just after the last token", () => {
    const text = "module m\nresource r {\n  a: text";
    const { diagnostics } = parseModule("t.svc", text);
    expect(diagnostics.map((d) => [d.code, d.message, d.span?.start.line, d.span?.start.column])).toEqual([
      ["SVC1001", 'expected a field, index or drop, or "}", found end of file', 3, 10],
    ]);
    expect(diagnostics[0].hint).toMatch(/never closed/);
  });

  test("a byte order mark is whitespace, not an invalid character", () => {
    const ast = parseClean("\uFEFFmodule m\n/// Doc.\nroute GET \"/\" => a");
    expect(ast.module?.span.start).toMatchObject({ offset: 8, line: 1 });
    expect(ast.decls[0].doc).toBe("Doc.");
  });

  test("a CRLF file counts lines by \\n and keeps \\r out of names", () => {
    const text = "module m\r\nresource r {\r\n  a: text\r\n}\r\n";
    const r = parseClean(text).decls[0] as ResourceDecl;
    expect(r.fields[0].name.span.start).toMatchObject({ line: 3, column: 3 });
    expect(r.fields[0].type.name.name).toBe("text");
  });
});

describe("PositionMap", () => {
  test("maps offsets at line starts, line ends and past the end", () => {
    const map = new PositionMap("ab\ncd\n");
    expect(map.position(0)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(map.position(2)).toEqual({ offset: 2, line: 1, column: 3 });
    expect(map.position(3)).toEqual({ offset: 3, line: 2, column: 1 });
    expect(map.position(6)).toEqual({ offset: 6, line: 3, column: 1 });
    expect(map.position(99)).toEqual({ offset: 6, line: 3, column: 1 });
  });
});
