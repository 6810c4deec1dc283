// Where GCRA state lives: a table every process and server on the database shares
// (DatabaseCounters), or a Map in this process for `--db :memory:`, whose database no
// other process can see either (MemoryCounters). Both answer the same three questions.

import type { Logger } from "../core/log.js";
import type { Database, Executor } from "../contract/index.js";
import { type CurrentSpan, viewUnder } from "../lang/trace-context.js";
import { decide, type Decision, type Rate } from "./gcra.js";
import { limitStatements } from "./sql.js";
import { SvcError } from "../core/errors.js";

export interface Counters {
  /**
   * One GCRA check of `id` at `now`: counts the request when it is allowed. `span`: the
   * request's, when traced, whose child its statement is.
   */
  take(id: string, now: number, rate: Rate, span?: CurrentSpan): Promise<Decision>;
  /**
   * The key's TAT, or null when it has none (never seen, or swept). `exec` is where to
   * read it: inside an action, its executor (on SQLite the connection is the transaction's).
   */
  peek(id: string, exec?: Executor): Promise<number | null>;
  /** Forgets the key. */
  forget(id: string, span?: CurrentSpan): Promise<void>;
}

/** The least time between two sweeps of passed rows by one process. */
export const SWEEP_INTERVAL_MS = 60 * 1000;

export class DatabaseCounters implements Counters {
  private nextSweep = 0;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  async take(id: string, now: number, rate: Rate, span?: CurrentSpan): Promise<Decision> {
    const row = await viewUnder(this.db, span).one(limitStatements.take, [id, now, rate.intervalMs, rate.capacityMs]);
    this.maybeSweep(now);
    if (row === null) throw new SvcError("SVC_ERR_INTERNAL", "svc_rate_limits.take returned no row");
    return { allowed: Number(row.allowed) === 1, tat: Number(row.tat) };
  }

  async peek(id: string, exec: Executor = this.db): Promise<number | null> {
    const row = await exec.one(limitStatements.peek, [id]);
    return row === null ? null : Number(row.tat);
  }

  async forget(id: string, span?: CurrentSpan): Promise<void> {
    await viewUnder(this.db, span).run(limitStatements.forget, [id]);
  }

  /** Deletes passed rows at most once per SWEEP_INTERVAL_MS, in the background; a failure is logged and retried later. */
  private maybeSweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    this.db.run(limitStatements.sweep, [now]).then(
      (deleted) => {
        if (deleted > 0) this.log.debug("passed rate-limit counters deleted", { deleted });
      },
      (err: unknown) => this.log.warn("could not delete passed rate-limit counters", { error: err instanceof Error ? err.message : String(err) }),
    );
  }
}

export class MemoryCounters implements Counters {
  private readonly tats = new Map<string, number>();
  private nextSweep = 0;

  take(id: string, now: number, rate: Rate, _span?: CurrentSpan): Promise<Decision> {
    const decision = decide(this.tats.get(id) ?? null, now, rate);
    if (decision.allowed) this.tats.set(id, decision.tat);
    if (now >= this.nextSweep) this.sweep(now);
    return Promise.resolve(decision);
  }

  peek(id: string, _exec?: Executor): Promise<number | null> {
    return Promise.resolve(this.tats.get(id) ?? null);
  }

  forget(id: string): Promise<void> {
    this.tats.delete(id);
    return Promise.resolve();
  }

  private sweep(now: number): void {
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [id, tat] of this.tats) if (tat < now) this.tats.delete(id);
  }
}
