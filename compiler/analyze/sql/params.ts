import type { SqlBody } from "../../parse/ast.js";
import type { Dialect, DialectSql, ParamModel, ScalarType } from "../model/model.js";
import type { JsonValueFix } from "./dialect.js";
import type { DeclaredTable } from "./identifiers.js";
import { mysqlList, mysqlPlaceholder } from "./mysql/params.js";
import { portableEdits } from "./portable.js";
import { postgresList, postgresPlaceholder } from "./postgres/params.js";
import type { SqlText } from "./span.js";
import { tokenize } from "./tokens.js";

export interface BoundSql {
  /** Distinct `@name`s in order of first appearance. */
  args: string[];
  dialects: Record<Dialect, DialectSql>;
}

/** One change from a body's text to a dialect's: a parameter (by argument index) or text per dialect. */
export interface BodyEdit {
  start: number;
  end: number;
  text: Record<Dialect, string> | number;
}

/** SQL text and the `@name`s in it (offsets in `text`, `end` exclusive). */
export interface ParamText {
  text: string;
  params: readonly { name: string; start: number; end: number }[];
}

/** A parsed body as ParamText: its text as written. */
export function bodyText(body: SqlBody): ParamText {
  const base = body.span.start.offset;
  return { text: body.text, params: body.params.map((p) => ({ name: p.name, start: p.span.start.offset - base, end: p.span.end.offset - base })) };
}

/** The model's SQL (its trimmed text) as ParamText. */
export function modelText(sql: SqlText): ParamText {
  return { text: sql.text, params: sql.params.map(([start, end]) => ({ name: sql.text.slice(start + 1, end), start, end })) };
}

/**
 * Every change bindParams makes to a body's text, in order of offset: `@name`s (numbered
 * by first appearance, in `args`) and what portable.ts writes per backend.
 */
export function sqlEdits(
  sql: ParamText,
  values: readonly JsonValueFix[] = [],
  tables: readonly DeclaredTable[] = [],
): { args: string[]; edits: BodyEdit[] } {
  const refs = [...sql.params].sort((a, b) => a.start - b.start);
  const args: string[] = [];
  const numbers = new Map<string, number>();
  const edits: BodyEdit[] = [];
  for (const ref of refs) {
    const { start, end } = ref;
    if (sql.text.slice(start, end) !== `@${ref.name}`) {
      // The parser's spans are the contract; a mismatch is a compiler bug, not bad input.
      throw new Error(`internal: @${ref.name} is not at offset ${start} of its SQL body`);
    }
    let index = numbers.get(ref.name);
    if (index === undefined) {
      index = args.length;
      numbers.set(ref.name, index);
      args.push(ref.name);
    }
    edits.push({ start, end, text: index });
  }
  edits.push(...portableEdits(tokenize(sql.text), values, tables));
  // An insertion goes before a replacement at the same place (`@p = x` wrapped whole);
  // otherwise the order they were made in.
  edits.sort((a, b) => a.start - b.start || Number(b.start === b.end) - Number(a.start === a.end));
  let last = 0;
  for (const e of edits) {
    if (e.start < last) throw new Error(`internal: overlapping edits at offset ${e.start} of an SQL body`);
    last = e.end;
  }
  return { args, edits };
}

/**
 * Rewrites every `@name` the parser found (strings and comments already excluded) into
 * each dialect's driver placeholders. postgres `$N` numbers a name once and reuses the
 * number; sqlite's and mysql's positional `?` need one slot per occurrence. With `types`
 * (each parameter's declared type), postgres placeholders carry their type and mysql
 * timestamps are read from svc's ISO text (see postgres/params.ts, mysql/params.ts).
 * `lists` (listItems): a list argument travels as its JSON text and stands for the table of
 * its items. The same pass writes what portable.ts makes each backend's own (JSON
 * functions, annotations, names); `values`: the checker's jsonValues, offsets in `body.text`;
 * `tables`: the project's resources (identifiers.ts quotes their names).
 */
export function bindParams(
  body: SqlBody,
  types?: ReadonlyMap<string, ScalarType>,
  lists: ReadonlyMap<string, ScalarType> = listItems([]),
  values: readonly JsonValueFix[] = [],
  tables: readonly DeclaredTable[] = [],
): BoundSql {
  const { args, edits } = sqlEdits(bodyText(body), values, tables);
  const slots = edits.flatMap((e) => (typeof e.text === "number" ? [e.text] : []));

  const render = (dialect: Dialect, placeholder: (index: number) => string): string => {
    let out = "";
    let cursor = 0;
    for (const e of edits) {
      out += body.text.slice(cursor, e.start) + (typeof e.text === "number" ? placeholder(e.text) : e.text[dialect]);
      cursor = e.end;
    }
    return out + body.text.slice(cursor);
  };
  const identity = args.map((_, i) => i);
  const item = (i: number) => lists.get(args[i]);
  return {
    args,
    dialects: {
      // Anonymous `?`s, one per occurrence, bound positionally (runtime/db/sqlite/statements.ts says why).
      sqlite: { text: render("sqlite", (i) => (item(i) ? "(SELECT value FROM json_each(?))" : "?")), slots: [...slots] },
      postgres: {
        text: render("postgres", (i) => (item(i) ? postgresList(i, item(i)!) : postgresPlaceholder(i, types?.get(args[i])))),
        slots: [...identity],
      },
      mysql: { text: render("mysql", (i) => (item(i) ? mysqlList(item(i)!) : mysqlPlaceholder(types?.get(args[i])))), slots },
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
