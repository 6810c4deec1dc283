// A recursive-descent parser for jq 1.7's grammar (src/parser.y): precedence from lowest
// `|`, `,`, `//`, assignments, `or`, `and`, comparisons, `+ -`, `* / %`, then postfix `?`;
// `try`/`catch` bodies are postfix terms; `as`, `def` and `label` bodies reach as far right
// as they can. Errors are thrown as JqSyntaxError (with a span) and caught by `parseJq`.

import type { Position, Span } from "../parse/ast.js";
import type { BinaryOp, JqNode, ObjectEntry, Pattern, StringPart } from "./ast.js";
import { JqSyntaxError, Lexer, type Token } from "./lexer.js";

export type ParseResult = { ok: true; ast: JqNode } | { ok: false; message: string; span: Span };

const MAX_DEPTH = 200;

export function parseJq(program: string): ParseResult {
  const p = new Parser(new Lexer(program));
  try {
    return { ok: true, ast: p.program() };
  } catch (e) {
    if (e instanceof JqSyntaxError) return { ok: false, message: e.message, span: e.span };
    throw e;
  }
}

// Binary levels from loosest to tightest (`|` and `,` are handled separately).
const LEVELS: { ops: string[]; assoc: "left" | "right" | "none" }[] = [
  { ops: ["//"], assoc: "right" },
  { ops: ["=", "|=", "+=", "-=", "*=", "/=", "%=", "//="], assoc: "none" },
  { ops: ["or"], assoc: "left" },
  { ops: ["and"], assoc: "left" },
  { ops: ["==", "!=", "<", "<=", ">", ">="], assoc: "none" },
  { ops: ["+", "-"], assoc: "left" },
  { ops: ["*", "/", "%"], assoc: "left" },
];
const ADDITIVE = 5;
const MULTIPLICATIVE = 6;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

class Parser {
  private depth = 0;

  constructor(private readonly lx: Lexer) {}

  program(): JqNode {
    const first = this.lx.peek();
    if (first.kind === "keyword" && ["module", "import", "include"].includes(first.text)) {
      // Modules only make sense with a library path; svc never gives jq one.
      return { kind: "Module", what: first.text, span: first.span };
    }
    if (first.kind === "eof") return { kind: "Identity", span: first.span };
    const e = this.pipe();
    const t = this.lx.peek();
    if (t.kind !== "eof") this.unexpected(t, "end of program");
    return e;
  }

  // ------------------------------------------------------------ helpers

  private unexpected(t: Token, expected: string): never {
    const found = t.kind === "eof" ? "end of program" : `\`${t.kind === "quote" ? '"' : t.text}\``;
    throw new JqSyntaxError(`unexpected ${found}, expected ${expected}`, t.span);
  }

  private isPunct(text: string): boolean {
    const t = this.lx.peek();
    return t.kind === "punct" && t.text === text;
  }

  private isKeyword(text: string): boolean {
    const t = this.lx.peek();
    return t.kind === "keyword" && t.text === text;
  }

  private expectPunct(text: string): Token {
    const t = this.lx.next();
    if (t.kind !== "punct" || t.text !== text) this.unexpected(t, `\`${text}\``);
    return t;
  }

  private expectKeyword(text: string): Token {
    const t = this.lx.next();
    if (t.kind !== "keyword" || t.text !== text) this.unexpected(t, `\`${text}\``);
    return t;
  }

  private span(start: Position): Span {
    return { start, end: this.lx.position() };
  }

