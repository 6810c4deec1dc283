// SQL tokens for analysis: the lexer's lexemes (parse/sql-lex.ts) with their text, a value
// keywords compare with, and parenthesis depth; enough to find identifiers outside strings
// and comments and read the few clauses the checker needs (FROM/JOIN, WHERE, ORDER BY, the
// select list).

import { type LexemeKind, sqlLexemes } from "../../parse/sql-lex.js";

export type TokenKind = LexemeKind;

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

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  for (const l of sqlLexemes(text)) {
    const raw = text.slice(l.start, l.end);
    if (raw === ")") depth = Math.max(0, depth - 1);
    const value = l.kind === "word" ? raw.toUpperCase() : l.kind === "quoted" ? l.name! : raw;
    tokens.push({ kind: l.kind, text: raw, value, start: l.start, end: l.end, depth });
    if (raw === "(") depth++;
  }
  return tokens;
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
