import type { SqlBody } from "../../parse/ast.js";
import type { Dialect, DialectSql, ScalarType } from "../model.js";
import { mysqlPlaceholder } from "./mysql/params.js";
import { postgresPlaceholder } from "./postgres/params.js";

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
export function bindParams(body: SqlBody, types?: ReadonlyMap<string, ScalarType>): BoundSql {
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
  return {
    args,
    dialects: {
      sqlite: { text: render((i) => `?${i + 1}`), slots: identity },
      postgres: { text: render((i) => postgresPlaceholder(i, types?.get(args[i]))), slots: [...identity] },
      mysql: { text: render((i) => mysqlPlaceholder(types?.get(args[i]))), slots: marks.map((m) => m.index) },
    },
  };
}
