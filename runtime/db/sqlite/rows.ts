// Rows from values. better-sqlite3 names every value of every row it returns as an object
// (the column's name turned into a V8 string, looked up in the string table, each time);
// in raw mode it returns the values alone, and the generated code's object literal for the
// statement (DialectSql.row) builds the row: 50 rows of 8 columns measured 1.36 M
// instructions through the driver's objects against 0.98 M this way.
//
// The literal puts each value under the name the build saw at its position. A database
// migrated by earlier builds may hold a table's columns in another order (a column is
// added at the end of the table, wherever it is declared), so the live statement's names
// are compared with the build's; where they differ, rows are built from the live names.
// svc's migrations only ever add columns, so a statement whose columns change under a
// running server (SQLite prepares it again when the schema changes) returns rows of another
// width, which is checked on every row.

import type BetterSqlite3 from "better-sqlite3";
import type { DialectSql, Row } from "../../contract/index.js";

export interface RowBuilder {
  /** Values per row: a row of another width means the statement's columns changed. */
  readonly width: number;
  readonly build: (values: unknown[]) => Row;
}

/** How to build `stmt`'s rows; `sql` null (or without a literal) builds them from the live names. */
export function rowBuilder(stmt: BetterSqlite3.Statement<unknown[], Row>, sql: DialectSql | null): RowBuilder {
  const names = stmt.columns().map((c) => c.name);
  const fromBuild = sql?.row;
  if (fromBuild !== undefined && sameNames(names, sql!.columns ?? [])) return { width: names.length, build: fromBuild };
  return { width: names.length, build: (values) => byName(names, values) };
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** As the driver's objects: a name given twice keeps the later value. */
function byName(names: readonly string[], values: unknown[]): Row {
  const row: Row = {};
  for (let i = 0; i < names.length; i++) {
    // A column named __proto__ is a property like any other, never the row's prototype.
    if (names[i] === "__proto__") Object.defineProperty(row, "__proto__", { value: values[i], enumerable: true, writable: true, configurable: true });
    else row[names[i]] = values[i];
  }
  return row;
}
