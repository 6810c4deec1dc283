// Runs jobs in a server process (docs/language.md §2.8, docs/operations.md "Jobs"): claims
// ready jobs up to its concurrency, runs each body in a transaction that also deletes the
// job's row (so a run whose lease was lost to another process rolls back instead of
// committing twice), and records a failure with its backoff or as failed for good. One log
// line per run. `stop` claims no more, lets running jobs finish within the grace period and
// returns the rest to the queue.

import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import type { Logger } from "../core/log.js";
import type { Database, LaterSpans } from "../contract/index.js";
import { type CurrentSpan, viewUnder } from "../lang/trace-context.js";
import { backoffDelay } from "./backoff.js";
import { claim, type Claimed } from "./claim.js";
import { guarded, RunAbandoned, type RunState } from "./guard.js";
import { jobStatements as sql } from "./table.js";
import type { JobSpec, JobStats, JobsSpec } from "../contract/jobs.js";
import { SvcError } from "../core/errors.js";

export interface RunnerOptions {
  /** Jobs run at once by this process. */
  concurrency: number;
  /** How often an idle runner looks for work. */
  pollMs: number;
  /** When traced (runtime/traces): each run is a span, linked to the one that enqueued the job. */
  spans?: LaterSpans | null;
}

export const DEFAULT_CONCURRENCY = 4;
export const POLL_MS = 200;
/** The longest error text kept with a job. */
const MAX_ERROR = 2000;

class LeaseLost extends Error {}

export class JobRunner {
  private readonly byName: Map<string, JobSpec>;
  private readonly running = new Map<string, { state: RunState; done: Promise<void>; owner: string }>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private stopping = false;
  private polls = 0;
  /** This process's leases are `<process id>.<n>`: one per claim, so a lost lease is told apart. */
  private readonly process = randomBytes(6).toString("hex");
  private claims = 0;

  constructor(
    private readonly db: Database,
    spec: JobsSpec,
    private readonly log: Logger,
    private readonly options: RunnerOptions,
  ) {
    this.byName = new Map(spec.jobs.map((j) => [j.name, j]));
  }

  start(): void {
    this.schedule(0);
  }

