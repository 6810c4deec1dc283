// CST → AST for expressions. Binary levels are parsed as flat lists (operand (op
// operand)*) and folded to the left here, which makes every operator left-associative.

import type { IToken } from "chevrotain";
import { answerCodes } from "../diagnostics/codes/answers.js";
import { parseCodes } from "../diagnostics/codes/parse.js";
import type {
  BinaryOp, CallArg, Expr, FloatLit, IntLit, ObjectEntry, ObjectExpr, RecordOpExpr, StringLit,
} from "./ast.js";
import { childrenSpan, ident, INCOMPLETE, keepComplete, need, tokenSpan, type BuildContext } from "./build-support.js";
import type {
  AdditiveCstChildren, AndExprCstChildren, ArrayLiteralCstChildren, CallArgCstChildren, ComparisonCstChildren,
  ExpressionCstChildren, MultiplicativeCstChildren, NameOrCallCstChildren, NotExprCstChildren,
  ObjectEntryCstChildren, ObjectLiteralCstChildren, ObjectSpreadCstChildren, ParenExprCstChildren, PostfixCstChildren,
  PrimaryCstChildren, RecordKeyCstChildren, RecordOpCstChildren, UnaryCstChildren,
} from "./cst.js";
import { parser } from "./parser.js";
import { ClosedString } from "./tokens.js";

const BaseVisitor = parser.getBaseCstVisitorConstructor<BuildContext, unknown>();

export class ExpressionBuilder extends BaseVisitor {
  expression(ctx: ExpressionCstChildren, c: BuildContext): Expr {
    return fold(c, ctx.operands.map((n) => this.andExpr(n.children, c)), ctx.operators);
  }

  andExpr(ctx: AndExprCstChildren, c: BuildContext): Expr {
    return fold(c, ctx.operands.map((n) => this.notExpr(n.children, c)), ctx.operators);
  }

  notExpr(ctx: NotExprCstChildren, c: BuildContext): Expr {
    if (!ctx.Not) return this.comparison(need(ctx.comparison).children, c);
    const operand = this.notExpr(need(ctx.operand).children, c);
    return { kind: "Unary", op: "not", operand, span: { start: tokenSpan(c, ctx.Not[0]).start, end: operand.span.end } };
  }

  comparison(ctx: ComparisonCstChildren, c: BuildContext): Expr {
    const operators = ctx.operators ?? [];
    if (operators.length > 1) {
      c.diagnostics.push(parseCodes.chainedComparison.at(c.file, tokenSpan(c, operators[1]), operators[1].image));
    }
    return fold(c, ctx.operands.map((n) => this.additive(n.children, c)), operators);
  }

  additive(ctx: AdditiveCstChildren, c: BuildContext): Expr {
    return fold(c, ctx.operands.map((n) => this.multiplicative(n.children, c)), ctx.operators);
  }

  multiplicative(ctx: MultiplicativeCstChildren, c: BuildContext): Expr {
    return fold(c, ctx.operands.map((n) => this.unary(n.children, c)), ctx.operators);
  }

  unary(ctx: UnaryCstChildren, c: BuildContext): Expr {
    if (!ctx.Minus) return this.postfix(need(ctx.postfix).children, c);
    const operand = this.unary(need(ctx.operand).children, c);
    return { kind: "Unary", op: "-", operand, span: { start: tokenSpan(c, ctx.Minus[0]).start, end: operand.span.end } };
  }

  postfix(ctx: PostfixCstChildren, c: BuildContext): Expr {
    let expr = this.primary(need(ctx.primary).children, c);
    for (const token of ctx.properties ?? []) {
      const property = ident(c, token);
      expr = { kind: "Member", object: expr, property, span: { start: expr.span.start, end: property.span.end } };
    }
    return expr;
  }

  primary(ctx: PrimaryCstChildren, c: BuildContext): Expr {
    if (ctx.StringLiteral) return stringLit(c, ctx.StringLiteral[0]);
    if (ctx.IntLiteral) return intLit(c, ctx.IntLiteral[0]);
    if (ctx.FloatLiteral) return floatLit(c, ctx.FloatLiteral[0]);
    if (ctx.True) return { kind: "Bool", value: true, span: tokenSpan(c, ctx.True[0]) };
    if (ctx.False) return { kind: "Bool", value: false, span: tokenSpan(c, ctx.False[0]) };
    if (ctx.Null) return { kind: "Null", span: tokenSpan(c, ctx.Null[0]) };
    if (ctx.nameOrCall) return this.nameOrCall(ctx.nameOrCall[0].children, c);
    if (ctx.parenExpr) return this.parenExpr(ctx.parenExpr[0].children, c);
    if (ctx.objectLiteral) return this.objectLiteral(ctx.objectLiteral[0].children, c);
    if (ctx.arrayLiteral) return this.arrayLiteral(ctx.arrayLiteral[0].children, c);
    if (ctx.recordOp) return this.recordOp(ctx.recordOp[0].children, c);
    throw INCOMPLETE;
  }

  nameOrCall(ctx: NameOrCallCstChildren, c: BuildContext): Expr {
    const callee = ident(c, need(ctx.callee));
    if (!ctx.LParen) return { kind: "Name", name: callee.name, span: callee.span };
    const args = (ctx.args ?? []).map((n) => this.callArg(n.children, c));
    return { kind: "Call", callee, args, span: childrenSpan(c, ctx) };
  }

