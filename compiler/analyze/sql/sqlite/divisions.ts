import type { JsonValueFix } from "../dialect.js";
import { type Token, closingParen } from "../tokens.js";
import type { CheckContext } from "./context.js";
import { exprType } from "./expr-type.js";

// `/` of two ints divides as ints on SQLite and PostgreSQL (7 / 2 is 3) and as decimals on
// MySQL (3.5000). svc writes such a `/` as MySQL's `DIV`, which truncates toward zero as the
// others do, wherever the checker knows both operands are ints (docs/backends.md, "PostgreSQL
// and MySQL traps"). An operand is what `/` binds: a value, a name, a call, a parenthesized
// or CASE expression, with a unary sign, and on the left the `*`, `/`, `%` chain before it.

const CHAIN = new Set(["*", "/", "%"]);

/** The `/` tokens of the query whose two operands are ints, as `intDivision` fixes. */
export function intDivisions(ctx: CheckContext): JsonValueFix[] {
  const { tokens } = ctx;
  const out: JsonValueFix[] = [];
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (tokens[i].text !== "/") continue;
    const right = operandAfter(tokens, i + 1);
    const from = leftChainStart(tokens, i);
    if (right === null || from === null || tokens[right + 1]?.text === "||") continue;
    const left = exprType(ctx, tokens.slice(from, i));
    const rightType = exprType(ctx, tokens.slice(i + 1, right + 1));
    if (left?.type === "int" && rightType?.type === "int") out.push({ start: tokens[i].start, end: tokens[i].end, type: "intDivision" });
  }
  return out;
}

/** The index of the last token of the operand that starts at `at`; null when it is not one. */
function operandAfter(tokens: readonly Token[], at: number): number | null {
  let i = at;
  if (tokens[i]?.text === "-" || tokens[i]?.text === "+") i++;
  const t = tokens[i];
  if (t === undefined) return null;
  if (t.text === "(") return closingParen(tokens, i) < tokens.length ? closingParen(tokens, i) : null;
  if (t.kind === "word" && t.value === "CASE") return caseEnd(tokens, i);
  if (t.kind === "word" && tokens[i + 1]?.text === "(") return closingParen(tokens, i + 1) < tokens.length ? closingParen(tokens, i + 1) : null;
  if ((t.kind === "word" || t.kind === "quoted") && tokens[i + 1]?.text === ".") return tokens[i + 2] ? i + 2 : null;
  if (["word", "quoted", "number", "param"].includes(t.kind)) return i;
  return null;
}

/** Where the left operand of the `/` at `slash` starts, through the `*` `/` `%` chain before it. */
function leftChainStart(tokens: readonly Token[], slash: number): number | null {
  let end = slash - 1;
  for (;;) {
    const start = operandBefore(tokens, end);
    if (start === null) return null;
    let first = start;
    const sign = tokens[first - 1];
    if ((sign?.text === "-" || sign?.text === "+") && !isValueEnd(tokens[first - 2])) first--;
    if (!CHAIN.has(tokens[first - 1]?.text ?? "") || tokens[first - 1].depth !== tokens[slash].depth) return first;
    end = first - 2;
  }
}

/** The first token of the operand that ends at `end`; null when it is not one. */
function operandBefore(tokens: readonly Token[], end: number): number | null {
  const t = tokens[end];
  if (t === undefined) return null;
  if (t.text === ")") {
    const open = tokens.findLastIndex((o, k) => k < end && o.text === "(" && o.depth === t.depth);
    if (open < 0) return null;
    return tokens[open - 1]?.kind === "word" && isCallName(tokens[open - 1]) ? open - 1 : open;
  }
  if (t.kind === "word" && t.value === "END") {
    let depth = 0;
    for (let k = end; k >= 0; k--) {
      if (tokens[k].depth !== t.depth || tokens[k].kind !== "word") continue;
      if (tokens[k].value === "END") depth++;
      else if (tokens[k].value === "CASE" && --depth === 0) return k;
    }
    return null;
  }
  if (!["word", "quoted", "number", "param"].includes(t.kind)) return null;
  if (tokens[end - 1]?.text === "." && tokens[end - 2]) return end - 2;
  return end;
}

const NOT_CALLS = new Set(["IN", "EXISTS", "AND", "OR", "NOT", "WHEN", "THEN", "ELSE", "SELECT", "WHERE", "ON", "AS", "BY", "VALUES"]);
const isCallName = (t: Token): boolean => !NOT_CALLS.has(t.value);

/** Whether `t` ends a value (so a `-` after it is binary, not a sign). */
function isValueEnd(t: Token | undefined): boolean {
  if (t === undefined) return false;
  if (t.text === ")") return true;
  if (t.kind === "word") return t.value === "END" || !NOT_CALLS.has(t.value);
  return ["quoted", "number", "param", "string"].includes(t.kind);
}

function caseEnd(tokens: readonly Token[], at: number): number | null {
  let depth = 0;
  for (let k = at; k < tokens.length; k++) {
    if (tokens[k].depth !== tokens[at].depth || tokens[k].kind !== "word") continue;
    if (tokens[k].value === "CASE") depth++;
    else if (tokens[k].value === "END" && --depth === 0) return k;
  }
  return null;
}