  /** Looks for work soon (a job finished: a slot is free). */
  private schedule(ms: number): void {
    if (this.stopping || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.poll();
    }, ms);
    this.timer.unref?.();
  }

  private async poll(): Promise<void> {
    if (this.stopping || this.polling) return;
    this.polling = true;
    let full = false;
    try {
      const free = this.options.concurrency - this.running.size;
      if (free > 0) {
        const now = Date.now();
        // Now and then: a lease that ended on the last attempt marks its job failed.
        if (this.polls++ % 25 === 0) await this.db.run(sql.expire, [now]);
        const owner = `${this.process}.${++this.claims}`;
        const jobs = await claim(this.db, owner, free, now);
        for (const c of jobs) this.begin(c, owner);
        full = jobs.length === free;
      }
    } catch (err) {
      this.log.error("claiming jobs failed", { error: message(err) });
    } finally {
      this.polling = false;
    }
    if (!full || this.running.size < this.options.concurrency) this.schedule(full ? 0 : this.options.pollMs);
  }

  private begin(c: Claimed, owner: string): void {
    const state: RunState = { abandoned: null };
    const done = this.runOne(c, owner, state).finally(() => {
      this.running.delete(c.id);
      this.schedule(0);
    });
    this.running.set(c.id, { state, done, owner });
  }

  private async runOne(c: Claimed, owner: string, state: RunState): Promise<void> {
    const started = performance.now();
    const spec = this.byName.get(c.job);
    let outcome = "done";
    let error: string | null = null;
    // The run's span, when traced: its statements are its children, and the "job run" line names its trace.
    let traceId: string | undefined;
    const attempt = async (span?: CurrentSpan): Promise<void> => {
      traceId = span?.spanContext().traceId;
      if (spec === undefined) throw new SvcError("SVC_ERR_INTERNAL", `no job ${c.job} in this server (built from other sources?)`);
      const args = JSON.parse(c.args) as Record<string, unknown>;
      const db = viewUnder(this.db, span);
      const work = db.transaction(
        async (tx) => {
          const g = guarded(tx, state);
          await spec.run(g, args, { id: c.id, attempt: c.attempt });
          if (state.abandoned !== null) throw new RunAbandoned(state.abandoned);
          if ((await tx.run(sql.complete, [c.id, owner])) !== 1) throw new LeaseLost();
        },
        spec.isolation === undefined ? undefined : { isolation: spec.isolation },
      );
      await withTimeout(work, c.timeoutMs, state);
    };
    const spans = this.options.spans ?? null;
    try {
      await (spans === null ? attempt() : spans.consumer(`job ${c.job}`, runAttributes(c, spec), c.enqueuedBy, attempt));
    } catch (err) {
      if (err instanceof LeaseLost) outcome = "lease lost";
      else if (state.abandoned === "returned at shutdown") outcome = "returned";
      else {
        error = (err instanceof RunAbandoned ? err.message : message(err)).slice(0, MAX_ERROR);
        outcome = await this.recordFailure(c, owner, error);
      }
    }
    const fields: Record<string, unknown> = { job_id: c.id, job: c.job, attempt: c.attempt, duration_ms: Math.round(performance.now() - started), outcome };
    if (error !== null) fields.error = error;
    if (traceId !== undefined) fields.trace_id = traceId;
    if (outcome === "done" || outcome === "returned") this.log.info("job run", fields);
    else this.log.warn("job run", fields);
  }

  private async recordFailure(c: Claimed, owner: string, error: string): Promise<string> {
    try {
      if (c.attempt < c.maxAttempts) {
        await this.db.run(sql.retryLater, [Date.now() + backoffDelay(c.attempt), error, c.id, owner]);
        return "retry";
      }
      await this.db.run(sql.fail, [error, c.id, owner]);
      return "failed";
    } catch (err) {
      this.log.error("recording a job's failure failed", { job_id: c.id, error: message(err) });
      return "unrecorded";
    }
  }

  /** Claims no more; waits for running jobs up to `graceMs`, then returns the rest to the queue. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((done) => {
      timer = setTimeout(done, graceMs);
    });
    await Promise.race([Promise.all([...this.running.values()].map((r) => r.done)), late]);
    clearTimeout(timer);
    const left = [...this.running.entries()];
    // Said before waiting on them: a run given up on ends only at its next statement.
    if (left.length > 0) this.log.info("shutdown grace ended; returning running jobs", { jobs: left.length, grace_ms: graceMs });
    for (const [, r] of left) r.state.abandoned = "returned at shutdown";
    await Promise.all(left.map(([, r]) => r.done));
    for (const [id, r] of left) {
      try {
        await this.db.run(sql.release, [Date.now(), id, r.owner]);
      } catch (err) {
        this.log.error("returning a job at shutdown failed", { job_id: id, error: message(err) });
      }
    }
    if (left.length > 0) this.log.info("jobs returned to the queue at shutdown", { jobs: left.length });
  }

  async stats(): Promise<JobStats> {
    const now = Date.now();
    const r = await this.db.one(sql.stats, [now]);
    const oldest = r?.oldest === null || r?.oldest === undefined ? null : Number(r.oldest);
    return {
      queued: Number(r?.queued ?? 0),
      running: Number(r?.running ?? 0),
      failed: Number(r?.failed ?? 0),
      oldest_pending_seconds: oldest === null ? 0 : Math.max(0, Math.floor((now - oldest) / 1000)),
    };
  }
}

/** The run, or its abandonment after `ms`: the attempt fails then, and its transaction rolls back at its next statement. */
async function withTimeout(work: Promise<void>, ms: number, state: RunState): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      state.abandoned ??= `timed out after ${ms} ms`;
      reject(new RunAbandoned(state.abandoned));
    }, ms);
  });
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    // A run given up on still holds its transaction: wait for it to end before the outcome is written.
    await work.catch(() => undefined);
  }
}

/** A run's span attributes: OpenTelemetry's messaging conventions, with the queue as destination. */
function runAttributes(c: Claimed, spec: JobSpec | undefined): Record<string, string | number> {
  return {
    "messaging.system": "svc",
    "messaging.operation.type": "process",
    "messaging.operation.name": "run",
    "messaging.destination.name": spec?.queue ?? "",
    "messaging.message.id": c.id,
    "svc.job": c.job,
    "svc.job.attempt": c.attempt,
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
