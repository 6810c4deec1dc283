import { sqlCodes } from "../../../diagnostics/codes/sql.js";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import type { Span } from "../../../parse/ast.js";
import { refByQualifier } from "../refs.js";
import { spanIn } from "../span.js";
import { closest } from "../../../diagnostics/did-you-mean.js";
import { type Token, identName, sameName, tokenize } from "../tokens.js";
import { type CheckContext, prepareError, referencedResources, resourceNamed } from "./context.js";

// SQLite's prepare errors carry no position, so each known message is matched, and the
// name it quotes is found again among the tokens of the SQL as written (outside strings
// and comments) to point the diagnostic at it.

/** A diagnostic for SQLite's refusal to prepare the statement, placed inside the SQL. */
export function prepareDiagnostic(ctx: CheckContext, message: string): Diagnostic {
  const { file, body } = ctx.input;
  const whole = body.span;
  let m: RegExpExecArray | null;
  if ((m = /^no such table: (.+)$/.exec(message))) {
    const parts = namePath(m[1]);
    const table = parts[parts.length - 1];
    const known = ctx.resources.map((r) => r.name);
    const ref = ctx.refs.find((r) => r.table !== null && sameName(r.table, table));
    const span = ref ? tokenSpan(ctx, ctx.tokens[ref.at]) : findPath(ctx, parts);
    return sqlCodes.unknownTable.at(file, span ?? whole, ctx.where, table, closest(table, known), known);
  }
  if ((m = /^no such column: (.+?)(?: - should this be a string literal in single-quotes\?)?$/.exec(message))) {
    const parts = namePath(m[1]);
    const column = parts[parts.length - 1];
    const at = findColumn(ctx, parts);
    const known = knownColumns(ctx, parts.length > 1 ? parts[parts.length - 2] : null);
    const quoted = at !== null && ctx.tokens[at.last].text.startsWith('"');
    const span = at ? spanIn(body, ctx.tokens[at.first].start, ctx.tokens[at.last].end) : whole;
    return sqlCodes.unknownColumn.at(file, span, ctx.where, parts.join("."), closest(column, known), known, quoted);
  }
  if ((m = /^table (\S+) has no column named (.+)$/.exec(message))) {
    // INSERT INTO t (…) naming a column t lacks.
    const [, table, column] = m;
    const at = findColumn(ctx, [column]);
    const known = resourceNamed(ctx, table)?.fields.map((f) => f.name) ?? [];
    const span = at ? spanIn(body, ctx.tokens[at.first].start, ctx.tokens[at.last].end) : whole;
    return sqlCodes.unknownColumn.at(file, span, ctx.where, column, closest(column, known), known, false);
  }
  if ((m = /^ambiguous column name: (.+)$/.exec(message))) {
    const at = findColumn(ctx, namePath(m[1]));
    const span = at ? spanIn(body, ctx.tokens[at.first].start, ctx.tokens[at.last].end) : whole;
    return sqlCodes.ambiguousColumn.at(file, span, ctx.where, m[1]);
  }
  if ((m = /^near "(.*)": syntax error$/s.exec(message))) {
    return sqlCodes.syntax.at(file, syntaxErrorSpan(ctx, m[1], message) ?? whole, ctx.where, message);
  }
  if (message === "incomplete input") {
    const last = ctx.tokens[ctx.tokens.length - 1];
    return sqlCodes.syntax.at(file, last ? tokenSpan(ctx, last) : whole, ctx.where, "the statement ends too early");
  }
  if ((m = /^unrecognized token: "(.*)"$/s.exec(message))) {
    const text = m[1];
    const token = ctx.tokens.find((t) => t.text === text || (text.length > 0 && t.text.startsWith(text)));
    return sqlCodes.syntax.at(file, token ? tokenSpan(ctx, token) : whole, ctx.where, message);
  }
  if ((m = /^(?:no such function: (\w+)|wrong number of arguments to function (\w+)\(\))$/.exec(message))) {
    const name = m[1] ?? m[2];
    const call = ctx.tokens.find((t, i) => t.kind === "word" && sameName(t.text, name) && ctx.tokens[i + 1]?.text === "(");
    return sqlCodes.unknownFunction.at(file, call ? tokenSpan(ctx, call) : whole, ctx.where, message);
  }
  if (/more than one statement/.test(message)) {
    return sqlCodes.multipleStatements.at(file, secondStatementSpan(ctx) ?? whole, ctx.where);
  }
  if (/contains no statements/.test(message)) return sqlCodes.emptySql.at(file, whole, ctx.where);
  return sqlCodes.rejected.at(file, whole, ctx.where, message);
}

