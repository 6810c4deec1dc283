// The executor an action's body receives: statements run directly on the connection,
// inside the transaction that owns the gate, so they never wait for it.

import type { Executor, Row, StatementSpec } from "../../contract/index.js";
import { mapSqliteError } from "./errors.js";
import type { UniqueAnswers } from "../unique-answers.js";
import { getAll, getOne, runChanges, type StatementCache } from "./statements.js";
import { SvcError } from "../../core/errors.js";

export class SqliteTx implements Executor {
  private active = true;

  constructor(
    private readonly statements: StatementCache,
    private readonly answers?: UniqueAnswers,
  ) {}

  /** After this, a statement through this executor is a bug (it would run outside the transaction). */
  end(): void {
    this.active = false;
  }

  async all(spec: StatementSpec, args: readonly unknown[]): Promise<Row[]> {
    const p = this.statements.get(spec);
    this.checkActive(spec);
    try {
      return getAll(p, args);
    } catch (err) {
      throw mapSqliteError(err, this.answers);
    }
  }

  async one(spec: StatementSpec, args: readonly unknown[]): Promise<Row | null> {
    const p = this.statements.get(spec);
    this.checkActive(spec);
    try {
      return getOne(p, args);
    } catch (err) {
      throw mapSqliteError(err, this.answers);
    }
  }

  async run(spec: StatementSpec, args: readonly unknown[]): Promise<number> {
    const p = this.statements.get(spec);
    this.checkActive(spec);
    try {
      return runChanges(p, args);
    } catch (err) {
      throw mapSqliteError(err, this.answers);
    }
  }

  private checkActive(spec: StatementSpec): void {
    if (!this.active) {
      throw new SvcError("SVC_ERR_TX_ENDED", `statement ${spec.name} ran after its transaction ended (a missing await in the action?)`);
    }
  }
}
