// Where NULL sorts, on every backend as on SQLite (docs/backends.md, "PostgreSQL traps"):
// SQLite and MySQL take NULL as smaller than any value (first in ascending order, last in
// descending), PostgreSQL as larger (last ascending, first descending). So on PostgreSQL each
// ORDER BY key (of a query, a window or an aggregate) that does not say NULLS FIRST/LAST gets
// SQLite's placement written out. A key that names a column declared NOT NULL, on no outer
// join's nullable side, is left as written: it has no NULL to place, and an index on the
// column keeps giving its order (PostgreSQL would not match `x NULLS FIRST` to a plain index).

import type { DeclaredTable } from "./identifiers.js";
import { tableRefs } from "./refs.js";
import type { SqlEdit } from "./portable.js";
import type { Token } from "./tokens.js";

/** Words that end an ORDER BY list at its own depth. */
const ENDS = new Set(["LIMIT", "OFFSET", "FETCH", "UNION", "EXCEPT", "INTERSECT", "WINDOW", "ROWS", "RANGE", "GROUPS", "RETURNING"]);

export function nullOrderEdits(tokens: readonly Token[], tables: readonly DeclaredTable[]): SqlEdit[] {
  const edits: SqlEdit[] = [];
  const notNull = notNullNames(tokens, tables);
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i].kind !== "word" || tokens[i].value !== "ORDER" || tokens[i + 1].value !== "BY") continue;
    const depth = tokens[i].depth;
    let start = i + 2;
    for (let k = start; ; k++) {
      const t = tokens[k];
      const last = t === undefined || t.depth < depth || t.text === ";" || (t.depth === depth && t.kind === "word" && ENDS.has(t.value));
      if (!last && !(t.text === "," && t.depth === depth)) continue;
      const key = tokens.slice(start, k);
      const edit = placement(key, notNull);
      if (edit) edits.push(edit);
      if (last) {
        i = k - 1;
        break;
      }
      start = k + 1;
    }
  }
  return edits;
}

/** The NULLS clause SQLite's order needs after `key`, or null when it says one or cannot hold NULL. */
function placement(key: readonly Token[], notNull: (qualifier: string | null, name: string) => boolean): SqlEdit | null {
  if (key.length === 0) return null;
  const depth = key[0].depth;
  if (key.some((t) => t.depth === depth && t.kind === "word" && t.value === "NULLS")) return null;
  const lastToken = key[key.length - 1];
  const descending = lastToken.kind === "word" && lastToken.value === "DESC";
  let expr = key;
  if (lastToken.kind === "word" && (lastToken.value === "DESC" || lastToken.value === "ASC")) expr = key.slice(0, -1);
  const collate = expr.findIndex((t) => t.depth === depth && t.kind === "word" && t.value === "COLLATE");
  if (collate >= 0) expr = expr.slice(0, collate);
  const isName = (t: Token | undefined) => t !== undefined && (t.kind === "word" || t.kind === "quoted");
  if (expr.length === 1 && isName(expr[0]) && notNull(null, expr[0].value)) return null;
  if (expr.length === 3 && isName(expr[0]) && expr[1].text === "." && isName(expr[2]) && notNull(expr[0].value, expr[2].value)) return null;
  const clause = descending ? " NULLS LAST" : " NULLS FIRST";
  return { start: lastToken.end, end: lastToken.end, text: { sqlite: "", postgres: clause, mysql: "" } };
}

/**
 * Whether a name (with its qualifier, if any) surely reads a NOT NULL column: it names no alias
 * the statement gives with AS (an output alias wins in ORDER BY), and every table it may come
 * from that has such a field declares it NOT NULL and is not on an outer join's nullable side.
 */
function notNullNames(tokens: readonly Token[], tables: readonly DeclaredTable[]): (qualifier: string | null, name: string) => boolean {
  const aliases = new Set<string>();
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i].kind === "word" && tokens[i].value === "AS") aliases.add(tokens[i + 1].value.toLowerCase());
  }
  const refs = tableRefs(tokens).filter((r) => r.table !== null);
  const declared = (name: string) => tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
  return (qualifier, name) => {
    const lower = name.toLowerCase();
    if (qualifier === null && aliases.has(lower)) return false;
    const from = refs.filter(
      (r) => qualifier === null || (r.alias ?? r.table)!.toLowerCase() === qualifier.toLowerCase(),
    );
    let found = false;
    for (const ref of from) {
      const field = declared(ref.table!)?.fields.find((f) => f.name.toLowerCase() === lower);
      if (!field) continue;
      if (field.nullable !== false || ref.nullable) return false;
      found = true;
    }
    return found;
  };
}
