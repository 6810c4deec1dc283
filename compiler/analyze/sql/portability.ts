import { dialectCodes as codes } from "../../diagnostics/codes/dialect.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { ResourceShape } from "./ddl/shared.js";
import type { SqlCheckInput } from "./dialect.js";
import type { TableRef } from "./refs.js";
import { spanIn } from "./span.js";
import { type Token, closingParen } from "./tokens.js";

// svc checks a statement's names and types with SQLite (sql/sqlite/), and `svc dev` runs
// it on SQLite, so the SQL a project writes is SQL that SQLite accepts. When svc.toml
// chooses another backend, the same text must also mean the same thing there: these
// rules flag what SQLite accepts but PostgreSQL or MySQL/MariaDB/TiDB refuse or read
// otherwise. They read tokens, never a full parse, so each rule looks for one construct
// it can recognize for certain; `svc check --db URL` asks the live database for the rest.

export type RuleBackend = "postgres" | "mysql" | "tidb";

export interface RuleContext {
  input: SqlCheckInput;
  tokens: Token[];
  refs: TableRef[];
  resources: readonly ResourceShape[];
  backend: RuleBackend;
  /** "PostgreSQL", "MySQL/MariaDB", "TiDB": for messages. */
  backendName: string;
  /** "query `list_tasks`", for messages. */
  where: string;
  calls: Call[];
  out: Diagnostic[];
}

/** `name(…)` in the SQL: a function call (or a table-valued function in FROM). */
export interface Call {
  /** Lower-cased. */
  name: string;
  /** Token index of the name, of its `(` and of the matching `)`. */
  at: number;
  open: number;
  close: number;
  /** Number of arguments: top-level commas + 1, or 0 for `()`. */
  args: number;
}

export const BACKEND_NAMES: Record<RuleBackend, string> = {
  postgres: "PostgreSQL",
  mysql: "MySQL/MariaDB",
  tidb: "TiDB",
};

/** The file span of tokens `from`…`to` (inclusive). */
export function spanOf(ctx: RuleContext, from: number, to: number = from) {
  return spanIn(ctx.input.body, ctx.tokens[from].start, ctx.tokens[to].end);
}

// Words that take a parenthesis without being a function call.
const NOT_CALLS = new Set([
  "IN",
  "VALUES",
  "EXISTS",
  "AS",
  "ON",
  "USING",
  "OVER",
  "FILTER",
  "AND",
  "OR",
  "NOT",
  "WHERE",
  "SELECT",
  "FROM",
  "JOIN",
  "WITH",
  "BETWEEN",
  "THEN",
  "ELSE",
  "WHEN",
  "CASE",
  "LIKE",
  "IS",
  "BY",
  "SET",
  "INTO",
  "TABLE",
  "RETURNING",
  "UNION",
  "ALL",
  "DISTINCT",
  "CONFLICT",
  "DO",
]);

export function findCalls(tokens: readonly Token[]): Call[] {
  const calls: Call[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== "word" || tokens[i + 1].text !== "(" || NOT_CALLS.has(t.value)) continue;
    const before = tokens[i - 1];
    // `INSERT INTO t (a, b)`, `UPDATE t (…)`, `schema.fn(…)`, `CREATE INDEX i ON t (…)`.
    if (
      before &&
      (before.value === "INTO" || before.value === "UPDATE" || before.value === "ON" || before.text === ".")
    )
      continue;
    const close = closingParen(tokens, i + 1);
    let args = 0;
    if (close > i + 2) {
      args = 1;
      for (let k = i + 2; k < close; k++)
        if (tokens[k].text === "," && tokens[k].depth === tokens[i + 1].depth + 1) args++;
    }
    calls.push({ name: t.text.toLowerCase(), at: i, open: i + 1, close, args });
  }
  return calls;
}

/** The keyword at token `i` (upper-cased word), or "". */
export function word(ctx: RuleContext, i: number): string {
  const t = ctx.tokens[i];
  return t?.kind === "word" ? t.value : "";
}

// ---------------------------------------------------------------- rules both dialects share

interface FunctionRule {
  /** Missing on these. */
  postgres?: string;
  mysql?: string;
}

const EVERYWHERE_ELSE = "it is SQLite's own";

