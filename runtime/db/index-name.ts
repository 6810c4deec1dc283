// The name an index's DDL gives it: the planner of declared changes and SQLite's start-up both
// ask which declared indexes a live table lacks.

/** The name in `CREATE [UNIQUE] INDEX [IF NOT EXISTS] "name" ON …`, unquoted; null when it is no such statement. */
export function indexName(createIndex: string): string | null {
  const m = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:"((?:[^"]|"")+)"|`((?:[^`]|``)+)`|(\S+))/i.exec(createIndex);
  if (m === null) return null;
  return m[1]?.replace(/""/g, '"') ?? m[2]?.replace(/``/g, "`") ?? m[3]!;
}
