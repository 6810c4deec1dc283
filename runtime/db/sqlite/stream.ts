// A query's rows a batch at a time, for streamed answers (runtime/core/answer/stream). The one
// connection of a server is shared by every request, and an open iterator holds it: no other
// statement may run on it until the iterator is closed. So a file database streams from a
// read-only connection of its own, opened for the answer and closed after it: WAL lets it
// read while the main connection writes, and it reads one snapshot from the first row to the
// last. A `:memory:` database has no second connection; it reads pages instead, the iterator
// closed whenever the socket is full and the query run again from the rows already sent
// (LIMIT -1 OFFSET n), which sees writes made in between.

import BetterSqlite3 from "better-sqlite3";
import type { Row, StatementSpec } from "../../contract/index.js";
import { mapSqliteError } from "./errors.js";
import { type Prepared, bindValues } from "./statements.js";

export type Each = (rows: Row[]) => boolean | Promise<boolean>;

/** Streams `spec` from a connection of its own (a file database). */
export async function streamOwnConnection(file: string, p: Prepared, spec: StatementSpec, args: readonly unknown[], batch: number, each: Each): Promise<void> {
  const conn = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    const stmt = conn.prepare<unknown[], Row>(spec.sql.sqlite!.text);
    let rows: Row[] = [];
    for (const row of stmt.iterate(...bindValues(p, args))) {
      rows.push(row);
      if (rows.length < batch) continue;
      const go = each(rows);
      rows = [];
      if (!(go === true || (go !== false && (await go)))) return;
    }
    if (rows.length > 0) await each(rows);
  } catch (err) {
    throw mapSqliteError(err);
  } finally {
    // Closing the connection ends an iterator left open by a client gone away.
    conn.close();
  }
}

/**
 * Streams `spec` on the shared connection, in pages: rows are read while the socket takes
 * them; when it is full, the iterator is closed and, once it drains, the query runs again
 * past the rows already sent. `before` waits for a transaction holding the connection.
 */
export async function streamPaged(
  db: BetterSqlite3.Database,
  p: Prepared,
  spec: StatementSpec,
  args: readonly unknown[],
  batch: number,
  each: Each,
  before: () => Promise<void> | undefined,
): Promise<void> {
  let paged: BetterSqlite3.Statement<unknown[], Row>;
  try {
    paged = db.prepare<unknown[], Row>(`SELECT * FROM (${spec.sql.sqlite!.text}) LIMIT -1 OFFSET ?`);
  } catch (err) {
    throw mapSqliteError(err);
  }
  const values = bindValues(p, args);
  let offset = 0;
  for (;;) {
    const wait = before();
    if (wait !== undefined) await wait;
    let pending: Promise<boolean> | null = null;
    let rows: Row[] = [];
    try {
      for (const row of paged.iterate(...values, offset)) {
        rows.push(row);
        offset++;
        if (rows.length < batch) continue;
        const go = each(rows);
        rows = [];
        if (go === false) return;
        if (go !== true) {
          pending = go;
          break;
        }
      }
    } catch (err) {
      throw mapSqliteError(err);
    }
    if (pending === null) {
      if (rows.length > 0) await each(rows);
      return;
    }
    if (!(await pending)) return;
  }
}
