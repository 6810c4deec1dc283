import { expect } from "../../support/jest.js";
import type { ActionDecl, Expr, ModuleFile, Stmt } from "../../../compiler/parse/ast.js";
import { parseModule } from "../../../compiler/parse/index.js";

/** Parses a module file that must have no diagnostics. */
export function parseClean(text: string): ModuleFile {
  const { ast, diagnostics } = parseModule("test.svc", text);
  expect(diagnostics).toEqual([]);
  return ast;
}

/** The statements of `action a() { … }` in a clean module. */
export function statementsOf(body: string): Stmt[] {
  const ast = parseClean(`module m\naction a() {\n${body}\n}\n`);
  return (ast.decls[0] as ActionDecl).body.stmts;
}

/** The expression `src`, parsed as `return src` in a clean module. */
export function expressionOf(src: string): Expr {
  const [stmt] = statementsOf(`return ${src}`);
  if (stmt.kind !== "Return" || !stmt.value) throw new Error(`not a return with a value: ${src}`);
  return stmt.value;
}

/** A compact, fully parenthesized rendering, so tests can assert tree shapes in one line. */
export function sexpr(e: Expr): string {
  switch (e.kind) {
    case "String":
      return JSON.stringify(e.value);
    case "Int":
    case "Float":
    case "Bool":
      return String(e.value);
    case "Null":
      return "null";
    case "Name":
      return e.name;
    case "Member":
      return `${sexpr(e.object)}.${e.property.name}`;
    case "Binary":
      return `(${e.op} ${sexpr(e.left)} ${sexpr(e.right)})`;
    case "Unary":
      return `(${e.op} ${sexpr(e.operand)})`;
    case "Call":
      return `${e.callee.name}(${e.args.map((a) => (a.name ? `${a.name.name}: ` : "") + sexpr(a.value)).join(", ")})`;
    case "Object":
      return `{${e.entries.map((x) => `${x.key.name}: ${sexpr(x.value)}`).join(", ")}}`;
    case "Array":
      return `[${e.items.map(sexpr).join(", ")}]`;
    case "RecordOp": {
      const key = e.key ? `(${sexpr(e.key)})` : "";
      const fields = e.fields ? ` {${e.fields.map((x) => `${x.key.name}: ${sexpr(x.value)}`).join(", ")}}` : "";
      return `${e.op} ${e.resource.name}${key}${fields}`;
    }
  }
}

/** The source text a span covers. */
export function textAt(text: string, span: { start: { offset: number }; end: { offset: number } }): string {
  return text.slice(span.start.offset, span.end.offset);
}
