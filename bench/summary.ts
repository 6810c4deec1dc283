import { ENDPOINTS } from "./endpoints.js";
import type { EndpointName } from "./endpoints.js";

export const SERVERS = ["svc", "bare", "fastify"] as const;
export type ServerName = (typeof SERVERS)[number];

/** One measured run: one server, one endpoint, one round. */
export interface RunRecord {
  round: number;
  server: ServerName;
  endpoint: EndpointName;
  requests: number;
  durationSeconds: number;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  serverCpuTicks: number;
  cpuUsPerRequest: number;
  /** Server CPU time ÷ run time: near 100 % the server is CPU-bound, well below it waits. */
  serverCpuPercent: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

export interface Summary {
  server: ServerName;
  endpoint: EndpointName;
  runs: number;
  /** Medians over the rounds. */
  reqPerSec: number;
  latencyP99Ms: number;
  cpuUsPerRequest: number;
  serverCpuPercent: number;
  /** Spread of req/s over the rounds, to judge how much a ratio can be trusted. */
  reqPerSecMin: number;
  reqPerSecMax: number;
  /** Totals over the rounds; anything but 0 means the figures include failed requests. */
  non2xx: number;
  errors: number;
}

export interface Ratio {
  endpoint: EndpointName;
  baseline: "bare" | "fastify";
  /** svc req/s ÷ baseline req/s: above 1 means svc serves more. */
  reqPerSec: number;
  /** svc CPU/request ÷ baseline CPU/request: below 1 means svc spends less. */
  cpuPerRequest: number;
}

export interface Target {
  description: string;
  endpoint: EndpointName;
  value: number;
  limit: number;
  met: boolean;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(runs: readonly RunRecord[]): Summary[] {
  const summaries: Summary[] = [];
  for (const endpoint of ENDPOINTS) {
    for (const server of SERVERS) {
      const mine = runs.filter((run) => run.server === server && run.endpoint === endpoint);
      if (mine.length === 0) continue;
      const rates = mine.map((run) => run.reqPerSec);
      summaries.push({
        server,
        endpoint,
        runs: mine.length,
        reqPerSec: median(rates),
        latencyP99Ms: median(mine.map((run) => run.latencyP99Ms)),
        cpuUsPerRequest: median(mine.map((run) => run.cpuUsPerRequest)),
        serverCpuPercent: median(mine.map((run) => run.serverCpuPercent)),
        reqPerSecMin: Math.min(...rates),
        reqPerSecMax: Math.max(...rates),
        non2xx: mine.reduce((sum, run) => sum + run.non2xx, 0),
        errors: mine.reduce((sum, run) => sum + run.errors, 0),
      });
    }
  }
  return summaries;
}

export function ratios(summaries: readonly Summary[]): Ratio[] {
  const find = (server: ServerName, endpoint: EndpointName) =>
    summaries.find((s) => s.server === server && s.endpoint === endpoint);
  const out: Ratio[] = [];
  for (const endpoint of ENDPOINTS) {
    const svc = find("svc", endpoint);
    if (!svc) continue;
    for (const baseline of ["bare", "fastify"] as const) {
      const base = find(baseline, endpoint);
      if (!base) continue;
      out.push({
        endpoint,
        baseline,
        reqPerSec: svc.reqPerSec / base.reqPerSec,
        cpuPerRequest: svc.cpuUsPerRequest / base.cpuUsPerRequest,
      });
    }
  }
  return out;
}

/**
 * The project's performance targets: svc spends no more CPU per request than the hand-written
 * floor on any endpoint, and serves at least 1.1× Fastify's req/s on get_task and create_task.
 */
export function targets(ratioList: readonly Ratio[]): Target[] {
  const out: Target[] = [];
  for (const ratio of ratioList) {
    if (ratio.baseline === "bare") {
      out.push({
        description: "svc CPU/request ≤ bare",
        endpoint: ratio.endpoint,
        value: ratio.cpuPerRequest,
        limit: 1,
        met: ratio.cpuPerRequest <= 1,
      });
    } else if (ratio.endpoint === "get_task" || ratio.endpoint === "create_task") {
      out.push({
        description: "svc req/s ≥ 1.1× fastify",
        endpoint: ratio.endpoint,
        value: ratio.reqPerSec,
        limit: 1.1,
        met: ratio.reqPerSec >= 1.1,
      });
    }
  }
  return out;
}
