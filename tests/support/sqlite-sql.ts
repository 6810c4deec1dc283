// Hand-written SQLite statements for tests, written with numbered parameters (`?1`) as people
// write them, turned into what the compiler emits and the runtime binds: anonymous `?`s and
// the argument index of each (runtime/db/sqlite/statements.ts). Test SQL holds no `?` inside
// strings or comments.

import type { StatementSpec } from "../../runtime/contract/index.js";

/** `WHERE (?1 IS NULL OR status = ?1) LIMIT ?2` → `WHERE (? IS NULL OR status = ?) LIMIT ?` and slots [0, 0, 1]. */
export function positional(text: string): { text: string; slots: number[] } {
  const slots: number[] = [];
  const out = text.replace(/\?(\d+)/g, (_, n: string) => {
    slots.push(Number(n) - 1);
    return "?";
  });
  return { text: out, slots };
}

/** A statement with only a sqlite variant, written with `?N` parameters. */
export function sqliteStatement(name: string, text: string): StatementSpec {
  return { name, sql: { sqlite: positional(text) } };
}
