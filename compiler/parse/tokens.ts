// Token types shared by the module-file and route-file lexers and the parser.
// Labels are what error messages show ("expected a name, found \"}\"").

import type { IToken, TokenType } from "chevrotain";
import { createToken, Lexer } from "./chevrotain.js";
import { scanSqlBody, scanSqlParens } from "./sql-scan.js";

/** Any identifier or keyword: where a name is expected, keywords are names too. */
export const Name = createToken({ name: "Name", pattern: Lexer.NA, label: "a name" });
/** Identifiers and the keywords that are free to use as variable names in expressions. */
export const SoftName = createToken({ name: "SoftName", pattern: Lexer.NA, label: "a name", categories: [Name] });
/** A string literal, closed or not (an unterminated one is reported and parsed on). */
export const StringLiteral = createToken({ name: "StringLiteral", pattern: Lexer.NA, label: "a string" });

export const Identifier = createToken({
  name: "Identifier",
  pattern: /[A-Za-z_][A-Za-z0-9_]*/,
  label: "a name",
  categories: [SoftName, Name],
});

function keyword(word: string, soft: boolean): TokenType {
  return createToken({
    name: word[0].toUpperCase() + word.slice(1),
    pattern: new RegExp(word),
    longer_alt: Identifier,
    label: `"${word}"`,
    categories: soft ? [SoftName, Name] : [Name],
  });
}

// Reserved: these start statements, expressions or literals, so they cannot be variables.
export const Let = keyword("let", false);
export const If = keyword("if", false);
export const Else = keyword("else", false);
export const Fail = keyword("fail", false);
export const Return = keyword("return", false);
export const Sql = keyword("sql", false);
export const Get = keyword("get", false);
export const Insert = keyword("insert", false);
export const Update = keyword("update", false);
export const Delete = keyword("delete", false);
export const True = keyword("true", false);
export const False = keyword("false", false);
export const Null = keyword("null", false);
export const And = keyword("and", false);
export const Or = keyword("or", false);
export const Not = keyword("not", false);
// Lists and record types (docs/language.md §2.3 Lists, §2.5): `for x in xs { … }` reserves
// both words; `type`, and `max` in `list<text> max 20`, stay names elsewhere.
export const For = keyword("for", false);
export const In = keyword("in", false);
// Lists built in code (§2.3): `let rows = for i in range(n) max 500 { yield … }`.
export const Yield = keyword("yield", false);
// Jobs (§2.9): `enqueue send_digest(user: u.id) after 10m` starts a statement, so it is reserved.
export const Enqueue = keyword("enqueue", false);

// Contextual: keywords only where the grammar expects them (a declaration, a route step,
// `one`, `requires`, `desc`…), and names everywhere else, e.g. a field called `index`.
export const Module = keyword("module", true);
export const Resource = keyword("resource", true);
export const Query = keyword("query", true);
export const Action = keyword("action", true);
export const Route = keyword("route", true);
export const Webhook = keyword("webhook", true);
export const Index = keyword("index", true);
export const Unique = keyword("unique", true);
// A resource's primary key when it is not one `id` field (docs/language.md §2.1, Keys): `key (a, b)`.
export const Key = keyword("key", true);
export const Desc = keyword("desc", true);
export const Asc = keyword("asc", true);
export const One = keyword("one", true);
export const Requires = keyword("requires", true);
export const Auth = keyword("auth", true);
export const Role = keyword("role", true);
export const Invoke = keyword("invoke", true);
export const Fetch = keyword("fetch", true);
export const Redirect = keyword("redirect", true);
export const Type = keyword("type", true);
// Events (docs/language.md §2.9): `event name { … }` and `emit name { … }`; names elsewhere
// (a webhook handler's `event` parameter).
export const Event = keyword("event", true);
export const Emit = keyword("emit", true);
export const Max = keyword("max", true);
// Private code and pure functions (docs/language.md §2.3: Private queries and actions, Functions).
export const Private = keyword("private", true);
export const Public = keyword("public", true);
export const Fn = keyword("fn", true);
// A route's answer (docs/language.md §2.4, §4): `respond 201 { … } header "Location" = …`.
export const Respond = keyword("respond", true);
export const Header = keyword("header", true);
// A GET that writes, allowed on purpose (docs/language.md §3, Requests from other sites): `unsafe route GET …`.
export const Unsafe = keyword("unsafe", true);

// Rate limits (docs/language.md §2.6): `limit 5 per 1m by email burst 10`.
export const Limit = keyword("limit", true);
export const Per = keyword("per", true);
export const By = keyword("by", true);
export const Burst = keyword("burst", true);