/** SQLite functions the other backends lack, with what to write there instead. */
export const SQLITE_FUNCTIONS: Record<string, FunctionRule> = {
  strftime: {
    postgres:
      "svc returns timestamps as ISO-8601 text already; to format one, use to_char(ts, 'YYYY-MM-DD') on PostgreSQL or format it in the page",
    mysql:
      "svc returns timestamps as ISO-8601 text already; to format one, use DATE_FORMAT(ts, '%Y-%m-%d') on MySQL or format it in the page",
  },
  julianday: { postgres: "use extract(epoch FROM ts)", mysql: "use UNIX_TIMESTAMP(ts)" },
  unixepoch: { postgres: "use extract(epoch FROM ts)", mysql: "use UNIX_TIMESTAMP(ts)" },
  datetime: {
    postgres: "compare timestamps directly, or pass one as a timestamp parameter (`@since`)",
    mysql: "compare timestamps directly, or pass one as a timestamp parameter (`@since`)",
  },
  iif: {
    postgres: "write CASE WHEN cond THEN a ELSE b END (every backend reads it)",
    mysql: "write CASE WHEN cond THEN a ELSE b END (every backend reads it)",
  },
  printf: {
    postgres: "concatenate with ||, or format the value in the action",
    mysql: "concatenate with ||, or format the value in the action",
  },
  total: { postgres: "write coalesce(sum(x), 0)", mysql: "write coalesce(sum(x), 0)" },
  typeof: { postgres: "pg_typeof(x) is PostgreSQL's (not SQLite's)", mysql: EVERYWHERE_ELSE },
  last_insert_rowid: {
    postgres: "ids are made by the server; `insert` returns the row it wrote",
    mysql: "ids are made by the server; `insert` returns the row it wrote",
  },
  changes: {
    postgres: "a `sql { … }` statement's count of changed rows is not available; check with a query",
    mysql: EVERYWHERE_ELSE,
  },
  total_changes: { postgres: EVERYWHERE_ELSE, mysql: EVERYWHERE_ELSE },
  randomblob: { postgres: "make random values in the action", mysql: "make random values in the action" },
  zeroblob: { postgres: EVERYWHERE_ELSE, mysql: EVERYWHERE_ELSE },
  glob: { postgres: "use LIKE", mysql: "use LIKE" },
  likelihood: {
    postgres: "drop it: it is a hint to SQLite's planner",
    mysql: "drop it: it is a hint to SQLite's planner",
  },
  likely: { postgres: "drop it: it is a hint to SQLite's planner", mysql: "drop it: it is a hint to SQLite's planner" },
  unlikely: {
    postgres: "drop it: it is a hint to SQLite's planner",
    mysql: "drop it: it is a hint to SQLite's planner",
  },
  sqlite_version: { postgres: EVERYWHERE_ELSE, mysql: EVERYWHERE_ELSE },
  sqlite_source_id: { postgres: EVERYWHERE_ELSE, mysql: EVERYWHERE_ELSE },
  unicode: { postgres: "ascii(s) on PostgreSQL", mysql: "ORD(s) on MySQL" },
  json_patch: { postgres: "jsonb || jsonb on PostgreSQL", mysql: "JSON_MERGE_PATCH on MySQL" },
  json_each: { postgres: "jsonb_each / jsonb_array_elements on PostgreSQL", mysql: "JSON_TABLE on MySQL" },
  json_tree: { postgres: EVERYWHERE_ELSE, mysql: EVERYWHERE_ELSE },
  json_array_length: { postgres: "jsonb_array_length on PostgreSQL", mysql: "JSON_LENGTH on MySQL" },
  instr: { postgres: "strpos(s, sub) on PostgreSQL" },
  ifnull: { postgres: "write coalesce(a, b) (every backend reads it)" },
  hex: { postgres: "encode(x, 'hex') on PostgreSQL" },
  unhex: { postgres: "decode(x, 'hex') on PostgreSQL" },
  char: { postgres: "chr(n) on PostgreSQL" },
  quote: { postgres: "bind values with @name; quote_literal is PostgreSQL's" },
  soundex: { postgres: "needs PostgreSQL's fuzzystrmatch extension" },
  group_concat: { postgres: "string_agg(x, ',') on PostgreSQL" },
  json_extract: { postgres: "col->>'key' on PostgreSQL (a jsonb column)" },
  json_insert: { postgres: "jsonb_set on PostgreSQL" },
  json_replace: { postgres: "jsonb_set on PostgreSQL" },
  json_set: { postgres: "jsonb_set on PostgreSQL" },
  json_remove: { postgres: "jsonb - 'key' on PostgreSQL" },
  json_valid: { postgres: "a jsonb column only holds valid JSON" },
  json_quote: { postgres: "to_jsonb(x) on PostgreSQL" },
  json_type: { postgres: "jsonb_typeof on PostgreSQL" },
  log2: { postgres: "log(2, x) on PostgreSQL" },
  trunc: { mysql: "TRUNCATE(x, 0) on MySQL" },
};