  callArg(ctx: CallArgCstChildren, c: BuildContext): CallArg {
    const name = ctx.argName ? ident(c, ctx.argName[0]) : null;
    const value = this.expression(need(ctx.value).children, c);
    return { name, value, span: { start: (name ?? value).span.start, end: value.span.end } };
  }

  /** No node of its own: the inner expression, its span widened to the parentheses. */
  parenExpr(ctx: ParenExprCstChildren, c: BuildContext): Expr {
    const inner = this.expression(need(ctx.expression).children, c);
    return { ...inner, span: childrenSpan(c, ctx) };
  }

  objectLiteral(ctx: ObjectLiteralCstChildren, c: BuildContext): ObjectExpr {
    for (const spread of ctx.spreads ?? []) this.objectSpread(spread.children, c);
    const entries = keepComplete(ctx.entries, (n) => this.objectEntry(n.children, c));
    checkCommas(c, entries);
    return { kind: "Object", entries, span: childrenSpan(c, ctx) };
  }

  objectEntry(ctx: ObjectEntryCstChildren, c: BuildContext): ObjectEntry {
    const key = ident(c, need(ctx.key));
    const value = this.expression(need(ctx.value).children, c);
    return { key, value, span: { start: key.span.start, end: value.span.end } };
  }

  /** `...value`: reported once, and left out of the object (SVC7110). */
  objectSpread(ctx: ObjectSpreadCstChildren, c: BuildContext): void {
    const dots = ctx.dots ?? [];
    const value = ctx.value?.[0];
    if (dots.length === 0 || value === undefined) return;
    const start = c.positions.span(dots[0].startOffset, dots[0].startOffset).start;
    const valueSpan = childrenSpan(c, value.children);
    const written = c.text.slice(dots[dots.length - 1].endOffset! + 1, valueSpan.end.offset).trim();
    c.diagnostics.push(answerCodes.objectSpread.at(c.file, { start, end: valueSpan.end }, written));
  }

  arrayLiteral(ctx: ArrayLiteralCstChildren, c: BuildContext): Expr {
    const items = (ctx.items ?? []).map((n) => this.expression(n.children, c));
    return { kind: "Array", items, span: childrenSpan(c, ctx) };
  }

  recordOp(ctx: RecordOpCstChildren, c: BuildContext): RecordOpExpr {
    const op = need(ctx.op).image as RecordOpExpr["op"];
    const resource = ident(c, need(ctx.resource));
    const { key, keyFields } = op === "insert" ? { key: null, keyFields: null } : this.recordKey(need(ctx.key).children, c);
    const fields = op === "insert" || op === "update" ? this.objectLiteral(need(ctx.fields).children, c).entries : null;
    return { kind: "RecordOp", op, resource, key, keyFields, fields, span: childrenSpan(c, ctx) };
  }

  /** `(expr)`, or `(a: x, b: y)` naming the key fields. */
  recordKey(ctx: RecordKeyCstChildren, c: BuildContext): Pick<RecordOpExpr, "key" | "keyFields"> {
    if (ctx.named) return { key: null, keyFields: keepComplete(ctx.named, (n) => this.objectEntry(n.children, c)) };
    return { key: this.expression(need(ctx.expression).children, c), keyFields: null };
  }
}

function fold(c: BuildContext, operands: Expr[], operators: IToken[] = []): Expr {
  if (operands.length !== operators.length + 1) throw INCOMPLETE;
  let left = operands[0];
  for (let i = 0; i < operators.length; i++) {
    tokenSpan(c, operators[i]);
    const right = operands[i + 1];
    left = { kind: "Binary", op: operators[i].image as BinaryOp, left, right, span: { start: left.span.start, end: right.span.end } };
  }
  return left;
}

/** Commas are optional between entries on separate lines, required between entries on one line. */
function checkCommas(c: BuildContext, entries: ObjectEntry[]): void {
  for (let i = 1; i < entries.length; i++) {
    const prev = entries[i - 1].span.end;
    const next = entries[i].span.start;
    // Only a blank gap is a missing comma; anything else there was skipped by error recovery.
    if (prev.line !== next.line || c.text.slice(prev.offset, next.offset).trim() !== "") continue;
    c.diagnostics.push(parseCodes.missingComma.at(c.file, { start: prev, end: next }));
  }
}

const escapes: Record<string, string> = { '"': '"', "\\": "\\", n: "\n", t: "\t" };

export function stringLit(c: BuildContext, token: IToken): StringLit {
  const span = tokenSpan(c, token);
  const body = token.image.slice(1, token.tokenType === ClosedString ? -1 : undefined);
  if (!body.includes("\\")) return { kind: "String", value: body, span };
  let value = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== "\\") {
      value += body[i];
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) break;
    if (next in escapes) {
      value += escapes[next];
    } else {
      const at = token.startOffset + 1 + i;
      c.diagnostics.push(parseCodes.unknownEscape.at(c.file, c.positions.span(at, at + 2), `\\${next}`));
      value += next;
    }
    i++;
  }
  return { kind: "String", value, span };
}

export function intLit(c: BuildContext, token: IToken): IntLit {
  const span = tokenSpan(c, token);
  const value = Number(token.image);
  if (!Number.isSafeInteger(value)) c.diagnostics.push(parseCodes.numberOutOfRange.at(c.file, span, token.image));
  return { kind: "Int", value, span };
}

function floatLit(c: BuildContext, token: IToken): FloatLit {
  return { kind: "Float", value: Number(token.image), span: tokenSpan(c, token) };
}
