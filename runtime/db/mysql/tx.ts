// The executor an action's body receives on MySQL, MariaDB and TiDB: statements run on
// the connection the transaction holds. A deadlock or a TiDB write conflict is thrown as
// it is, so the transaction's retry loop (mysql.ts) sees it; other errors become answers.

import type { Executor, Row, StatementSpec } from "../../contract/index.js";
import { bindSlots } from "../net/args.js";
import type { Constraints } from "../net/constraints.js";
import { withReturning } from "../net/returning.js";
import type { NetStatement, NetStatements } from "../net/statements.js";
import { type PoolConnection, execCount, execRows } from "./conn.js";
import { type MysqlFlavor, isRetryableMysql, isViewGoneMysql, mapMysqlError } from "./errors.js";
import { SvcError } from "../../core/errors.js";

export class MysqlTx implements Executor {
  private active = true;
  /** Set when a statement broke the connection: it must not go back to the pool. */
  broken: unknown = null;

  constructor(
    private readonly conn: PoolConnection,
    private readonly statements: NetStatements,
    private readonly constraints: Constraints,
    private readonly flavor: MysqlFlavor,
    /** The connection uses a view database (migrate/mysql-views.ts). */
    private readonly views = false,
  ) {}

  end(): void {
    this.active = false;
  }

  async all(spec: StatementSpec, args: readonly unknown[]): Promise<Row[]> {
    return this.guard(() => rowsOf(this.conn, this.statement(spec), args));
  }

  async one(spec: StatementSpec, args: readonly unknown[]): Promise<Row | null> {
    return (await this.all(spec, args))[0] ?? null;
  }

  async run(spec: StatementSpec, args: readonly unknown[]): Promise<number> {
    const s = this.statement(spec);
    return this.guard(() => execCount(this.conn, s.text, bindSlots(s.name, s.slots, args)));
  }

  private statement(spec: StatementSpec): NetStatement {
    const s = this.statements.get(spec);
    if (!this.active) {
      throw new SvcError("SVC_ERR_TX_ENDED", `statement ${spec.name} ran after its transaction ended (a missing await in the action?)`);
    }
    return s;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if ((err as { fatal?: unknown })?.fatal === true) this.broken = err;
      // A view database gone is the pool's to handle (index.ts): it runs the transaction again.
      throw isRetryableMysql(err, this.flavor) || (this.views && isViewGoneMysql(err)) ? err : mapMysqlError(err, this.constraints);
    }
  }
}

/** A statement's rows: its own, or, without RETURNING, those of its `returning` read. */
export function rowsOf(conn: PoolConnection, s: NetStatement, args: readonly unknown[]): Promise<Row[]> {
  const r = s.returning;
  if (r === undefined) return execRows(conn, s.text, bindSlots(s.name, s.slots, args));
  return withReturning(
    r.when,
    () => execCount(conn, s.text, bindSlots(s.name, s.slots, args)),
    () => execRows(conn, r.text, bindSlots(s.name, r.slots, args)),
  );
}