export function missingFunctions(
  ctx: RuleContext,
  dialect: "postgres" | "mysql",
  report: (call: Call, hint: string) => void,
): void {
  for (const call of ctx.calls) {
    const rule = SQLITE_FUNCTIONS[call.name];
    const hint = rule?.[dialect];
    if (hint !== undefined) report(call, hint);
  }
}

/** min/max with two or more arguments: SQLite's scalar form. */
export function scalarMinMax(ctx: RuleContext, report: (call: Call) => void): void {
  for (const call of ctx.calls) if ((call.name === "min" || call.name === "max") && call.args >= 2) report(call);
}

/** `(SELECT …)` in FROM or JOIN without a name. */
export function unnamedSubqueries(ctx: RuleContext): TableRef[] {
  return ctx.refs.filter(
    (r) =>
      r.table === null &&
      r.alias === null &&
      ctx.tokens[r.at]?.text === "(" &&
      ["SELECT", "WITH", "VALUES"].includes(word(ctx, r.at + 1)),
  );
}

/** The operand tokens of each LIMIT and OFFSET, with the keyword's index. */
export function limitOperands(ctx: RuleContext): { keyword: number; operand: Token[] }[] {
  const out: { keyword: number; operand: Token[] }[] = [];
  const tokens = ctx.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const v = word(ctx, i);
    if (v !== "LIMIT" && v !== "OFFSET") continue;
    const depth = tokens[i].depth;
    const operand: Token[] = [];
    for (let k = i + 1; k < tokens.length; k++) {
      const t = tokens[k];
      if (t.depth < depth || (t.depth === depth && (t.text === ")" || t.text === ";" || t.value === "OFFSET"))) break;
      operand.push(t);
    }
    out.push({ keyword: i, operand });
  }
  return out;
}

/** The index just past token `i`'s `)` when token `i` is `(`. */
export function pastParen(ctx: RuleContext, open: number): number {
  return closingParen(ctx.tokens, open) + 1;
}

/**
 * SQLite syntax that PostgreSQL and MySQL both refuse: `==`, the index hints `INDEXED BY`
 * and `NOT INDEXED`, and `COLLATE`. Reports the one starting at token `i` and says whether
 * there was one, so each dialect's rules check these once, the same way.
 */
export function sqliteOnlySyntax(ctx: RuleContext, i: number): boolean {
  const { input, where, backendName: backend, out, tokens } = ctx;
  const v = word(ctx, i);
  if (tokens[i].text === "==") {
    out.push(codes.operator.at(input.file, spanOf(ctx, i), where, "==", backend, "write ="));
  } else if ((v === "INDEXED" && word(ctx, i + 1) === "BY") || (v === "NOT" && word(ctx, i + 1) === "INDEXED")) {
    const hint = "drop it: index hints are SQLite's";
    out.push(codes.unsupportedClause.at(input.file, spanOf(ctx, i, i + 1), where, `${v} ${word(ctx, i + 1)}`, backend, hint));
  } else if (v === "COLLATE") {
    const hint = "svc's text compares by bytes on every backend; to ignore case, compare lower(a) = lower(b)";
    out.push(codes.unsupportedClause.at(input.file, spanOf(ctx, i, i + 1), where, `COLLATE ${tokens[i + 1]?.text ?? ""}`, backend, hint));
  } else {
    return false;
  }
  return true;
}
