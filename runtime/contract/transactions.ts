// How an action's transaction runs (runtime/contract/server.ts, Database.transaction).

/**
 * The isolation an action's transaction runs at (docs/language.md §2.3, Transactions):
 * serializable unless the action says otherwise. SQLite runs every transaction alone.
 */
export type Isolation = "serializable" | "repeatable read" | "read committed";

export interface TransactionOptions {
  /** Default now: an action run again (auth/password-work.ts) keeps its first attempt's deadline. */
  startedAt?: number;
  /** Default serializable. */
  isolation?: Isolation;
}
