import type { ScalarType } from "../../model/model.js";
import { selectItems } from "../clauses.js";
import { JSON_FUNCTIONS } from "../portable.js";
import { KEYWORDS, refByQualifier } from "../refs.js";
import { type Token, closingParen, identName } from "../tokens.js";
import { type CheckContext, fieldNamed, resourceNamed } from "./context.js";

// The type of a select-list expression, read from its tokens: what every backend returns
// for it, so the row's JSON can be the same everywhere (a comparison is a boolean, not 0/1
// or "t"; count is a number). Null when the tokens say nothing certain: the column is then
// `unknown`, and an annotation (`AS "name: type"`) can say what it is.

export interface ExprType {
  type: ScalarType;
  enumValues: string[];
  nullable: boolean;
}

const COMPARISONS = new Set(["=", "==", "!=", "<>", "<", ">", "<=", ">="]);
const PREDICATE_WORDS = new Set(["IS", "IN", "LIKE", "GLOB", "BETWEEN", "ISNULL", "NOTNULL", "REGEXP", "MATCH"]);
// `/` of ints is an int: SQLite and PostgreSQL truncate, and MySQL gets DIV (divisions.ts).
const ARITHMETIC = new Set(["+", "-", "*", "/"]);
const TEXT_FUNCTIONS = new Set(["lower", "upper", "trim", "ltrim", "rtrim", "substr", "substring", "replace"]);
const CASTS: Record<string, ScalarType> = {
  INTEGER: "int",
  INT: "int",
  BIGINT: "int",
  SMALLINT: "int",
  REAL: "float",
  FLOAT: "float",
  DOUBLE: "float",
  TEXT: "text",
  VARCHAR: "text",
  CHAR: "text",
};

const scalar = (type: ScalarType, nullable: boolean, enumValues: string[] = []): ExprType => ({ type, enumValues, nullable });

/** `ts`: the tokens of one expression (a select item without its alias). */
export function exprType(ctx: CheckContext, ts: readonly Token[]): ExprType | null {
  return typeOf(ctx, ts)?.value ?? null;
}

/** `value` null with `isNull`: the literal NULL, which takes any type. */
interface Typed {
  value: ExprType | null;
  isNull?: boolean;
}

function typeOf(ctx: CheckContext, ts: readonly Token[]): Typed | null {
  if (ts.length === 0) return null;
  const depth = ts[0].depth;
  if (ts[0].text === "(" && closingParen(ts, 0) === ts.length - 1) {
    const inner = ts.slice(1, -1);
    return inner[0]?.value === "SELECT" ? subquery(ctx, inner) : typeOf(ctx, inner);
  }
  const top = topLevel(ts, depth);
  const isLogical = (t: Token) => t.value === "OR" || t.value === "AND";
  // `x BETWEEN a AND b` is one comparison; any other AND/OR joins conditions.
  if (splitTop(ts, depth, isLogical).length > 1) {
    return { value: scalar("bool", operandsNullable(ctx, ts, depth, isLogical)) };
  }
  if (ts[0].value === "NOT") return { value: scalar("bool", typeOf(ctx, ts.slice(1))?.value?.nullable ?? true) };
  if (ts[0].value === "EXISTS" && ts[1]?.text === "(" && closingParen(ts, 1) === ts.length - 1) {
    return { value: scalar("bool", false) };
  }
  if (top.some((t) => t.value === "IS" || t.value === "ISNULL" || t.value === "NOTNULL")) return { value: scalar("bool", false) };
  if (top.some((t) => COMPARISONS.has(t.text))) {
    return { value: scalar("bool", operandsNullable(ctx, ts, depth, (t) => COMPARISONS.has(t.text))) };
  }
  if (top.some((t) => t.kind === "word" && PREDICATE_WORDS.has(t.value))) return { value: scalar("bool", true) };
  if (top.some((t) => t.text === "||")) return { value: scalar("text", true) };
  if (top.some((t) => ARITHMETIC.has(t.text) && t !== ts[0])) return arithmetic(ctx, ts, depth);
  if (ts.length === 1) return single(ctx, ts[0]);
  if (ts[0].text === "-" && ts.length === 2 && ts[1].kind === "number") return single(ctx, ts[1]);
  if (ts.length === 3 && ts[1].text === ".") return column(ctx, ts[0], identName(ts[0]), identName(ts[2]));
  if (ts[0].value === "CAST" && ts[1]?.text === "(" && closingParen(ts, 1) === ts.length - 1) return cast(ctx, ts);
  if (ts[0].value === "CASE" && ts[ts.length - 1].value === "END") return caseType(ctx, ts);
  if (ts[0].kind === "word" && ts[1]?.text === "(" && closingParen(ts, 1) === ts.length - 1) return call(ctx, ts);
  return null;
}