/** `a.b` or `"a"."b"` as SQLite quotes it in a message: the names, unquoted. */
function namePath(text: string): string[] {
  return tokenize(text)
    .map((t) => identName(t))
    .filter((n): n is string => n !== null);
}

function tokenSpan(ctx: CheckContext, t: Token): Span {
  return spanIn(ctx.input.body, t.start, t.end);
}

/** Token indexes of the first run `a . b . c` whose names equal `parts`. */
function findRun(
  ctx: CheckContext,
  parts: readonly string[],
  accept: (first: number, last: number) => boolean,
): { first: number; last: number } | null {
  const ts = ctx.tokens;
  for (let i = 0; i < ts.length; i++) {
    let k = i;
    let ok = true;
    for (let p = 0; p < parts.length && ok; p++) {
      if (p > 0) ok = ts[k++]?.text === ".";
      const name = identName(ts[k]);
      ok = ok && name !== null && sameName(name, parts[p]);
      k++;
    }
    if (ok && accept(i, k - 1)) return { first: i, last: k - 1 };
  }
  return null;
}

function findPath(ctx: CheckContext, parts: readonly string[]): Span | null {
  const run = findRun(ctx, parts, () => true);
  return run ? spanIn(ctx.input.body, ctx.tokens[run.first].start, ctx.tokens[run.last].end) : null;
}

/** A column reference: not itself qualified (when unqualified), not a call, not a table name. */
function findColumn(ctx: CheckContext, parts: readonly string[]) {
  const ts = ctx.tokens;
  const tableAt = new Set(ctx.refs.map((r) => r.at));
  return findRun(
    ctx,
    parts,
    (first, last) =>
      ts[first - 1]?.text !== "." && ts[last + 1]?.text !== "(" && ts[last + 1]?.text !== "." && !tableAt.has(first),
  );
}

/** The columns a hint offers: the qualified table's, else those of every table the statement names. */
function knownColumns(ctx: CheckContext, qualifier: string | null): string[] {
  if (qualifier !== null) {
    const ref = refByQualifier(ctx.refs, qualifier);
    const r = resourceNamed(ctx, ref?.table ?? qualifier);
    if (r) return r.fields.map((f) => f.name);
  }
  const resources = referencedResources(ctx);
  const names = (resources.length ? resources : ctx.resources).flatMap((r) => r.fields.map((f) => f.name));
  return [...new Set(names)];
}

/**
 * SQLite names the token it stopped at but not where. A prefix of the SQL that ends
 * right after the true culprit fails with the same message; one ending at an earlier,
 * harmless occurrence of the same text only runs out of input. So the first occurrence
 * whose prefix reproduces the error is the one.
 */
function syntaxErrorSpan(ctx: CheckContext, near: string, message: string): Span | null {
  const text = ctx.input.body.text;
  const candidates = ctx.tokens.filter((t) => t.text === near);
  for (const t of candidates) {
    if (prepareError(ctx.db, text.slice(0, t.end)) === message) return tokenSpan(ctx, t);
  }
  return candidates.length ? tokenSpan(ctx, candidates[0]) : null;
}

/** From the first token after a top-level `;` to the end: the statement that should not be there. */
function secondStatementSpan(ctx: CheckContext): Span | null {
  const ts = ctx.tokens;
  const semi = ts.findIndex((t, i) => t.text === ";" && t.depth === 0 && ts.slice(i + 1).some((u) => u.text !== ";"));
  if (semi < 0) return null;
  const first = ts.slice(semi + 1).find((u) => u.text !== ";")!;
  return spanIn(ctx.input.body, first.start, ts[ts.length - 1].end);
}
