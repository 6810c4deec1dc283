// Names inside an SQL body, read with the compiler's own SQL lexer and table references
// (analyze/sql): a word naming a resource of the module is its table; a qualified or bare
// word naming a field of a table the statement reads is that field; `@name` is an argument
// or a local. Names compare without regard to case, as SQLite (where svc checks SQL) does.

import type { Ident, SqlBody } from "../parse/index.js";
import type { PositionMap } from "../parse/positions.js";
import { refByQualifier, sameName, sqlTokens, tableRefs } from "./analyzed.js";

export type SqlNameKind = "resource" | "field" | "param";

/**
 * Calls `found` for each name: a resource as written in its declaration, a field as
 * `resource.field`, a parameter by its name without `@`.
 */
export function walkSql(
  body: SqlBody,
  positions: PositionMap,
  resources: ReadonlyMap<string, ReadonlySet<string>>,
  found: (key: string, kind: SqlNameKind, name: Ident) => void,
): void {
  const tokens = sqlTokens(body.text);
  const base = body.span.start.offset;
  const ident = (start: number, end: number, name: string): Ident => ({ name, span: positions.span(base + start, base + end) });
  const declared = (name: string): string | undefined => [...resources.keys()].find((r) => sameName(r, name));
  const refs = tableRefs(tokens);
  const tables = refs.map((r) => (r.table === null ? undefined : declared(r.table))).filter((r): r is string => r !== undefined);
  const fieldOf = (resource: string, name: string) => [...(resources.get(resource) ?? [])].find((f) => sameName(f, name));

  tokens.forEach((t, i) => {
    if (t.kind === "param") {
      if (t.text.startsWith("@") && !t.text.startsWith("@@")) found(t.text.slice(1), "param", ident(t.start + 1, t.end, t.text.slice(1)));
      return;
    }
    if (t.kind !== "word" && t.kind !== "quoted") return;
    const name = t.kind === "quoted" ? t.value : t.text;
    // Inside a quoted name the name itself starts one character in.
    const [start, end] = t.kind === "quoted" ? [t.start + 1, t.end - 1] : [t.start, t.end];
    if (tokens[i - 1]?.value === "AS") return; // a name the statement gives, not one it reads
    const qualified = tokens[i - 1]?.text === "." && tokens[i - 2] !== undefined;
    if (qualified) {
      const q = tokens[i - 2];
      const ref = refByQualifier(refs, q.kind === "quoted" ? q.value : q.text);
      const resource = ref?.table ? declared(ref.table) : undefined;
      const field = resource ? fieldOf(resource, name) : undefined;
      if (resource && field) found(`${resource}.${field}`, "field", ident(start, end, name));
      return;
    }
    if (tokens[i + 1]?.text === "(") return; // a function's name
    const resource = declared(name);
    if (resource && refs.some((r) => r.table !== null && sameName(r.table, name)) && tokens[i + 1]?.text !== ".") {
      found(resource, "resource", ident(start, end, name));
      return;
    }
    if (resource && tokens[i + 1]?.text === ".") {
      found(resource, "resource", ident(start, end, name));
      return;
    }
    for (const table of tables) {
      const field = fieldOf(table, name);
      if (field) {
        found(`${table}.${field}`, "field", ident(start, end, name));
        return;
      }
    }
  });
}
