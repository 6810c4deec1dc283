// The start-time check of a table's primary key (docs/language.md §2.1, Keys), the same on
// every backend: the key's columns and whether the database numbers it (`id(int)`) must be
// as declared. A key is never changed at start: its rows would have to be renumbered or
// re-keyed, which is a decision, not a migration. (A key retyped, e.g. a ULID `id` made
// `id(int)`, is also a retyped column, which the column check reports.)

import type { TableKey } from "../contract/index.js";

/** What the live table's key is: its columns in key order, and the column the database numbers, if any. */
export interface LiveKey {
  columns: string[];
  identity: string | null;
}

export function keyProblems(table: string, declared: TableKey, live: LiveKey): string[] {
  if (declared.primaryKey === undefined) return [];
  const problems: string[] = [];
  const want = declared.primaryKey.map((c) => c.toLowerCase()).join(", ");
  const have = live.columns.map((c) => c.toLowerCase()).join(", ");
  if (want !== have) {
    problems.push(
      `table ${table}: its primary key is ${have === "" ? "none" : `(${live.columns.join(", ")})`} in the database but declared (${declared.primaryKey.join(", ")}); a key is not changed at start: copy the rows into a table with the new key by hand`,
    );
    return problems;
  }
  const numbered = (declared.identity ?? null)?.toLowerCase() ?? null;
  if (numbered !== (live.identity?.toLowerCase() ?? null)) {
    const column = declared.identity ?? live.identity ?? "";
    problems.push(
      numbered === null
        ? `table ${table}: key ${column} is numbered by the database but not declared \`id(int)\`; a key's kind is not changed at start`
        : `table ${table}: key ${column} is declared \`id(int)\` (numbered by the database) but the database does not number it; a key's kind is not changed at start`,
    );
  }
  return problems;
}