/** The tokens at `depth` outside CASE … END (whose WHEN conditions are not the value). */
function topLevel(ts: readonly Token[], depth: number): Token[] {
  const out: Token[] = [];
  let cases = 0;
  for (const t of ts) {
    if (t.depth !== depth) continue;
    if (t.value === "CASE") cases++;
    else if (t.value === "END" && cases > 0) cases--;
    else if (cases === 0) out.push(t);
  }
  return out;
}

/** Splits at top-level separators; true unless every part is known never to be null. */
function operandsNullable(ctx: CheckContext, ts: readonly Token[], depth: number, isSep: (t: Token) => boolean): boolean {
  const parts = splitTop(ts, depth, isSep);
  return parts.some((p) => {
    const t = typeOf(ctx, p);
    return t === null || t.isNull === true || t.value === null || t.value.nullable;
  });
}

function splitTop(ts: readonly Token[], depth: number, isSep: (t: Token) => boolean): Token[][] {
  const parts: Token[][] = [[]];
  let cases = 0;
  let between = false;
  for (const t of ts) {
    if (t.depth === depth && t.value === "CASE") cases++;
    if (t.depth === depth && t.value === "END" && cases > 0) cases--;
    if (t.depth === depth && t.value === "BETWEEN") between = true;
    if (t.depth === depth && cases === 0 && isSep(t) && !(between && t.value === "AND")) parts.push([]);
    else {
      if (t.depth === depth && t.value === "AND") between = false;
      parts[parts.length - 1].push(t);
    }
  }
  return parts;
}

function arithmetic(ctx: CheckContext, ts: readonly Token[], depth: number): Typed | null {
  const parts = splitTop(ts, depth, (t) => ARITHMETIC.has(t.text));
  if (parts.some((p) => p.length === 0)) return null;
  const types = parts.map((p) => typeOf(ctx, p));
  if (types.some((t) => t === null || t.value === null || (t.value.type !== "int" && t.value.type !== "float"))) return null;
  const values = types.map((t) => t!.value!);
  return { value: scalar(values.every((v) => v.type === "int") ? "int" : "float", values.some((v) => v.nullable)) };
}

function single(ctx: CheckContext, t: Token): Typed | null {
  if (t.kind === "number") return { value: scalar(/^\d+$/.test(t.text) ? "int" : "float", false) };
  if (t.kind === "string") return { value: scalar("text", false) };
  if (t.kind === "param") {
    const p = ctx.input.params.find((p) => `@${p.name}` === t.text);
    return p ? { value: scalar(p.type, p.nullable, [...p.enumValues]) } : null;
  }
  if (t.kind === "word" && (t.value === "TRUE" || t.value === "FALSE")) return { value: scalar("bool", false) };
  if (t.kind === "word" && t.value === "NULL") return { value: null, isNull: true };
  if (t.kind === "word" && KEYWORDS.has(t.value)) return null;
  return column(ctx, t, null, identName(t));
}

/** A column reference starting at token `first`, resolved through the tables visible where it stands. */
function column(ctx: CheckContext, first: Token, qualifier: string | null, name: string | null): Typed | null {
  if (name === null) return null;
  const at = ctx.tokens.indexOf(first);
  const scopes = at >= 0 ? scopeChain(ctx, at) : [-1];
  for (const scope of scopes) {
    const refs = ctx.refs.filter((r) => r.scope === scope);
    const ref =
      qualifier !== null
        ? refByQualifier(refs, qualifier)
        : (() => {
            const having = refs.filter((r) => fieldNamed(resourceNamed(ctx, r.table), name));
            return having.length === 1 ? having[0] : undefined;
          })();
    if (!ref) continue;
    const field = fieldNamed(resourceNamed(ctx, ref.table), name);
    return field ? { value: scalar(field.type, field.nullable || ref.nullable, [...field.enumValues]) } : null;
  }
  return null;
}

function scopeChain(ctx: CheckContext, at: number): number[] {
  const chain: number[] = [];
  for (let p = ctx.parents[at]; ; p = ctx.parents[p]) {
    chain.push(p);
    if (p === -1) return chain;
  }
}

/** `(SELECT x …)`: x's type; null when no row matches, unless x is an aggregate over the whole table. */
function subquery(ctx: CheckContext, inner: readonly Token[]): Typed | null {
  const items = selectItems(inner, 0);
  if (items.length !== 1 || items[0].star) return null;
  const item = typeOf(ctx, items[0].expr);
  if (!item?.value) return null;
  const grouped = inner.some((t) => t.depth === inner[0].depth && (t.value === "GROUP" || t.value === "LIMIT"));
  const alwaysOneRow = !grouped && isTotal(items[0].expr);
  return { value: { ...item.value, nullable: item.value.nullable || !alwaysOneRow } };
}

