// The database an endpoint sees while it runs inside a call's idempotency transaction:
// its statements and its own `transaction` join that transaction, so the action's writes
// and the stored answer commit or roll back together.

import type { Database, Executor } from "../contract/index.js";
import { SvcError } from "../core/errors.js";

export function boundTo(db: Database, tx: Executor): Database {
  const refuse = (what: string) => () => {
    throw new SvcError("SVC_ERR_INTERNAL", `${what} inside an action's transaction`);
  };
  const under = tx.under;
  return {
    dialect: db.dialect,
    nested: true,
    all: (stmt, args) => tx.all(stmt, args),
    one: (stmt, args) => tx.one(stmt, args),
    run: (stmt, args) => tx.run(stmt, args),
    transaction: async (fn) => fn(tx),
    migrate: refuse("migrate"),
    prepare: refuse("prepare"),
    ping: () => Promise.resolve(),
    close: refuse("close"),
    // Traced: the transaction's span, and views below it (the action's span) on the same transaction.
    span: tx.span,
    ...(under !== undefined && { under: (span) => boundTo(db, under.call(tx, span)) }),
  };
}
