import type { SqlBody } from "../../parse/ast.js";
import type { Dialect, DialectSql, ScalarType } from "../model.js";
import { mysqlPlaceholder } from "./mysql/params.js";
import type { JsonValueFix } from "./dialect.js";
import { portableEdits } from "./portable.js";
import { postgresPlaceholder } from "./postgres/params.js";
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

/**
 * Every change bindParams makes to a body's text, in order of offset: `@name`s (numbered
 * by first appearance, in `args`) and what portable.ts writes per backend.
 */
export function sqlEdits(body: SqlBody, values: readonly JsonValueFix[] = []): { args: string[]; edits: BodyEdit[] } {
  const base = body.span.start.offset;
  const refs = [...body.params].sort((a, b) => a.span.start.offset - b.span.start.offset);
  const args: string[] = [];
  const numbers = new Map<string, number>();
  const edits: BodyEdit[] = [];
  for (const ref of refs) {
    const start = ref.span.start.offset - base;
    const end = ref.span.end.offset - base;
    if (body.text.slice(start, end) !== `@${ref.name}`) {
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
  edits.push(...portableEdits(tokenize(body.text), values));
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
 * each dialect's driver placeholders. sqlite `?N` and postgres `$N` number a name once and
 * reuse the number; mysql's positional `?` needs one slot per occurrence. With `types`
 * (each parameter's declared type), postgres placeholders carry their type and mysql
 * timestamps are read from svc's ISO text (see postgres/params.ts, mysql/params.ts).
 * The same pass writes what portable.ts makes each backend's own (JSON functions, annotations).
 */
export function bindParams(
  body: SqlBody,
  types?: ReadonlyMap<string, ScalarType>,
  values: readonly JsonValueFix[] = [],
): BoundSql {
  const { args, edits } = sqlEdits(body, values);
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
  return {
    args,
    dialects: {
      sqlite: { text: render("sqlite", (i) => `?${i + 1}`), slots: identity },
      postgres: { text: render("postgres", (i) => postgresPlaceholder(i, types?.get(args[i]))), slots: [...identity] },
      mysql: { text: render("mysql", (i) => mysqlPlaceholder(types?.get(args[i]))), slots },
    },
  };
}
