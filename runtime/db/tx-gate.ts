// Serializes transactions on one connection. better-sqlite3 is synchronous but an
// action is async: while one action awaits between two statements, another action's
// statements would otherwise run inside the first one's transaction (and a second
// BEGIN would fail outright). Statements outside any transaction also wait while one
// is open, since on a shared connection they would read its uncommitted rows.

export class TxGate {
  /** A transaction owns the gate (it may still be waiting for the file's write lock). */
  private held = false;
  private readonly queue: (() => void)[] = [];
  /** BEGIN has succeeded and neither COMMIT nor ROLLBACK has run yet. */
  open = false;
  private closedWaiters: (() => void)[] = [];

  /** Resolves when the caller owns the gate. Uncontended, it takes it at once. */
  acquire(): Promise<void> | undefined {
    if (!this.held) {
      this.held = true;
      return undefined;
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  /** Hands the gate to the next transaction in line, in arrival order. */
  release(): void {
    const next = this.queue.shift();
    if (next === undefined) this.held = false;
    else next();
  }

  /**
   * Marks the transaction ended. Call before `release`: statements waiting for it are
   * woken first, so a stream of transactions cannot starve them.
   */
  markClosed(): void {
    this.open = false;
    const waiters = this.closedWaiters;
    if (waiters.length === 0) return;
    this.closedWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once no transaction is open on the connection. */
  async whenClosed(): Promise<void> {
    while (this.open) await new Promise<void>((resolve) => this.closedWaiters.push(resolve));
  }
}
