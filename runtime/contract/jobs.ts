// What a generated server declares about jobs and schedules (docs/language.md §2.8), and what
// a running job sees of itself.

import type { Awaitable, Executor, Isolation } from "./index.js";

/** A job as its body sees it: `job_id()` is `id`, the same on every attempt. */
export interface JobRun {
  id: string;
  /** From 1. */
  attempt: number;
}

export interface JobSpec {
  /** `module.name`, as the jobs table stores it. */
  name: string;
  queue: string;
  /** Runs at most this many times (`attempts N`). */
  attempts: number;
  /** An attempt running longer fails (`timeout 30s`); its transaction rolls back at its next statement. */
  timeoutMs: number;
  /** `priority N` of the declaration, the default of its enqueues: higher runs first. */
  priority: number;
  isolation?: Isolation;
  /** Checks the stored arguments as an action's are checked, then runs the body on `tx`. */
  run(tx: Executor, args: Record<string, unknown>, job: JobRun): Awaitable<unknown>;
}

export type Every = { cron: string; zone: string } | { intervalMs: number };

export interface ScheduleSpec {
  /** `module.name`. */
  name: string;
  every: Every;
  job: JobSpec;
  /** Constant arguments, checked at build time. */
  args: Record<string, unknown>;
  /** A tick no server claimed in time (all were down): run once on start, or skip. */
  missed: "skip" | "run_once";
}

export interface JobsSpec {
  jobs: JobSpec[];
  schedules: ScheduleSpec[];
}

/** `enqueue … after 10m unique key priority 5`: each absent when not written. */
export interface EnqueueOptions {
  delayMs?: number;
  unique?: unknown;
  priority?: number;
  /** The job's id; a schedule's tick names its job (`<tick ms>.<schedule digest>`), every other job is a new ULID. */
  id?: string;
}

/** What /health/jobs answers (docs/operations.md). */
export interface JobStats {
  queued: number;
  running: number;
  failed: number;
  /** Seconds the oldest job ready to run has waited; 0 when none waits. */
  oldest_pending_seconds: number;
}
