// Tokens of jq 1.7, read on demand: string literals are scanned by the parser itself
// (through `stringPiece`), because `\( … )` interpolations nest whole expressions.

import type { Position, Span } from "../parse/ast.js";

export type TokenKind = "punct" | "field" | "ident" | "keyword" | "var" | "loc" | "number" | "format" | "quote" | "eof";

export interface Token {
  kind: TokenKind;
  /** The punctuation, name (without `.`, `$` or `@`), keyword, or number text. */
  text: string;
  span: Span;
}

export class JqSyntaxError extends Error {
  constructor(
    message: string,
    readonly span: Span,
  ) {
    super(message);
  }
}

const KEYWORDS = new Set([
  "as", "def", "module", "import", "include", "if", "then", "else", "elif", "reduce", "foreach",
  "end", "and", "or", "try", "catch", "label", "break",
]);

// Longest first, so `?//` wins over `?` and `//=` over `//`.
const PUNCT = [
  "?//", "//=", "|=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=", "//", "..",
  ".", "[", "]", "{", "}", "(", ")", "|", ",", ":", ";", "=", "<", ">", "+", "-", "*", "/", "%", "?",
];

const IDENT = /[a-zA-Z_][a-zA-Z_0-9]*(?:::[a-zA-Z_][a-zA-Z_0-9]*)*/y;
const FIELD_NAME = /[a-zA-Z_][a-zA-Z_0-9]*/y;
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;

export type StringPiece = { kind: "text"; text: string } | { kind: "interp" } | { kind: "end" };

export class Lexer {
  private pos = 0;
  private line = 1;
  private col = 1;
  private buffered: Token | null = null;

  constructor(readonly src: string) {}

  position(): Position {
    return { offset: this.pos, line: this.line, column: this.col };
  }

  peek(): Token {
    this.buffered ??= this.scan();
    return this.buffered;
  }

  next(): Token {
    const t = this.peek();
    this.buffered = null;
    return t;
  }

  private advance(n: number): void {
    for (let i = 0; i < n; i++) {
      if (this.src[this.pos] === "\n") {
        this.line++;
        this.col = 1;
      } else this.col++;
      this.pos++;
    }
  }

  private spanFrom(start: Position): Span {
    return { start, end: this.position() };
  }

  private skipSpaceAndComments(): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.advance(1);
      else if (c === "#") {
        const start = this.position();
        let n = 0;
        while (this.pos + n < this.src.length && this.src[this.pos + n] !== "\n") n++;
        const text = this.src.slice(this.pos, this.pos + n).replace(/\r$/, "");
        this.advance(n);
        // jq 1.7 and 1.8 disagree on whether a backslash continues a comment: refuse both.
        if (/(^|[^\\])(\\\\)*\\$/.test(text)) throw new JqSyntaxError("a comment ending in a backslash is ambiguous; remove the backslash", this.spanFrom(start));
      } else return;
    }
  }

  private scan(): Token {
    this.skipSpaceAndComments();
    const start = this.position();
    const src = this.src;
    if (this.pos >= src.length) return { kind: "eof", text: "", span: this.spanFrom(start) };
    const c = src[this.pos];
    const take = (kind: TokenKind, text: string, len: number): Token => {
      this.advance(len);
      return { kind, text, span: this.spanFrom(start) };
    };
    if (c === '"') return take("quote", '"', 1);
    if (c === "." && /[a-zA-Z_]/.test(src[this.pos + 1] ?? "")) {
      FIELD_NAME.lastIndex = this.pos + 1;
      const m = FIELD_NAME.exec(src)!;
      return take("field", m[0], 1 + m[0].length);
    }
    if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(src[this.pos + 1] ?? ""))) {
      NUMBER.lastIndex = this.pos;
      const m = NUMBER.exec(src)!;
      return take("number", m[0], m[0].length);
    }
    if (c === "$" || c === "@") {
      IDENT.lastIndex = this.pos + 1;
      const m = IDENT.exec(src);
      if (!m || m.index !== this.pos + 1) throw new JqSyntaxError(`expected a name after \`${c}\``, this.spanFrom(start));
      if (c === "@") return take("format", m[0], 1 + m[0].length);
      return take(m[0] === "__loc__" ? "loc" : "var", m[0], 1 + m[0].length);
    }
    if (/[a-zA-Z_]/.test(c)) {
      IDENT.lastIndex = this.pos;
      const m = IDENT.exec(src)!;
      return take(KEYWORDS.has(m[0]) ? "keyword" : "ident", m[0], m[0].length);
    }
    for (const p of PUNCT) if (src.startsWith(p, this.pos)) return take("punct", p, p.length);
    throw new JqSyntaxError(`unexpected character \`${c}\``, { start, end: { ...start, offset: start.offset + 1, column: start.column + 1 } });
  }

  /** Inside a string literal: the next run of text, the start of `\(`, or the closing quote. */
  stringPiece(): StringPiece {
    if (this.buffered) throw new Error("jq lexer: string scanned with a token buffered");
    const src = this.src;
    let text = "";
    for (;;) {
      const start = this.position();
      if (this.pos >= src.length) throw new JqSyntaxError("unterminated string", this.spanFrom(start));
      const c = src[this.pos];
      if (c === '"') {
        if (text) return { kind: "text", text };
        this.advance(1);
        return { kind: "end" };
      }
      if (c !== "\\") {
        text += c;
        this.advance(1);
        continue;
      }
      const e = src[this.pos + 1];
      if (e === "(") {
        if (text) return { kind: "text", text };
        this.advance(2);
        return { kind: "interp" };
      }
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e !== undefined && e in simple) {
        text += simple[e];
        this.advance(2);
      } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(src.slice(this.pos + 2, this.pos + 6))) {
        text += String.fromCharCode(parseInt(src.slice(this.pos + 2, this.pos + 6), 16));
        this.advance(6);
      } else {
        this.advance(2);
        throw new JqSyntaxError(`invalid escape \`\\${e ?? ""}\` in a string`, this.spanFrom(start));
      }
    }
  }
}
