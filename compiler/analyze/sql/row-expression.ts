import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { SqlBody } from "../../parse/ast.js";
import type { Dialect, RowExpression, ScalarType } from "../model/model.js";
import type { ResourceShape } from "./ddl/shared.js";
import { castTypeName } from "./ddl/conversions.js";
import { portableEdits, type SqlEdit } from "./portable.js";
import { KEYWORDS } from "./refs.js";
import { createSqliteChecker } from "./sqlite/check.js";
import { sqlLexemes } from "../../parse/sql-lex.js";
import { closingParen, type Token, tokenize } from "./tokens.js";

// The SQL expressions of a schema change (`using (…)`, `back (…)`, `backfill (…)`): checked by
// SQLite as a query's select item over the table as the expression sees it, then written per
// backend with the rewriting queries get (portable.ts), every column of the row as `{name}`
// (runtime/contract/evolve.ts RowExpression), and CAST's type named as each backend does.

export interface RowCheck {
  /** The type SQLite's checker reads in the expression; "unknown" when it cannot tell. */
  type: ScalarType | "unknown";
  /** The checker's errors, placed in the expression; empty when it prepares. */
  errors: Diagnostic[];
  /** Offsets of `/` between two integers (MySQL writes DIV), in the expression's text. */
  divisions: { start: number; end: number }[];
}

// In parentheses, with the `)` on a line of its own: the expression is one value, and a
// `--` comment at its end cannot swallow what follows.
const PREFIX = "SELECT (";
const SUFFIX = '\n) AS "value" FROM ';

/**
 * Checks `body` as `SELECT (<body>) FROM <table>` against `table` alone (the table as the
 * expression sees it). The checker's errors keep their place: the synthetic query's text
 * starts where the expression's does, moved back by the length of `SELECT (`.
 */
export function checkRowExpression(file: string, body: SqlBody, table: ResourceShape): RowCheck {
  const checker = createSqliteChecker([table]);
  try {
    const start = body.span.start;
    const query: SqlBody = {
      kind: "Sql",
      text: `${PREFIX}${body.text}${SUFFIX}${quote(table.name)}`,
      span: { start: { offset: start.offset - PREFIX.length, line: start.line, column: start.column - PREFIX.length }, end: body.span.end },
      params: [],
    };
    const result = checker.check({ file, body: query, params: [], kind: "query", name: table.name });
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    const divisions = result.jsonValues
      .filter((v) => v.type === "intDivision")
      .map((v) => ({ start: v.start - PREFIX.length, end: v.end - PREFIX.length }));
    return { type: errors.length > 0 ? "unknown" : (result.columns[0]?.type ?? "unknown"), errors, divisions };
  } finally {
    checker.dispose();
  }
}

/**
 * The expression per backend: each reference to a column of `columns` (bare, quoted, or
 * qualified by the table) becomes `{name}` spelled as declared; the rest as queries write it.
 */
export function rowExpression(written: string, table: string, columns: readonly string[], divisions: readonly { start: number; end: number }[] = []): RowExpression {
  // The runtime writes the expression into statements of its own: a comment could hide what follows it.
  const text = withoutComments(written);
  const tokens = tokenize(text);
  const byName = new Map(columns.map((c) => [c.toLowerCase(), c]));
  const edits: SqlEdit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const name = columnAt(tokens, i, byName);
    if (name !== undefined) {
      // `task.title`: the qualifier goes with the column.
      const qualified = tokens[i - 1]?.text === "." && sameWord(tokens[i - 2], table);
      const start = qualified ? tokens[i - 2].start : t.start;
      const ref = `{${name}}`;
      edits.push({ start, end: t.end, text: { sqlite: ref, postgres: ref, mysql: ref } });
      continue;
    }
    if (t.kind === "word" && t.value === "AS" && insideCast(tokens, i) && tokens[i + 1]?.kind === "word") {
      const spelled = castTypeName(tokens[i + 1].text);
      if (spelled) edits.push({ start: tokens[i + 1].start, end: tokens[i + 1].end, text: spelled });
    }
  }
  const taken = (e: SqlEdit) => edits.some((x) => e.start < x.end && x.start < e.end);
  const values = divisions.map((d) => ({ ...d, type: "intDivision" as const }));
  edits.push(...portableEdits(tokens, values).filter((e) => !taken(e)));
  edits.sort((a, b) => a.start - b.start || Number(b.start === b.end) - Number(a.start === a.end));
  const render = (dialect: Dialect) => {
    let out = "";
    let cursor = 0;
    for (const e of edits) {
      out += text.slice(cursor, e.start) + e.text[dialect];
      cursor = e.end;
    }
    const sql = (out + text.slice(cursor)).trim();
    return primary(tokens) ? sql : `(${sql})`;
  };
  return { sqlite: render("sqlite"), postgres: render("postgres"), mysql: render("mysql") };
}

/** `text` with each comment blanked out, offsets unchanged (line breaks kept). */
function withoutComments(text: string): string {
  let out = "";
  let cursor = 0;
  for (const l of sqlLexemes(text)) {
    out += text.slice(cursor, l.start).replace(/[^\s]/g, " ") + text.slice(l.start, l.end);
    cursor = l.end;
  }
  return out + text.slice(cursor).replace(/[^\s]/g, " ");
}

/** One value that binds tighter than any operator: a literal, a column, a call, a CAST, CASE … END. */
function primary(tokens: readonly Token[]): boolean {
  const top = tokens.filter((t) => t.depth === 0);
  if (top.length === 1) return true;
  if (tokens[0]?.value === "CASE" && tokens[tokens.length - 1]?.value === "END") return !top.slice(1, -1).some((t) => t.value === "CASE");
  return top.length === 3 && top[0].kind === "word" && top[1].text === "(" && top[2].text === ")" && tokens[tokens.length - 1] === top[2];
}

/** The declared column token `i` names, or undefined: not a function, a keyword, or another table's column. */
function columnAt(tokens: readonly Token[], i: number, byName: ReadonlyMap<string, string>): string | undefined {
  const t = tokens[i];
  if (t.kind !== "word" && t.kind !== "quoted") return undefined;
  if (t.kind === "word" && KEYWORDS.has(t.value)) return undefined;
  if (tokens[i + 1]?.text === "(" || tokens[i + 1]?.text === ".") return undefined;
  if (t.kind === "word" && tokens[i - 1]?.kind === "word" && tokens[i - 1].value === "AS") return undefined;
  return byName.get((t.kind === "quoted" ? t.value : t.text).toLowerCase());
}

function sameWord(t: Token | undefined, name: string): boolean {
  if (t === undefined || (t.kind !== "word" && t.kind !== "quoted")) return false;
  return (t.kind === "quoted" ? t.value : t.text).toLowerCase() === name.toLowerCase();
}

/** Is the `AS` at `i` the one of `CAST(x AS type)`? */
function insideCast(tokens: readonly Token[], i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    const t = tokens[k];
    if (t.text === "(" && t.depth === tokens[i].depth - 1) return tokens[k - 1]?.value === "CAST" && closingParen(tokens, k) > i;
  }
  return false;
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