  private nest<T>(at: Token, f: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new JqSyntaxError(`the program nests deeper than ${MAX_DEPTH} levels`, at.span);
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  // ------------------------------------------------------------ expressions

  /** Exp at the loosest level: `a | b`, right-associative. */
  pipe(): JqNode {
    const t = this.lx.peek();
    return this.nest(t, () => {
      if (t.kind === "keyword" && t.text === "def") return this.funcDef();
      const left = this.comma();
      if (this.isPunct("|")) {
        this.lx.next();
        const right = this.pipe();
        return { kind: "Pipe", left, right, span: this.span(left.span.start) };
      }
      return left;
    });
  }

  private comma(): JqNode {
    let left = this.binary(0);
    while (this.isPunct(",")) {
      this.lx.next();
      const right = this.binary(0);
      left = { kind: "Comma", left, right, span: this.span(left.span.start) };
    }
    return left;
  }

  private binary(level: number): JqNode {
    if (level >= LEVELS.length) return this.postfix();
    const { ops, assoc } = LEVELS[level];
    let left = level === ADDITIVE && this.isPunct("-") ? this.negation() : this.binary(level + 1);
    for (;;) {
      const t = this.lx.peek();
      if (!((t.kind === "punct" || t.kind === "keyword") && ops.includes(t.text))) return left;
      this.lx.next();
      if (assoc === "right") {
        const right = this.binary(level);
        return this.makeBinary(t.text, left, right);
      }
      const right = level === ADDITIVE && this.isPunct("-") ? this.negation() : this.binary(level + 1);
      left = this.makeBinary(t.text, left, right);
      if (assoc === "none") {
        const n = this.lx.peek();
        if ((n.kind === "punct" || n.kind === "keyword") && ops.includes(n.text)) this.unexpected(n, "an operand's end");
        return left;
      }
    }
  }

  private makeBinary(op: string, left: JqNode, right: JqNode): JqNode {
    const span = { start: left.span.start, end: right.span.end };
    if (op.endsWith("=") && !["==", "!=", "<=", ">="].includes(op)) return { kind: "Assign", op, left, right, span };
    return { kind: "Binary", op: op as BinaryOp, left, right, span };
  }

  /** `- Exp`: binds like binary minus, so `-a * b` is `-(a * b)` and `-a + b` is `(-a) + b`. */
  private negation(): JqNode {
    const t = this.lx.next();
    return this.nest(t, () => {
      const operand = this.isPunct("-") ? this.negation() : this.binary(MULTIPLICATIVE);
      return { kind: "Neg", operand, span: this.span(t.span.start) };
    });
  }

  /** A term, or one of the Exp forms that may stand where a term stands, then any `?`. */
  private postfix(): JqNode {
    let e = this.operand();
    while (this.isPunct("?")) {
      this.lx.next();
      e = { kind: "Try", body: e, handler: null, span: this.span(e.span.start) };
    }
    return e;
  }

  private operand(): JqNode {
    const t = this.lx.peek();
    if (t.kind === "punct" && t.text === "-") return this.negation();
    if (t.kind === "keyword" && t.text === "try") return this.tryExp();
    if (t.kind === "keyword" && t.text === "if") return this.ifExp();
    if (t.kind === "keyword" && (t.text === "reduce" || t.text === "foreach")) return this.reduceExp();
    if (t.kind === "keyword" && t.text === "label") return this.labelExp();
    if (t.kind === "keyword" && t.text === "def") return this.funcDef();
    const e = this.term();
    return this.isKeyword("as") ? this.asExp(e) : e;
  }

  private tryExp(): JqNode {
    const t = this.lx.next();
    // `try` binds tighter than every operator: its body and handler are single operands.
    const body = this.nest(t, () => this.operand());
    let handler: JqNode | null = null;
    if (this.isKeyword("catch")) {
      this.lx.next();
      handler = this.nest(t, () => this.operand());
    }
    return { kind: "Try", body, handler, span: this.span(t.span.start) };
  }

  private ifExp(): JqNode {
    const t = this.lx.next();
    const cond = this.pipe();
    this.expectKeyword("then");
    const then = this.pipe();
    let otherwise: JqNode | null = null;
    const n = this.lx.next();
    if (n.kind === "keyword" && n.text === "elif") {
      // `elif` is an `if` nested in the else branch; it shares the one `end`.
      const rest = this.elifChain(n);
      otherwise = rest;
    } else if (n.kind === "keyword" && n.text === "else") {
      otherwise = this.pipe();
      this.expectKeyword("end");
    } else if (!(n.kind === "keyword" && n.text === "end")) this.unexpected(n, "`elif`, `else` or `end`");
    return { kind: "If", cond, then, else: otherwise, span: this.span(t.span.start) };
  }

  private elifChain(at: Token): JqNode {
    return this.nest(at, () => {
      const cond = this.pipe();
      this.expectKeyword("then");
      const then = this.pipe();
      let otherwise: JqNode | null = null;
      const n = this.lx.next();
      if (n.kind === "keyword" && n.text === "elif") otherwise = this.elifChain(n);
      else if (n.kind === "keyword" && n.text === "else") {
        otherwise = this.pipe();
        this.expectKeyword("end");
      } else if (!(n.kind === "keyword" && n.text === "end")) this.unexpected(n, "`elif`, `else` or `end`");
      return { kind: "If", cond, then, else: otherwise, span: this.span(at.span.start) } as JqNode;
    });
  }

  private reduceExp(): JqNode {
    const t = this.lx.next();
    const source = this.term();
    this.expectKeyword("as");
    const pattern = this.pattern();
    this.expectPunct("(");
    const init = this.pipe();
    this.expectPunct(";");
    const update = this.pipe();
    let extract: JqNode | null = null;
    if (t.text === "foreach" && this.isPunct(";")) {
      this.lx.next();
      extract = this.pipe();
    }
    this.expectPunct(")");
    const span = this.span(t.span.start);
    if (t.text === "reduce") return { kind: "Reduce", source, pattern, init, update, span };
    return { kind: "Foreach", source, pattern, init, update, extract, span };
  }

  private labelExp(): JqNode {
    const t = this.lx.next();
    const name = this.lx.next();
    if (name.kind !== "var") this.unexpected(name, "a `$name` after `label`");
    this.expectPunct("|");
    const body = this.pipe();
    return { kind: "Label", name: name.text, body, span: this.span(t.span.start) };
  }

  private funcDef(): JqNode {
    const t = this.lx.next();
    const name = this.lx.next();
    if (name.kind !== "ident" && name.kind !== "keyword") this.unexpected(name, "a function name");
    if (name.kind === "keyword") this.unexpected(name, "a function name (keywords cannot be redefined)");
    const params: string[] = [];
    if (this.isPunct("(")) {
      this.lx.next();
      for (;;) {
        const p = this.lx.next();
        if (p.kind === "var") params.push(`$${p.text}`);
        else if (p.kind === "ident") params.push(p.text);
        else this.unexpected(p, "a parameter name");
        if (this.isPunct(";")) this.lx.next();
        else break;
      }
      this.expectPunct(")");
    }
    this.expectPunct(":");
    const body = this.pipe();
    this.expectPunct(";");
    const rest = this.pipe();
    return { kind: "FuncDef", name: name.text, params, body, rest, span: this.span(t.span.start) };
  }

  private asExp(source: JqNode): JqNode {
    this.lx.next();
    const patterns = [this.pattern()];
    while (this.isPunct("?//")) {
      this.lx.next();
      patterns.push(this.pattern());
    }
    this.expectPunct("|");
    const body = this.pipe();
    return { kind: "As", source, patterns, body, span: this.span(source.span.start) };
  }

  private pattern(): Pattern {
    const t = this.lx.next();
    return this.nest(t, (): Pattern => {
      if (t.kind === "var") return { kind: "VarPattern", name: t.text, span: t.span };
      if (t.kind === "punct" && t.text === "[") {
        const elements = [this.pattern()];
        while (this.isPunct(",")) {
          this.lx.next();
          elements.push(this.pattern());
        }
        this.expectPunct("]");
        return { kind: "ArrayPattern", elements, span: this.span(t.span.start) };
      }
      if (t.kind === "punct" && t.text === "{") {
        const names: string[] = [];
        const bind = (p: Pattern): void => {
          if (p.kind === "VarPattern") names.push(p.name);
          else if (p.kind === "ArrayPattern") p.elements.forEach(bind);
          else names.push(...p.names);
        };
        for (;;) {
          const k = this.lx.next();
          if (k.kind === "var") {
            names.push(k.text);
            if (this.isPunct(":")) {
              this.lx.next();
              bind(this.pattern());
            }
          } else {
            if (k.kind === "quote") this.stringBody(k, null);
            else if (k.kind === "punct" && k.text === "(") {
              this.pipe();
              this.expectPunct(")");
            } else if (k.kind !== "ident" && k.kind !== "keyword") this.unexpected(k, "an object pattern key");
            this.expectPunct(":");
            bind(this.pattern());
          }
          if (!this.isPunct(",")) break;
          this.lx.next();
        }
        this.expectPunct("}");
        return { kind: "ObjectPattern", names, span: this.span(t.span.start) };
      }
      return this.unexpected(t, "a pattern (`$name`, `[…]` or `{…}`)");
    });
  }

  // ------------------------------------------------------------ terms

  private term(): JqNode {
    const t = this.lx.peek();
    return this.nest(t, () => this.suffixes(this.primary()));
  }

  private suffixes(start: JqNode): JqNode {
    let e = start;
    for (;;) {
      const t = this.lx.peek();
      if (t.kind === "field") {
        this.lx.next();
        e = this.optional({ kind: "Index", target: e, key: constString(t.text, t.span), optional: false, span: this.span(e.span.start) });
      } else if (t.kind === "punct" && t.text === "[") {
        e = this.bracket(e);
      } else if (t.kind === "punct" && t.text === "." && e.kind !== "Identity") {
        this.lx.next();
        const n = this.lx.peek();
        if (n.kind === "quote") {
          this.lx.next();
          const key = this.stringBody(n, null);
          e = this.optional({ kind: "Index", target: e, key, optional: false, span: this.span(e.span.start) });
        } else if (n.kind === "punct" && n.text === "[") e = this.bracket(e);
        else this.unexpected(n, "a field name, a string or `[` after `.`");
      } else return e;
    }
  }

  private optional<T extends JqNode & { optional: boolean }>(e: T): JqNode {
    if (this.isPunct("?")) {
      this.lx.next();
      return { ...e, optional: true, span: this.span(e.span.start) } as JqNode;
    }
    return e;
  }

  /** `[]`, `[e]`, `[e:e]`, `[e:]`, `[:e]` after a term. */
  private bracket(target: JqNode): JqNode {
    const open = this.expectPunct("[");
    return this.nest(open, () => {
      const start = target.span.start;
      if (this.isPunct("]")) {
        this.lx.next();
        return this.optional({ kind: "Iterate", target, optional: false, span: this.span(start) });
      }
      if (this.isPunct(":")) {
        this.lx.next();
        const to = this.pipe();
        this.expectPunct("]");
        return this.optional({ kind: "Slice", target, from: null, to, optional: false, span: this.span(start) });
      }
      const key = this.pipe();
      if (this.isPunct(":")) {
        this.lx.next();
        const to = this.isPunct("]") ? null : this.pipe();
        this.expectPunct("]");
        return this.optional({ kind: "Slice", target, from: key, to, optional: false, span: this.span(start) });
      }
      this.expectPunct("]");
      return this.optional({ kind: "Index", target, key, optional: false, span: this.span(start) });
    });
  }

  private primary(): JqNode {
    const t = this.lx.next();
    const start = t.span.start;
    switch (t.kind) {
      case "field":
        return this.optional({ kind: "Index", target: { kind: "Identity", span: t.span }, key: constString(t.text, t.span), optional: false, span: t.span });
      case "number": {
        const value = Number(t.text);
        return { kind: "Number", value, text: t.text, span: t.span };
      }
      case "quote":
        return this.stringBody(t, null);
      case "format": {
        if (this.lx.peek().kind === "quote") return this.stringBody(this.lx.next(), t.text, start);
        return { kind: "Format", name: t.text, span: t.span };
      }
      case "var":
        return { kind: "Var", name: t.text, span: t.span };
      case "loc":
        return { kind: "Loc", span: t.span };
      case "ident":
        return this.call(t);
      case "keyword":
        if (t.text === "break") {
          const name = this.lx.next();
          if (name.kind !== "var") this.unexpected(name, "a `$label` after `break`");
          return { kind: "Break", name: name.text, span: this.span(start) };
        }
        return this.unexpected(t, "a term");
      case "punct":
        return this.punctPrimary(t);
      default:
        return this.unexpected(t, "a term");
    }
  }

  private punctPrimary(t: Token): JqNode {
    const start = t.span.start;
    switch (t.text) {
      case ".": {
        const n = this.lx.peek();
        if (n.kind === "quote") {
          this.lx.next();
          const key = this.stringBody(n, null);
          return this.optional({ kind: "Index", target: { kind: "Identity", span: t.span }, key, optional: false, span: this.span(start) });
        }
        if (n.kind === "punct" && n.text === "[") return this.bracket({ kind: "Identity", span: t.span });
        return { kind: "Identity", span: t.span };
      }
      case "..":
        return { kind: "RecurseAll", span: t.span };
      case "(": {
        const e = this.pipe();
        this.expectPunct(")");
        return { ...e, span: this.span(start) };
      }
      case "[": {
        if (this.isPunct("]")) {
          this.lx.next();
          return { kind: "Array", body: null, span: this.span(start) };
        }
        const body = this.pipe();
        this.expectPunct("]");
        return { kind: "Array", body, span: this.span(start) };
      }
      case "{":
        return this.object(t);
      default:
        return this.unexpected(t, "a term");
    }
  }

  private call(t: Token): JqNode {
    const args: JqNode[] = [];
    if (this.isPunct("(")) {
      this.lx.next();
      args.push(this.pipe());
      while (this.isPunct(";")) {
        this.lx.next();
        args.push(this.pipe());
      }
      this.expectPunct(")");
    }
    const span = this.span(t.span.start);
    if (args.length === 0 && (t.text === "true" || t.text === "false" || t.text === "null")) {
      return { kind: "Call", name: t.text, args, span };
    }
    return { kind: "Call", name: t.text, args, span };
  }

  private object(open: Token): JqNode {
    const entries: ObjectEntry[] = [];
    while (!this.isPunct("}")) {
      entries.push(this.objectEntry());
      if (this.isPunct(",")) this.lx.next();
      else if (!this.isPunct("}")) this.unexpected(this.lx.peek(), "`,` or `}`");
    }
    this.lx.next();
    return { kind: "Object", entries, span: this.span(open.span.start) };
  }

  private objectEntry(): ObjectEntry {
    const t = this.lx.next();
    const start = t.span.start;
    let key: ObjectEntry["key"];
    if (t.kind === "ident" || t.kind === "keyword") key = { kind: "const", name: t.text };
    else if (t.kind === "var") key = { kind: "var", name: t.text };
    else if (t.kind === "loc") key = { kind: "const", name: "__loc__" };
    else if (t.kind === "quote") key = { kind: "expr", expr: this.stringBody(t, null) };
    else if (t.kind === "format" && this.lx.peek().kind === "quote") key = { kind: "expr", expr: this.stringBody(this.lx.next(), t.text, start) };
    else if (t.kind === "number") key = { kind: "expr", expr: { kind: "Number", value: Number(t.text), text: t.text, span: t.span } };
    else if (t.kind === "punct" && t.text === "(") {
      const expr = this.pipe();
      this.expectPunct(")");
      if (!this.isPunct(":")) this.unexpected(this.lx.peek(), "`:` after a computed key");
      key = { kind: "expr", expr };
    } else return this.unexpected(t, "an object key");
    if (!this.isPunct(":")) {
      if (t.kind === "number" || t.kind === "format") this.unexpected(this.lx.peek(), "`:`");
      if (t.kind === "loc") return { key, value: { kind: "Loc", span: t.span }, span: this.span(start) };
      return { key, value: null, span: this.span(start) };
    }
    if (t.kind === "number") throw new JqSyntaxError("an object key must be a name, a string or a parenthesised expression", t.span);
    this.lx.next();
    return { key, value: this.objectValue(), span: this.span(start) };
  }

  /** ExpD: terms joined by `|`, each optionally negated. */
  private objectValue(): JqNode {
    const first = this.lx.peek();
    return this.nest(first, () => {
      let left: JqNode;
      if (this.isPunct("-")) {
        const m = this.lx.next();
        const operand = this.objectValue();
        left = { kind: "Neg", operand, span: this.span(m.span.start) };
        return left;
      }
      left = this.term();
      if (this.isPunct("|")) {
        this.lx.next();
        const right = this.objectValue();
        return { kind: "Pipe", left, right, span: this.span(left.span.start) } as JqNode;
      }
      return left;
    });
  }

  /** After the opening quote: text runs and `\( … )` interpolations up to the closing quote. */
  private stringBody(open: Token, format: string | null, start: Position = open.span.start): JqNode {
    return this.nest(open, () => {
      const parts: StringPart[] = [];
      for (;;) {
        const piece = this.lx.stringPiece();
        if (piece.kind === "end") break;
        if (piece.kind === "text") parts.push({ text: piece.text.replace(LONE_SURROGATE, "\ufffd") });
        else {
          const expr = this.pipe();
          this.expectPunct(")");
          parts.push({ expr });
        }
      }
      return { kind: "String", format, parts, span: this.span(start) } as JqNode;
    });
  }
}

function constString(text: string, span: Span): JqNode {
  return { kind: "String", format: null, parts: [{ text }], span };
}
