import type { SqlBody } from "../../parse/ast.js";
import type { Dialect, DialectSql, ParamModel, ScalarType } from "../model.js";
import { mysqlList, mysqlPlaceholder } from "./mysql/params.js";
import { postgresList, postgresPlaceholder } from "./postgres/params.js";

export interface BoundSql {
  /** Distinct `@name`s in order of first appearance. */
  args: string[];
  dialects: Record<Dialect, DialectSql>;
}

/**
 * Rewrites every `@name` the parser found (strings and comments already excluded) into
 * each dialect's driver placeholders. sqlite `?N` and postgres `$N` number a name once and
 * reuse the number; mysql's positional `?` needs one slot per occurrence. With `types`
 * (each parameter's declared type), postgres placeholders carry their type and mysql
 * timestamps are read from svc's ISO text (see postgres/params.ts, mysql/params.ts).
 */
export function bindParams(body: SqlBody, types?: ReadonlyMap<string, ScalarType>, lists: ReadonlyMap<string, ScalarType> = listItems([])): BoundSql {
  const base = body.span.start.offset;
  const refs = [...body.params].sort((a, b) => a.span.start.offset - b.span.start.offset);
  const args: string[] = [];
  const numbers = new Map<string, number>();
  const pieces: string[] = [];
  const marks: { at: number; index: number }[] = [];
  let cursor = 0;
  for (const ref of refs) {
    const start = ref.span.start.offset - base;
    const end = ref.span.end.offset - base;
    if (start < cursor || body.text.slice(start, end) !== `@${ref.name}`) {
      // The parser's spans are the contract; a mismatch is a compiler bug, not bad input.
      throw new Error(`internal: @${ref.name} is not at offset ${start} of its SQL body`);
    }
    let index = numbers.get(ref.name);
    if (index === undefined) {
      index = args.length;
      numbers.set(ref.name, index);
      args.push(ref.name);
    }
    pieces.push(body.text.slice(cursor, start));
    marks.push({ at: pieces.length, index });
    pieces.push("");
    cursor = end;
  }
  pieces.push(body.text.slice(cursor));

  const render = (placeholder: (index: number) => string): string => {
    const out = [...pieces];
    for (const m of marks) out[m.at] = placeholder(m.index);
    return out.join("");
  };
  const identity = args.map((_, i) => i);
  // A list argument travels as its JSON text and stands for the table of its items.
  const item = (i: number) => lists.get(args[i]);
  return {
    args,
    dialects: {
      sqlite: { text: render((i) => (item(i) ? `(SELECT value FROM json_each(?${i + 1}))` : `?${i + 1}`)), slots: identity },
      postgres: {
        text: render((i) => (item(i) ? postgresList(i, item(i)!) : postgresPlaceholder(i, types?.get(args[i])))),
        slots: [...identity],
      },
      mysql: { text: render((i) => (item(i) ? mysqlList(item(i)!) : mysqlPlaceholder(types?.get(args[i])))), slots: marks.map((m) => m.index) },
    },
  };
}

/** Item types that a list argument may have in SQL: those every backend reads back from JSON exactly. */
export const SQL_LIST_ITEMS: readonly ScalarType[] = ["id", "text", "enum", "int", "float", "bool"];

/** The item type of each `list<T>` parameter, by name (docs/language.md §2.2, Lists in SQL). */
export function listItems(params: readonly ParamModel[]): Map<string, ScalarType> {
  const out = new Map<string, ScalarType>();
  for (const p of params) {
    // A list of records is refused where the query is analyzed; read as text here, its SQL is still checked.
    if (p.shape?.kind === "list") out.set(p.name, p.shape.item.kind === "scalar" ? p.shape.item.type : "text");
  }
  return out;
}
