// The executor an action's body receives on PostgreSQL: statements go to the connection
// the transaction holds. A serialization failure or a deadlock is thrown as it is, so the
// transaction's retry loop (postgres.ts) sees it; other errors become answers here.

import type { TransactionSql } from "postgres";
import type { Executor, Row, StatementSpec } from "../../contract/index.js";
import { type Scalar, bindSlots } from "../net/args.js";
import type { Constraints } from "../net/constraints.js";
import { withReturning } from "../net/returning.js";
import type { NetStatement, NetStatements } from "../net/statements.js";
import { completed, isRetryablePostgres, mapPostgresError } from "./errors.js";
import { takeRows } from "./rows.js";
import { SvcError } from "../../core/errors.js";

export class PostgresTx implements Executor {
  private active = true;

  constructor(
    private readonly tx: TransactionSql,
    private readonly statements: NetStatements,
    private readonly constraints: Constraints,
  ) {}

  /** After this, a statement through this executor is a bug (it would run outside the transaction). */
  end(): void {
    this.active = false;
  }

  async all(spec: StatementSpec, args: readonly unknown[]): Promise<Row[]> {
    return this.rows(this.statement(spec), args);
  }

  async one(spec: StatementSpec, args: readonly unknown[]): Promise<Row | null> {
    return (await this.rows(this.statement(spec), args))[0] ?? null;
  }

  async run(spec: StatementSpec, args: readonly unknown[]): Promise<number> {
    const s = this.statement(spec);
    return this.guard(
      async () => completed(await this.tx.unsafe(s.text, pgValues(bindSlots(s.name, s.slots, args)), PREPARED)).count,
    );
  }

  private rows(s: NetStatement, args: readonly unknown[]): Promise<Row[]> {
    const r = s.returning;
    if (r === undefined)
      return this.guard(async () =>
        takeRows(completed(await this.tx.unsafe<Row[]>(s.text, pgValues(bindSlots(s.name, s.slots, args)), PREPARED))),
      );
    return this.guard(() =>
      withReturning(
        r.when,
        async () => completed(await this.tx.unsafe(s.text, pgValues(bindSlots(s.name, s.slots, args)), PREPARED)).count,
        async () => takeRows(completed(await this.tx.unsafe<Row[]>(r.text, pgValues(bindSlots(s.name, r.slots, args)), PREPARED))),
      ),
    );
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
      throw isRetryablePostgres(err) ? err : mapPostgresError(err, this.constraints);
    }
  }
}

export const PREPARED = { prepare: true } as const;

/** postgres.js types its parameters by what it can serialize; a bigint goes as its decimal text. */
export function pgValues(values: Scalar[]): (string | number | boolean | Buffer | null)[] {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === "bigint") values[i] = v.toString();
  }
  return values as (string | number | boolean | Buffer | null)[];
}
