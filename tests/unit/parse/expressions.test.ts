import { describe, expect, test } from "../../support/jest.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { expressionOf, sexpr, statementsOf } from "./helpers.js";

const shape = (src: string) => sexpr(expressionOf(src));

describe("expression precedence", () => {
  test.each([
    ["a or b and c", "(or a (and b c))"],
    ["a and b or c", "(or (and a b) c)"],
    ["not a and b", "(and (not a) b)"],
    ["not a == b", "(not (== a b))"],
    ["not not a", "(not (not a))"],
    ["a == b and c != d", "(and (== a b) (!= c d))"],
    ["a + b == c * d", "(== (+ a b) (* c d))"],
    ["a < b + 1", "(< a (+ b 1))"],
    ["a + b * c", "(+ a (* b c))"],
    ["a * b + c", "(+ (* a b) c)"],
    ["-a * b", "(* (- a) b)"],
    ["- -a", "(- (- a))"],
    ["-a.b", "(- a.b)"],
    ["(a + b) * c", "(* (+ a b) c)"],
    ["a.b.c + d", "(+ a.b.c d)"],
    ["not a.ok or b", "(or (not a.ok) b)"],
  ])("%s", (src, expected) => {
    expect(shape(src)).toBe(expected);
  });
});

describe("associativity", () => {
  test.each([
    ["a - b - c", "(- (- a b) c)"],
    ["a / b / c", "(/ (/ a b) c)"],
    ["a + b - c + d", "(+ (- (+ a b) c) d)"],
    ["a or b or c", "(or (or a b) c)"],
    ["a and b and c", "(and (and a b) c)"],
  ])("%s is left-associative", (src, expected) => {
    expect(shape(src)).toBe(expected);
  });

  test("comparisons do not chain: a clear diagnostic, and the tree is still built", () => {
    const { ast, diagnostics } = parseModule("t.svc", "module m\naction a() { return a < b < c }");
    expect(diagnostics.map((d) => [d.code, d.span?.start.column])).toEqual([["SVC1007", 27]]);
    expect(diagnostics[0].hint).toMatch(/and/);
    expect(ast.decls).toHaveLength(1);
  });
});

describe("primaries", () => {
  test("literals", () => {
    expect(expressionOf('"a\\"b\\\\c\\nd\\te"')).toMatchObject({ kind: "String", value: 'a"b\\c\nd\te' });
    expect(expressionOf("42")).toMatchObject({ kind: "Int", value: 42 });
    expect(expressionOf("2.5")).toMatchObject({ kind: "Float", value: 2.5 });
    expect(expressionOf("true")).toMatchObject({ kind: "Bool", value: true });
    expect(expressionOf("false")).toMatchObject({ kind: "Bool", value: false });
    expect(expressionOf("null")).toMatchObject({ kind: "Null" });
  });

  test("an unknown escape is reported and the character kept", () => {
    const { ast, diagnostics } = parseModule("t.svc", 'module m\naction a() { return "a\\qb" }');
    expect(diagnostics.map((d) => [d.code, d.message, d.span?.start.column])).toEqual([
      ["SVC1006", "unknown escape sequence \\q in a string", 23],
    ]);
    expect(JSON.stringify(ast)).toContain('"value":"aqb"');
  });

  test("an integer too large to be exact is reported", () => {
    const { diagnostics } = parseModule("t.svc", "module m\naction a() { return 99999999999999999999 }");
    expect(diagnostics.map((d) => d.code)).toEqual(["SVC1011"]);
  });

  test("calls take named arguments (queries) and positional ones (built-ins)", () => {
    expect(shape("get_task(id: id, limit: 5)")).toBe("get_task(id: id, limit: 5)");
    expect(shape("coalesce(trim(a), lower(b),)")).toBe("coalesce(trim(a), lower(b))");
    expect(shape("now()")).toBe("now()");
    const call = expressionOf("list(query: q, status: s)");
    expect(call).toMatchObject({ kind: "Call", callee: { name: "list" }, args: [{ name: { name: "query" } }, { name: { name: "status" } }] });
  });

  test("object and array literals", () => {
    expect(shape("{ a: 1, b: [1, 2, 3], c: {} }")).toBe("{a: 1, b: [1, 2, 3], c: {}}");
    expect(shape("[]")).toBe("[]");
    expect(shape("{ a: 1\n b: 2 }")).toBe("{a: 1, b: 2}");
  });

  test("entries on one line need a comma", () => {
    const { diagnostics } = parseModule("t.svc", "module m\naction a() { return { a: 1 b: 2 } }");
    expect(diagnostics.map((d) => [d.code, d.span?.start.column, d.span?.end.column])).toEqual([["SVC1010", 27, 28]]);
  });

  test("record operations versus calls of names that start with a keyword", () => {
    expect(shape("get task(id)")).toBe("get task(id)");
    expect(expressionOf("get_task(id: id)").kind).toBe("Call");
    expect(shape("insert task { title: t, done: false }")).toBe("insert task {title: t, done: false}");
    expect(shape("update task(id) { status: \"done\" }")).toBe('update task(id) {status: "done"}');
    expect(shape("delete task(input.id)")).toBe("delete task(input.id)");
    expect(expressionOf("insert task { a: 1 }")).toMatchObject({ kind: "RecordOp", op: "insert", key: null });
    expect(expressionOf("get task(1)")).toMatchObject({ kind: "RecordOp", op: "get", fields: null });
  });

  test("contextual keywords are ordinary names in expressions", () => {
    expect(shape("role + query + one + index")).toBe("(+ (+ (+ role query) one) index)");
    expect(shape("x.delete.null")).toBe("x.delete.null");
  });

  test("an if condition ends before the block's brace, even after null or a member", () => {
    const [stmt] = statementsOf('if x == null { fail "none" }');
    expect(stmt).toMatchObject({ kind: "If", cond: { kind: "Binary", op: "==" }, then: { stmts: [{ kind: "Fail" }] } });
    const [member] = statementsOf("if task.done { return 1 }");
    expect(member).toMatchObject({ kind: "If", cond: { kind: "Member" }, then: { stmts: [{ kind: "Return" }] } });
  });
});
