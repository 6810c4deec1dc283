// The statements a network adapter was built with, looked up per call. Checking that
// each one has this dialect's SQL happens once, at start; the database itself checks the
// SQL when the adapter prepares it there (postgres.ts, mysql.ts).

import { StartupError, SvcError } from "../../core/errors.js";
import type { Dialect, ReturningRead, StatementSpec } from "../../contract/index.js";

export interface NetStatement {
  readonly name: string;
  readonly text: string;
  readonly slots: readonly number[];
  readonly returning: ReturningRead | undefined;
  /**
   * An INSERT's read after it, outside an action, needs no transaction around the two: no
   * other request knows the new row's key before the insert has returned, so the row read
   * is the row written. (An update's or a delete's row could change in between; those run
   * in a transaction.) Saves BEGIN and COMMIT, two round trips, on every such insert.
   */
  readonly readWithoutTx: boolean;
}

export class NetStatements {
  private readonly map = new Map<StatementSpec, NetStatement>();

  constructor(private readonly dialect: Exclude<Dialect, "sqlite">) {}

  /** The statements not known yet, checked for this dialect's SQL; all of them or none are added. */
  add(specs: readonly StatementSpec[]): NetStatement[] {
    const fresh: [StatementSpec, NetStatement][] = [];
    for (const spec of specs) {
      if (this.map.has(spec) || fresh.some(([s]) => s === spec)) continue;
      const sql = spec.sql[this.dialect];
      if (sql === undefined) {
        throw new StartupError(
          "SVC_ERR_STATEMENT",
          `statement ${spec.name} has no ${this.dialect} SQL; rebuild the server with this svc version`,
        );
      }
      checkSlots(spec.name, sql.slots);
      if (sql.returning !== undefined) checkSlots(spec.name, sql.returning.slots);
      const readWithoutTx = sql.returning?.when === "after" && /^\s*INSERT\b/i.test(sql.text);
      fresh.push([
        spec,
        { name: spec.name, text: sql.text, slots: sql.slots, returning: sql.returning, readWithoutTx },
      ]);
    }
    for (const [spec, statement] of fresh) this.map.set(spec, statement);
    return fresh.map(([, statement]) => statement);
  }

  get(spec: StatementSpec): NetStatement {
    const statement = this.map.get(spec);
    if (statement === undefined) {
      throw new SvcError("SVC_ERR_INTERNAL", `statement ${spec.name} was not prepared; pass it to Database.prepare at start-up`);
    }
    return statement;
  }
}

function checkSlots(name: string, slots: readonly number[]): void {
  if (!Array.isArray(slots) || !slots.every((s) => Number.isInteger(s) && s >= 0)) {
    throw new StartupError("SVC_ERR_STATEMENT", `statement ${name}: its parameter slots are not argument indexes`);
  }
}
