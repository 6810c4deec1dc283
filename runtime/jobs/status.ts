// What jobs add to the HTTP surface (docs/operations.md "Jobs"): `GET /health/jobs`, the
// queue's numbers, and `--jobs only`, a process that serves /health and nothing else.

import type { EndpointSpec, ServerSpec } from "../contract/index.js";
import type { RunningJobs } from "./index.js";

export const JOB_STATUS_PATH = "/health/jobs";

/** `spec` with `GET /health/jobs` first in its routes, when this process runs jobs. */
export function withJobStatus(spec: ServerSpec, jobs: RunningJobs | null): ServerSpec {
  if (jobs === null) return spec;
  const endpoint: EndpointSpec = { kind: "query", name: "svc.jobs", run: () => jobs.stats() };
  return { ...spec, routes: [{ method: "GET", path: JOB_STATUS_PATH, target: { kind: "endpoint", endpoint } }, ...spec.routes] };
}

/** `--jobs only`: no app routes, pages or files; /health (and /health/jobs) answer. */
export function jobsOnlySpec(spec: ServerSpec): ServerSpec {
  return { ...spec, routes: [], app: undefined, webhooks: undefined, openapi: undefined };
}