/** An aggregate that gives a value even over no rows: count and svc's JSON aggregates. */
function isTotal(ts: readonly Token[]): boolean {
  if (ts.length < 3 || ts[0].kind !== "word" || ts[1].text !== "(") return false;
  const name = ts[0].value.toLowerCase();
  return name === "count" || JSON_FUNCTIONS.get(name)?.aggregate === true;
}

/** `CASE … WHEN … THEN a … ELSE b END`: the branches' one type; null without ELSE (no branch taken). */
function caseType(ctx: CheckContext, ts: readonly Token[]): Typed | null {
  const depth = ts[0].depth;
  const branches: Token[][] = [];
  let current: Token[] | null = null;
  let nested = 0;
  let closed = false;
  for (let i = 1; i < ts.length - 1; i++) {
    const t = ts[i];
    if (t.depth === depth && t.value === "CASE") nested++;
    if (t.depth === depth && t.value === "END" && nested > 0) {
      nested--;
    } else if (t.depth === depth && nested === 0 && ["WHEN", "THEN", "ELSE"].includes(t.value)) {
      current = t.value === "WHEN" ? null : [];
      if (current) branches.push(current);
      if (t.value === "ELSE") closed = true;
      continue;
    }
    current?.push(t);
  }
  if (branches.length === 0) return null;
  const typed = coalesce(ctx, branches, "any");
  return typed?.value && !closed ? { value: { ...typed.value, nullable: true } } : typed;
}

function cast(ctx: CheckContext, ts: readonly Token[]): Typed | null {
  const inner = ts.slice(2, -1);
  const as = inner.findIndex((t) => t.value === "AS" && t.depth === ts[1].depth + 1);
  const target = as >= 0 ? inner[as + 1]?.value : undefined;
  const type = target ? CASTS[target] : undefined;
  if (!type) return null;
  const operand = typeOf(ctx, inner.slice(0, as));
  return { value: scalar(type, operand?.value?.nullable ?? !(operand?.isNull === false)) };
}

function call(ctx: CheckContext, ts: readonly Token[]): Typed | null {
  const name = ts[0].value.toLowerCase();
  const args = splitTop(ts.slice(2, -1), ts[1].depth + 1, (t) => t.text === ",").filter((a) => a.length > 0);
  if (name === "count") return { value: scalar("int", false) };
  // svc writes random() as a float in [0, 1) on every backend (portable.ts).
  if (name === "random" && args.length === 0) return { value: scalar("float", false) };
  const family = JSON_FUNCTIONS.get(name);
  if (family) return { value: scalar("json", false) };
  if (name === "json") return { value: scalar("json", args.length !== 1 || (typeOf(ctx, args[0])?.value?.nullable ?? true)) };
  if (name === "length") return { value: scalar("int", args.length !== 1 || (typeOf(ctx, args[0])?.value?.nullable ?? true)) };
  if (TEXT_FUNCTIONS.has(name) && args.length > 0) {
    return { value: scalar("text", args.some((a) => typeOf(ctx, a)?.value?.nullable ?? true)) };
  }
  if (args.length !== 1 && name !== "coalesce" && name !== "ifnull") return null;
  if (name === "sum" || name === "min" || name === "max") {
    const arg = typeOf(ctx, args[0])?.value;
    if (!arg || (name === "sum" && arg.type !== "int" && arg.type !== "float")) return null;
    // Over no rows these are NULL.
    return { value: { ...arg, nullable: true } };
  }
  if (name === "avg") return { value: scalar("float", true) };
  if (name === "abs") return typeOf(ctx, args[0]);
  if (name === "coalesce" || name === "ifnull") return coalesce(ctx, args);
  return null;
}

/**
 * The arguments' one type (a text literal may stand for JSON). `nullWhen`: coalesce is null
 * only when every argument may be; a CASE when any branch may be (or there is no ELSE).
 */
function coalesce(ctx: CheckContext, args: readonly Token[][], nullWhen: "every" | "any" = "every"): Typed | null {
  const types = args.map((a) => typeOf(ctx, a));
  if (types.some((t) => t === null)) return null;
  const known = types.filter((t) => t!.value !== null).map((t) => t!.value!);
  if (known.length === 0) return null;
  const json = known.find((t) => t.type === "json");
  const main = json ?? known[0];
  const agree = known.every(
    (t) =>
      t.type === main.type ||
      (main.type === "json" && t.type === "text") ||
      (main.type === "float" && t.type === "int") ||
      (main.type === "int" && t.type === "float"),
  );
  if (!agree) return null;
  const type = main.type === "int" && known.some((t) => t.type === "float") ? "float" : main.type;
  const nullable =
    nullWhen === "every"
      ? known.every((t) => t.nullable)
      : types.some((t) => t!.isNull === true) || known.some((t) => t.nullable);
  return { value: scalar(type, nullable, main.enumValues) };
}
