// A light SQL tokenizer: enough to find identifiers outside strings and comments, follow
// parenthesis depth, and read the few clauses the checker needs (FROM/JOIN, WHERE,
// ORDER BY, the select list). It never fails: any character it does not know is a
// one-character operator token, so every input ends in a finite token list.

export type TokenKind = "word" | "quoted" | "string" | "number" | "blob" | "param" | "op";

export interface Token {
  kind: TokenKind;
  /** The token exactly as written. */
  text: string;
  /** word: upper-cased (keywords compare with it); quoted: the unquoted name; otherwise `text`. */
  value: string;
  /** Offsets in the tokenized text, `end` exclusive. */
  start: number;
  end: number;
  /** Parenthesis depth: 0 at top level; a `(` has the depth outside it, its contents one more. */
  depth: number;
}

const OPERATORS = ["->>", "||", "<=", ">=", "<>", "!=", "==", "<<", ">>", "->", "::"];
const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const CLOSING: Record<string, string> = { '"': '"', "`": "`", "[": "]" };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  const push = (kind: TokenKind, start: number, end: number, value?: string) => {
    const raw = text.slice(start, end);
    if (raw === ")") depth = Math.max(0, depth - 1);
    tokens.push({ kind, text: raw, value: value ?? (kind === "word" ? raw.toUpperCase() : raw), start, end, depth });
    if (raw === "(") depth++;
  };
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
      push("blob", i, end);
      i = end;
    } else if (c === "'") {
      const end = quotedEnd(text, i, "'");
      push("string", i, end);
      i = end;
    } else if (c in CLOSING) {
      const close = CLOSING[c];
      const end = quotedEnd(text, i, close);
      const inner = text.slice(i + 1, text[end - 1] === close && end - i > 1 ? end - 1 : end);
      push("quoted", i, end, close === "]" ? inner : inner.split(close + close).join(close));
      i = end;
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(next ?? ""))) {
      const m = /^(0[xX][0-9A-Fa-f]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.(?:[eE][+-]?[0-9]+)?)/.exec(text.slice(i));
      const end = i + (m ? m[0].length : 1);
      push("number", i, end);
      i = end;
    } else if (c === "?" || ((c === "@" || c === ":" || c === "$") && WORD_PART.test(next ?? ""))) {
      let end = i + 1;
      while (end < text.length && WORD_PART.test(text[end])) end++;
      push("param", i, end);
      i = end;
    } else if (WORD_START.test(c)) {
      let end = i + 1;
      while (end < text.length && WORD_PART.test(text[end])) end++;
      push("word", i, end);
      i = end;
    } else {
      const op = OPERATORS.find((o) => text.startsWith(o, i)) ?? c;
      push("op", i, i + op.length);
      i += op.length;
    }
  }
  return tokens;
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

/** A word or quoted identifier, as a name (quoted names keep their case). */
export function identName(t: Token | undefined): string | null {
  if (!t) return null;
  if (t.kind === "quoted") return t.value;
  if (t.kind === "word") return t.text;
  return null;
}

/** Case-insensitive name comparison, as SQLite compares identifiers. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Index of the `)` that closes the `(` at `open`, or `tokens.length` when it is never closed. */
export function closingParen(tokens: readonly Token[], open: number): number {
  for (let i = open + 1; i < tokens.length; i++) {
    if (tokens[i].text === ")" && tokens[i].depth === tokens[open].depth) return i;
  }
  return tokens.length;
}
