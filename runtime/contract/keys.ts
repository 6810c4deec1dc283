// What a table's DDL says about its primary key (docs/language.md §2.1, Keys), beside the
// columns: the start-time schema check compares it with the live table (keys/live.ts).

export interface TableKey {
  /** The primary key's columns, in key order; absent in DDL built before keys of any kind. */
  primaryKey?: string[];
  /** The column the database numbers itself (`id(int)`), when there is one. */
  identity?: string;
}
