import { KEYWORDS } from "./refs.js";
import { type Token, identName } from "./tokens.js";

// The clauses the checker reads from tokens: the select list, the equality conjuncts of
// WHERE/ON, and ORDER BY. Each works on the tokens of one scope (one parenthesis level).

/** `col` or `q.col` */
export interface ColumnRef {
  qualifier: string | null;
  column: string;
}

export interface SelectItem {
  /** Offsets of the item's text (alias included) in the tokenized text. */
  start: number;
  end: number;
  /** The expression's tokens, alias excluded. */
  expr: Token[];
  alias: string | null;
  /** `*` (qualifier null) or `q.*`. */
  star: { qualifier: string | null } | null;
  /** The expression when it is a plain column reference. */
  column: ColumnRef | null;
}

export interface OrderItem {
  column: ColumnRef;
  desc: boolean;
}

const CLAUSE_END = new Set([
  "FROM",
  "WHERE",
  "GROUP",
  "HAVING",
  "WINDOW",
  "ORDER",
  "LIMIT",
  "OFFSET",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "RETURNING",
  "ON",
  "USING",
  "JOIN",
  "LEFT",
  "RIGHT",
  "FULL",
  "INNER",
  "CROSS",
  "NATURAL",
  "SET",
  "VALUES",
]);

/**
 * Tokens of the clause that `keyword` opens at the depth of `at`, up to the next clause
 * keyword or the `)` closing that level. `at` is the keyword's own index.
 */
export function clauseTokens(tokens: readonly Token[], at: number, ends: ReadonlySet<string> = CLAUSE_END): Token[] {
  const depth = tokens[at].depth;
  const out: Token[] = [];
  for (let i = at + 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.depth < depth || (t.depth === depth && (t.text === ";" || (t.kind === "word" && ends.has(t.value))))) break;
    out.push(t);
  }
  return out;
}

/** Reads `col` or `q.col` at the start of `ts`; the number of tokens it took. */
function readColumn(ts: readonly Token[], from = 0): { ref: ColumnRef; length: number } | null {
  const a = ts[from];
  const name = identName(a);
  if (name === null || (a.kind === "word" && KEYWORDS.has(a.value))) return null;
  if (ts[from + 1]?.text === "." && identName(ts[from + 2]) !== null) {
    return { ref: { qualifier: name, column: identName(ts[from + 2])! }, length: 3 };
  }
  return { ref: { qualifier: null, column: name }, length: 1 };
}

/** Splits at `sep` tokens lying at the depth of the first token. */
function split(ts: readonly Token[], isSep: (t: Token) => boolean): Token[][] {
  if (ts.length === 0) return [];
  const depth = ts[0].depth;
  const parts: Token[][] = [[]];
  for (const t of ts) {
    if (t.depth === depth && isSep(t)) parts.push([]);
    else parts[parts.length - 1].push(t);
  }
  return parts;
}

/**
 * Columns that a WHERE or ON clause requires to equal something (`col = x` or `x = col`),
 * only in top-level AND conjuncts: under an OR no single column is required.
 */
export function equalityColumns(clause: readonly Token[]): ColumnRef[] {
  if (clause.length === 0) return [];
  const depth = clause[0].depth;
  if (clause.some((t) => t.depth === depth && t.value === "OR")) return [];
  const conjuncts: Token[][] = [[]];
  let between = false;
  for (const t of clause) {
    if (t.depth === depth && t.value === "BETWEEN") between = true;
    if (t.depth === depth && t.value === "AND" && !between) conjuncts.push([]);
    else {
      if (t.depth === depth && t.value === "AND") between = false;
      conjuncts[conjuncts.length - 1].push(t);
    }
  }
  const out: ColumnRef[] = [];
  for (const c of conjuncts) {
    const eq = c.findIndex((t) => t.depth === depth && (t.text === "=" || t.text === "=="));
    if (eq < 0) continue;
    const left = readColumn(c);
    if (left && left.length === eq) out.push(left.ref);
    else {
      const right = readColumn(c, eq + 1);
      if (right && eq + 1 + right.length === c.length) out.push(right.ref);
    }
  }
  return out;
}

/** ORDER BY items, or null when one of them is not a plain column (an expression, COLLATE, a number). */
export function orderItems(clause: readonly Token[]): OrderItem[] | null {
  const items: OrderItem[] = [];
  for (const part of split(clause, (t) => t.text === ",")) {
    const col = readColumn(part);
    if (!col) return null;
    let rest = part.slice(col.length).map((t) => t.value);
    let desc = false;
    if (rest[0] === "ASC" || rest[0] === "DESC") {
      desc = rest[0] === "DESC";
      rest = rest.slice(1);
    }
    if (rest.length && !(rest[0] === "NULLS" && rest.length === 2)) return null;
    items.push({ column: col.ref, desc });
  }
  return items.length ? items : null;
}

/** The select list that follows the SELECT at `at`. */
export function selectItems(tokens: readonly Token[], at: number): SelectItem[] {
  let list = clauseTokens(tokens, at);
  if (list[0]?.value === "DISTINCT" || list[0]?.value === "ALL") list = list.slice(1);
  return split(list, (t) => t.text === ",")
    .filter((part) => part.length > 0)
    .map((part) => {
      let expr = part;
      let alias: string | null = null;
      const last = part[part.length - 1];
      const before = part[part.length - 2];
      if (part.length >= 2 && before.value === "AS" && identName(last) !== null) {
        alias = identName(last);
        expr = part.slice(0, -2);
      } else if (part.length >= 2 && isBareAlias(before, last)) {
        alias = identName(last);
        expr = part.slice(0, -1);
      }
      const col = readColumn(expr);
      let star: SelectItem["star"] = null;
      if (expr.length === 1 && expr[0].text === "*") star = { qualifier: null };
      else if (expr.length === 3 && expr[1].text === "." && expr[2].text === "*") star = { qualifier: identName(expr[0]) };
      return {
        start: part[0].start,
        end: last.end,
        expr,
        alias,
        star,
        column: col && col.length === expr.length ? col.ref : null,
      };
    });
}

/** `expr alias` without AS: a name right after something that ends an expression. */
function isBareAlias(before: Token, last: Token): boolean {
  if (last.kind !== "quoted" && (last.kind !== "word" || KEYWORDS.has(last.value))) return false;
  if (before.text === ")" || before.value === "END") return true;
  if (before.kind === "number" || before.kind === "string" || before.kind === "quoted" || before.kind === "param") return true;
  return before.kind === "word" && !KEYWORDS.has(before.value);
}