// An action's transaction (docs/language.md §2.3, Transactions): `transaction read committed`, `transaction none`.
export const Transaction = keyword("transaction", true);

// Jobs and schedules (docs/language.md §2.9): `job send_digest(user: id) { … }`, `schedule nightly every "0 3 * * *" runs purge()`.
export const Job = keyword("job", true);
export const Schedule = keyword("schedule", true);

// Schema changes (docs/language.md §2.1, Changing a resource): `headline: text renamed from title`,
// `changed from text using (…) back (…) lossy`, `backfill "x"`, `drop legacy`, `drop resource audit`.
export const Renamed = keyword("renamed", true);
export const From = keyword("from", true);
export const Changed = keyword("changed", true);
export const Using = keyword("using", true);
export const Back = keyword("back", true);
export const Lossy = keyword("lossy", true);
export const Backfill = keyword("backfill", true);
export const Drop = keyword("drop", true);

const keywords = [
  Let, If, Else, Fail, Return, Sql, Get, Insert, Update, Delete, True, False, Null, And, Or, Not,
  Module, Resource, Query, Action, Route, Webhook, Index, Unique, Key, Desc, Asc, One, Requires, Auth,
  Role, Invoke, Fetch, Redirect, Respond, Header,
  For, In, Yield, Type, Max, Private, Public, Fn, Unsafe, Limit, Per, By, Burst, Transaction, Enqueue, Job, Schedule, Event, Emit,
  // `backfill` before `back`, which would otherwise match its first four letters.
  Renamed, From, Changed, Using, Backfill, Back, Lossy, Drop,
];

/**
 * In route files only: a word in capitals starts a method block (`GET {`, `POST name {`).
 * A token of its own, rather than any name, so that error recovery can find the next
 * block; it is still a name everywhere else (`input.query.ID`).
 */
export const MethodName = createToken({
  name: "MethodName",
  pattern: /[A-Z]+/,
  longer_alt: Identifier,
  label: "a method such as GET",
  categories: [SoftName, Name],
});

export const Whitespace = createToken({ name: "Whitespace", pattern: /[ \t\r\n\uFEFF]+/, group: Lexer.SKIPPED, line_breaks: true });
export const DocComment = createToken({ name: "DocComment", pattern: /\/\/\/(?!\/)[^\r\n]*/, group: "docs" });
export const LineComment = createToken({ name: "LineComment", pattern: /(?:\/\/|#)[^\r\n]*/, group: Lexer.SKIPPED });

export const ClosedString = createToken({
  name: "ClosedString",
  pattern: /"(?:[^"\\\r\n]|\\[^\r\n])*"/,
  label: "a string",
  categories: [StringLiteral],
});
export const UnterminatedString = createToken({
  name: "UnterminatedString",
  pattern: /"(?:[^"\\\r\n]|\\[^\r\n])*\\?/,
  label: "a string",
  categories: [StringLiteral],
});
export const FloatLiteral = createToken({
  name: "FloatLiteral",
  pattern: /\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+/,
  label: "a number",
});
export const IntLiteral = createToken({ name: "IntLiteral", pattern: /\d+/, label: "a whole number" });

/**
 * A whole `{ … }` SQL body as one token. The lexer cannot know from `{` alone whether
 * SQL or an object literal follows, so it looks back at the tokens already matched: a
 * body follows `sql`, and the parameter list (and `one`) of `query NAME(…)`.
 */
export const SqlBody = createToken({
  name: "SqlBody",
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]) {
      if (text[offset] !== "{" || !opensSqlBody(tokens)) return null;
      const scan = scanSqlBody(text, offset);
      const match: [string] & { payload?: unknown } = [text.slice(offset, scan.end)];
      match.payload = scan;
      return match;
    },
  },
  start_chars_hint: ["{"],
  line_breaks: true,
  label: "an SQL body in braces",
});

/** Far more than any real parameter list; only bounds the look-back. */
const MAX_PARAM_LIST_TOKENS = 2000;

function opensSqlBody(tokens: IToken[]): boolean {
  let i = tokens.length - 1;
  if (i < 0) return false;
  if (tokens[i].tokenType === Sql) return i === 0 || tokens[i - 1].tokenType !== Dot;
  if (tokens[i].tokenType === One) i--;
  if (i >= 0 && tokens[i].tokenType === RParen) {
    // Bounded, so that a file of unbalanced parentheses does not lex in quadratic time.
    const stop = Math.max(-1, i - MAX_PARAM_LIST_TOKENS);
    let depth = 0;
    for (; i > stop; i--) {
      const t = tokens[i].tokenType;
      if (t === RParen) depth++;
      else if (t === LParen && --depth === 0) break;
    }
    if (i === stop) return false;
    i--;
  }
  // `query NAME`: a keyword used as the name still counts, hence the category test.
  return i >= 1 && isName(tokens[i].tokenType) && tokens[i - 1].tokenType === Query;
}

