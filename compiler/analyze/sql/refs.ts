import { type Token, closingParen, identName, sameName } from "./tokens.js";

// Which tables a statement reads, under which aliases, and which of them sit on the
// nullable side of an outer join. Read from tokens, not a full parse: good enough for
// hints, nullability and index suggestions, never for deciding validity (SQLite does that).

/** Words that end a table reference instead of naming its alias. */
export const KEYWORDS = new Set(
  (
    "ALL AND AS ASC BETWEEN BY CASE CAST COLLATE CROSS CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP " +
    "DEFAULT DELETE DESC DISTINCT DO ELSE END ESCAPE EXCEPT EXISTS FILTER FROM FULL GLOB GROUP HAVING IN " +
    "INDEXED INNER INSERT INTERSECT INTO IS ISNULL JOIN LEFT LIKE LIMIT MATCH NATURAL NOT NOTHING NOTNULL " +
    "NULL NULLS OFFSET ON OR ORDER OUTER OVER REGEXP RETURNING RIGHT SELECT SET THEN UNION UPDATE USING " +
    "VALUES WHEN WHERE WINDOW WITH"
  ).split(" "),
);

export interface TableRef {
  /** The table as written (last part of `schema.table`); null for a subquery or a table function. */
  table: string | null;
  alias: string | null;
  /** On the nullable side of a LEFT/RIGHT/FULL join. */
  nullable: boolean;
  /** Token index of the table name (or of the subquery's `(`). */
  at: number;
  /** Token index of the `(` enclosing the reference; -1 at the top level. */
  scope: number;
}

/** For each token, the index of the `(` that encloses it; -1 at the top level. */
export function enclosingParens(tokens: readonly Token[]): number[] {
  const stack: number[] = [];
  return tokens.map((t, i) => {
    if (t.text === ")") stack.pop();
    const parent = stack.length ? stack[stack.length - 1] : -1;
    if (t.text === "(") stack.push(i);
    return parent;
  });
}

export function tableRefs(tokens: readonly Token[]): TableRef[] {
  const parents = enclosingParens(tokens);
  const refs: TableRef[] = [];
  /** Per scope, where the refs of its current FROM list begin: a RIGHT join makes them all nullable. */
  const fromStart = new Map<number, number>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== "word") continue;
    const scope = parents[i];
    if ((t.value === "FROM" && tokens[i - 1]?.value !== "DISTINCT") || t.value === "INTO") {
      fromStart.set(scope, refs.length);
      let at = i + 1;
      for (;;) {
        const parsed = readRef(tokens, at, scope, t.value === "FROM");
        if (!parsed) break;
        refs.push(parsed.ref);
        at = parsed.next;
        if (t.value === "INTO" || tokens[at]?.text !== ",") break;
        at++;
      }
    } else if (t.value === "UPDATE" && (i === 0 || tokens[i - 1].value !== "DO")) {
      let at = i + 1;
      if (tokens[at]?.value === "OR") at += 2;
      const parsed = readRef(tokens, at, scope, false);
      if (parsed) refs.push(parsed.ref);
    } else if (t.value === "JOIN") {
      const parsed = readRef(tokens, i + 1, scope, true);
      if (!parsed) continue;
      const kind = joinKind(tokens, i);
      if (kind === "RIGHT" || kind === "FULL") {
        for (let k = fromStart.get(scope) ?? refs.length; k < refs.length; k++) {
          if (refs[k].scope === scope) refs[k].nullable = true;
        }
      }
      parsed.ref.nullable = kind === "LEFT" || kind === "FULL";
      refs.push(parsed.ref);
    }
  }
  return refs;
}

function joinKind(tokens: readonly Token[], join: number): string {
  for (let k = join - 1; k >= 0 && k >= join - 3; k--) {
    const v = tokens[k].value;
    if (v === "LEFT" || v === "RIGHT" || v === "FULL") return v;
    if (v !== "OUTER" && v !== "NATURAL") break;
  }
  return "INNER";
}

/** `calls`: a name followed by `(` is a table-valued function (in FROM), not `INSERT INTO t (columns)`. */
function readRef(tokens: readonly Token[], at: number, scope: number, calls: boolean): { ref: TableRef; next: number } | null {
  const first = tokens[at];
  if (!first) return null;
  let table: string | null = null;
  let next: number;
  if (first.text === "(") {
    next = closingParen(tokens, at) + 1;
  } else {
    const name = identName(first);
    if (name === null || (first.kind === "word" && KEYWORDS.has(first.value))) return null;
    table = name;
    next = at + 1;
    if (tokens[next]?.text === "." && identName(tokens[next + 1]) !== null) {
      table = identName(tokens[next + 1]);
      next += 2;
    }
    if (calls && tokens[next]?.text === "(") {
      // A table-valued function such as json_each(…): not a declared table.
      table = null;
      next = closingParen(tokens, next) + 1;
    }
  }
  let alias: string | null = null;
  if (tokens[next]?.value === "AS" && identName(tokens[next + 1]) !== null) {
    alias = identName(tokens[next + 1]);
    next += 2;
  } else if (isAliasToken(tokens[next])) {
    alias = identName(tokens[next]);
    next += 1;
  }
  return { ref: { table, alias, nullable: false, at, scope }, next };
}

function isAliasToken(t: Token | undefined): boolean {
  return t !== undefined && (t.kind === "quoted" || (t.kind === "word" && !KEYWORDS.has(t.value)));
}

/** The reference a qualifier (`t` in `t.col`) names: its alias, else its table name. */
export function refByQualifier(refs: readonly TableRef[], qualifier: string): TableRef | undefined {
  return (
    refs.find((r) => r.alias !== null && sameName(r.alias, qualifier)) ??
    refs.find((r) => r.alias === null && r.table !== null && sameName(r.table, qualifier))
  );
}
