// Jobs and schedules in a server process (docs/language.md §2.8): starting and stopping the runner and the scheduler as `--jobs` says.

import type { Logger } from "../core/log.js";
import type { Database, ServerSpec } from "../contract/index.js";
import { JobRunner, type RunnerOptions } from "./runner.js";
import { Scheduler } from "./schedules.js";
import type { JobStats } from "../contract/jobs.js";

export type * from "../contract/jobs.js";
export { enqueue } from "./enqueue.js";
export { DEFAULT_CONCURRENCY, POLL_MS } from "./runner.js";

export interface RunningJobs {
  stats(): Promise<JobStats>;
  /** Stops claiming and ticking; running jobs get `graceMs` to finish, the rest go back to the queue. */
  stop(graceMs: number): Promise<void>;
}

/** Starts the runner and the scheduler of `spec` on `db`; null without jobs or with `--jobs off`. `options.spans`: runs traced. */
export async function startJobs(spec: ServerSpec, db: Database, log: Logger, options: RunnerOptions): Promise<RunningJobs | null> {
  if (spec.jobs === undefined) return null;
  const runner = new JobRunner(db, spec.jobs, log, options);
  const scheduler = new Scheduler(db, spec.jobs.schedules, log);
  await scheduler.start();
  runner.start();
  return {
    stats: () => runner.stats(),
    stop: async (graceMs) => {
      await scheduler.stop();
      await runner.stop(graceMs);
    },
  };
}