function isName(t: TokenType): boolean {
  return t.CATEGORIES?.includes(Name) ?? false;
}

/**
 * `using (…)`, `back (…)`, `backfill (…)` of a resource field: an SQL expression over the row,
 * one token from `(` to its `)`, lexed as SQL (strings, quoted names) like a body. Only inside
 * a resource's braces, so a function called `back(…)` elsewhere stays a call.
 */
export const SqlParens = createToken({
  name: "SqlParens",
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]) {
      if (text[offset] !== "(" || !opensSqlParens(tokens)) return null;
      const scan = scanSqlParens(text, offset);
      const match: [string] & { payload?: unknown } = [text.slice(offset, scan.end)];
      match.payload = scan;
      return match;
    },
  },
  start_chars_hint: ["("],
  line_breaks: true,
  label: "an SQL expression in parentheses",
});

function opensSqlParens(tokens: IToken[]): boolean {
  const last = tokens[tokens.length - 1]?.tokenType;
  if (last !== Using && last !== Back && last !== Backfill) return false;
  // Inside `resource NAME { … }`: the nearest unclosed `{` follows `resource NAME`.
  let depth = 0;
  const stop = Math.max(-1, tokens.length - 1 - MAX_PARAM_LIST_TOKENS);
  for (let i = tokens.length - 2; i > stop; i--) {
    const t = tokens[i].tokenType;
    if (t === RBrace) depth++;
    else if (t === LBrace && depth-- === 0) return i >= 2 && tokens[i - 2].tokenType === Resource;
  }
  return false;
}

export const CompareOp = createToken({ name: "CompareOp", pattern: Lexer.NA, label: "a comparison" });
export const AdditiveOp = createToken({ name: "AdditiveOp", pattern: Lexer.NA, label: '"+" or "-"' });
export const MultiplicativeOp = createToken({ name: "MultiplicativeOp", pattern: Lexer.NA, label: '"*" or "/"' });

function operator(name: string, image: string, category: TokenType | null): TokenType {
  const pattern = new RegExp(image.replace(/[.*+?()[\]{}/]/g, "\\$&"));
  return createToken({ name, pattern, label: JSON.stringify(image), categories: category ? [category] : [] });
}

export const Arrow = operator("Arrow", "=>", null);
export const EqEq = operator("EqEq", "==", CompareOp);
export const NotEq = operator("NotEq", "!=", CompareOp);
export const LtEq = operator("LtEq", "<=", CompareOp);
export const GtEq = operator("GtEq", ">=", CompareOp);
export const Lt = operator("Lt", "<", CompareOp);
export const Gt = operator("Gt", ">", CompareOp);
export const Equals = operator("Equals", "=", null);
export const Plus = operator("Plus", "+", AdditiveOp);
export const Minus = operator("Minus", "-", AdditiveOp);
export const Star = operator("Star", "*", MultiplicativeOp);
export const Slash = operator("Slash", "/", MultiplicativeOp);
export const Dot = operator("Dot", ".", null);
export const Comma = operator("Comma", ",", null);
export const Colon = operator("Colon", ":", null);
export const Question = operator("Question", "?", null);
export const LParen = operator("LParen", "(", null);
export const RParen = operator("RParen", ")", null);
export const LBrace = operator("LBrace", "{", null);
export const RBrace = operator("RBrace", "}", null);
export const LBracket = operator("LBracket", "[", null);
export const RBracket = operator("RBracket", "]", null);

const punctuation = [
  Arrow, EqEq, NotEq, LtEq, GtEq, Lt, Gt, Equals, Plus, Minus, Star, Slash, Dot, Comma, Colon,
  Question, LParen, RParen, LBrace, RBrace, LBracket, RBracket,
];

/** Lexing order matters: comments before `/`, keywords before identifiers, `{ SQL }` before `{`, `(SQL)` before `(`. */
const trivia = [Whitespace, DocComment, LineComment];
const literals = [ClosedString, UnterminatedString, FloatLiteral, IntLiteral];
export const routeFileTokens: TokenType[] = [...trivia, ...literals, ...keywords, MethodName, Identifier, ...punctuation];
export const moduleFileTokens: TokenType[] = [...trivia, ...literals, SqlBody, SqlParens, ...keywords, Identifier, ...punctuation];

/** Everything the parser may be asked to match, categories included. */
export const allTokens: TokenType[] = [
  Name, SoftName, StringLiteral, CompareOp, AdditiveOp, MultiplicativeOp, ...moduleFileTokens, MethodName,
];
