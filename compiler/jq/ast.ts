// The AST of a jq program. The parser accepts all of jq 1.7's syntax, so that valid jq
// outside the compiled subset is told apart from a syntax error; the emitter decides what
// compiles (everything else runs on jq-web).

import type { Span } from "../parse/ast.js";

export type JqNode =
  | { kind: "Identity"; span: Span }
  | { kind: "RecurseAll"; span: Span }
  | { kind: "Number"; value: number; text: string; span: Span }
  | { kind: "String"; format: string | null; parts: StringPart[]; span: Span }
  | { kind: "Format"; name: string; span: Span }
  | { kind: "Var"; name: string; span: Span }
  | { kind: "Loc"; span: Span }
  | { kind: "Index"; target: JqNode; key: JqNode; optional: boolean; span: Span }
  | { kind: "Slice"; target: JqNode; from: JqNode | null; to: JqNode | null; optional: boolean; span: Span }
  | { kind: "Iterate"; target: JqNode; optional: boolean; span: Span }
  | { kind: "Pipe"; left: JqNode; right: JqNode; span: Span }
  | { kind: "Comma"; left: JqNode; right: JqNode; span: Span }
  | { kind: "Binary"; op: BinaryOp; left: JqNode; right: JqNode; span: Span }
  | { kind: "Assign"; op: string; left: JqNode; right: JqNode; span: Span }
  | { kind: "Neg"; operand: JqNode; span: Span }
  | { kind: "Array"; body: JqNode | null; span: Span }
  | { kind: "Object"; entries: ObjectEntry[]; span: Span }
  | { kind: "If"; cond: JqNode; then: JqNode; else: JqNode | null; span: Span }
  | { kind: "Try"; body: JqNode; handler: JqNode | null; span: Span }
  | { kind: "Reduce"; source: JqNode; pattern: Pattern; init: JqNode; update: JqNode; span: Span }
  | { kind: "Foreach"; source: JqNode; pattern: Pattern; init: JqNode; update: JqNode; extract: JqNode | null; span: Span }
  | { kind: "As"; source: JqNode; patterns: Pattern[]; body: JqNode; span: Span }
  | { kind: "Label"; name: string; body: JqNode; span: Span }
  | { kind: "Break"; name: string; span: Span }
  | { kind: "FuncDef"; name: string; params: string[]; body: JqNode; rest: JqNode; span: Span }
  | { kind: "Call"; name: string; args: JqNode[]; span: Span }
  | { kind: "Module"; what: string; span: Span };

export type BinaryOp = "+" | "-" | "*" | "/" | "%" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "and" | "or" | "//";

export type StringPart = { text: string } | { expr: JqNode };

export interface ObjectEntry {
  /** A constant key, a `$var` key (the variable's value), or a computed key. */
  key: { kind: "const"; name: string } | { kind: "var"; name: string } | { kind: "expr"; expr: JqNode };
  /** Null for the shorthands `{a}`, `{"a"}`, `{$x}`, `{$__loc__}`. */
  value: JqNode | null;
  span: Span;
}

export type Pattern =
  | { kind: "VarPattern"; name: string; span: Span }
  | { kind: "ArrayPattern"; elements: Pattern[]; span: Span }
  | { kind: "ObjectPattern"; names: string[]; span: Span };
