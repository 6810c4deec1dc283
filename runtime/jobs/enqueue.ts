// `enqueue` in an action or a job (docs/language.md §2.8): one INSERT into svc_jobs on the
// caller's executor, so the job exists exactly when the caller's transaction commits. The
// row carries the trace context of the span that enqueued it, when traced.

import { createHash } from "node:crypto";
import { newId } from "../lang/ids.js";
import { traceCarrier } from "../lang/trace-context.js";
import type { Executor } from "../contract/index.js";
import { jobStatements } from "./table.js";
import type { EnqueueOptions, JobSpec } from "../contract/jobs.js";

export async function enqueue(tx: Executor, job: JobSpec, args: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
  const now = Date.now();
  const unique = options.unique === undefined ? null : uniqueKey(job.name, options.unique);
  // Inside a traced request or job run: its span, which the job's run will link to.
  const trace = traceCarrier(tx);
  await tx.run(jobStatements.enqueue, [
    options.id ?? newId(), job.name, job.queue, JSON.stringify(args), options.priority ?? job.priority, now + (options.delayMs ?? 0),
    job.attempts, job.timeoutMs, unique, now, trace?.traceparent ?? null, trace?.tracestate ?? null,
  ]);
}

/** The stored key: a digest, so any value fits the indexed column on every backend. */
export function uniqueKey(job: string, value: unknown): string {
  return createHash("sha256").update(job).update("\0").update(JSON.stringify(value) ?? "null").digest("hex");
}
