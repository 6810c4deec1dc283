// An executor that refuses statements once its run is over (timed out, or returned at
// shutdown): the job's transaction then fails at its next statement and rolls back, so a
// run svc has given up on writes nothing more.

import type { Executor, Row, StatementSpec } from "../contract/index.js";

export class RunAbandoned extends Error {
  constructor(why: string) {
    super(why);
    this.name = "RunAbandoned";
  }
}

export interface RunState {
  /** Why the run was given up; null while it counts. */
  abandoned: string | null;
}

export function guarded(tx: Executor, state: RunState): Executor {
  const check = (): void => {
    if (state.abandoned !== null) throw new RunAbandoned(state.abandoned);
  };
  return {
    all(stmt: StatementSpec, args: readonly unknown[]): Promise<Row[]> | Row[] {
      check();
      return tx.all(stmt, args);
    },
    one(stmt: StatementSpec, args: readonly unknown[]): Promise<Row | null> | Row | null {
      check();
      return tx.one(stmt, args);
    },
    run(stmt: StatementSpec, args: readonly unknown[]): Promise<number> {
      check();
      return tx.run(stmt, args);
    },
    // The run's span, when traced: what the job enqueues or emits links to it.
    span: tx.span,
  };
}
