// The one SQL lexer of the compiler. The parser runs it over a `.svc` file from a body's `{`
// to find where the body ends and where its `@name` parameters are; analysis runs it over a
// body's text to read identifiers, clauses and parenthesis depth (analyze/sql/tokens.ts).
// Both must agree on what is a string, a quoted name or a comment, so that a `}` or an `@x`
// inside one is never taken for code. It never fails: a character it does not know is a
// one-character operator, and an unterminated string or comment runs to the end.

export type LexemeKind = "word" | "quoted" | "string" | "number" | "blob" | "param" | "op";

export interface Lexeme {
  kind: LexemeKind;
  /** Offsets in the text, `end` exclusive. */
  start: number;
  end: number;
  /** quoted: the unquoted name; absent for every other kind. */
  name?: string;
}

const OPERATORS = ["->>", "||", "<=", ">=", "<>", "!=", "==", "<<", ">>", "->", "::"];
const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const CLOSING: Record<string, string> = { '"': '"', "`": "`", "[": "]" };
const NUMBER = /0[xX][0-9A-Fa-f]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.(?:[eE][+-]?[0-9]+)?/y;

/** The lexemes of `text` from `from` on, skipping spaces and comments; lazily, so a caller may stop early. */
export function* sqlLexemes(text: string, from = 0): Generator<Lexeme> {
  let i = from;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "-" && next === "-") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (c === "/" && next === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? text.length : close + 2;
    } else if ((c === "x" || c === "X") && next === "'") {
      const end = quotedEnd(text, i + 1, "'");
      yield { kind: "blob", start: i, end };
      i = end;
    } else if (c === "'") {
      const end = quotedEnd(text, i, "'");
      yield { kind: "string", start: i, end };
      i = end;
    } else if (c in CLOSING && (c !== "[" || text.indexOf("]", i + 1) !== -1)) {
      // `[name]` is SQLite's quoted name; a `[` that nothing closes is an operator (a
      // PostgreSQL subscript written wrong), not a name swallowing the rest of the text.
      const close = CLOSING[c];
      const end = quotedEnd(text, i, close);
      const inner = text.slice(i + 1, text[end - 1] === close && end - i > 1 ? end - 1 : end);
      yield { kind: "quoted", start: i, end, name: close === "]" ? inner : inner.split(close + close).join(close) };
      i = end;
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(next ?? ""))) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      const end = i + (m ? m[0].length : 1);
      yield { kind: "number", start: i, end };
      i = end;
    } else if (c === "@" && next === "@" && WORD_PART.test(text[i + 2] ?? "")) {
      // `@@name`: a MySQL system variable, one lexeme so that its `@name` is not a parameter.
      yield { kind: "param", start: i, end: wordEnd(text, i + 2) };
      i = wordEnd(text, i + 2);
    } else if (c === "?" || ((c === "@" || c === ":" || c === "$") && WORD_PART.test(next ?? ""))) {
      const end = wordEnd(text, i + 1);
      yield { kind: "param", start: i, end };
      i = end;
    } else if (WORD_START.test(c)) {
      const end = wordEnd(text, i + 1);
      yield { kind: "word", start: i, end };
      i = end;
    } else {
      const op = OPERATORS.find((o) => text.startsWith(o, i)) ?? c;
      yield { kind: "op", start: i, end: i + op.length };
      i += op.length;
    }
  }
}

function wordEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && WORD_PART.test(text[end])) end++;
  return end;
}

/** End of a quoted run starting at `start` (the opening quote); a doubled closer is an escape. */
function quotedEnd(text: string, start: number, close: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === close) {
      if (close !== "]" && text[i + 1] === close) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return text.length;
}
