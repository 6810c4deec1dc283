// A statement with a `returning` read (types.ts ReturningRead), for a dialect without
// RETURNING. Both run on one connection inside one transaction, which the caller provides.

import type { Row } from "../../contract/index.js";

/**
 * `before` (a delete): read the rows, locked, then run the statement; the rows read are
 * the rows it removed. `after` (an insert, an update): run it, then read. A statement that
 * touched no row returns none, as RETURNING would.
 */
export async function withReturning(
  when: "before" | "after",
  exec: () => Promise<number>,
  read: () => Promise<Row[]>,
): Promise<Row[]> {
  if (when === "before") {
    const rows = await read();
    if (rows.length === 0) return rows;
    return (await exec()) === 0 ? [] : rows;
  }
  return (await exec()) === 0 ? [] : read();
}
