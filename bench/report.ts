import type { BenchOptions } from "./args.js";
import type { EndpointName } from "./endpoints.js";
import type { ResponseBytes } from "./smoke.js";
import type { Ratio, RunRecord, ServerName, Summary, Target } from "./summary.js";

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  options: BenchOptions;
  machine: {
    cpuModel: string;
    cpus: number;
    node: string;
    os: string;
    clockTicksPerSecond: number;
    loadAverageAtStart: number;
  };
  method: string;
  seededTasks: number;
  svc: { ran: true; workers: number | string } | { ran: false; reason: string };
  responseBytes: Partial<Record<ServerName, ResponseBytes>>;
  summaries: Summary[];
  ratios: Ratio[];
  targets: Target[];
  runs: RunRecord[];
}

const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const fixed = (digits: number) => (value: number) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

function table(header: string[], rows: string[][], rightAligned: ReadonlySet<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

export function formatReport(report: BenchReport): string {
  const { options } = report;
  const out: string[] = [];
  out.push(
    `svc bench: ${report.seededTasks} seeded tasks, ${options.rounds} rounds × ${options.durationSeconds} s per run, ` +
      `${options.connections} connections, ${report.machine.cpus} × ${report.machine.cpuModel}, node ${report.machine.node}`,
  );
  out.push(
    report.svc.ran
      ? `svc server: workers: ${report.svc.workers}`
      : `svc server: SKIPPED: ${report.svc.reason.split("\n")[0]}`,
  );
  out.push("");
  out.push("Per server and endpoint (medians over the rounds; req/s range is min–max over the rounds)");
  const rows = report.summaries.map((s) => [
    s.endpoint,
    s.server,
    int.format(s.reqPerSec),
    `${int.format(s.reqPerSecMin)}–${int.format(s.reqPerSecMax)}`,
    fixed(2)(s.latencyP99Ms),
    fixed(1)(s.cpuUsPerRequest),
    fixed(0)(s.serverCpuPercent),
    int.format(report.responseBytes[s.server]?.[s.endpoint] ?? Number.NaN),
    int.format(s.non2xx + s.errors),
  ]);
  out.push(
    table(
      ["endpoint", "server", "req/s", "req/s range", "p99 ms", "CPU µs/req", "CPU %", "resp bytes", "failed"],
      rows,
      new Set([2, 3, 4, 5, 6, 7, 8]),
    ),
  );
  const failed = report.summaries.filter((s) => s.non2xx + s.errors > 0);
  if (failed.length > 0) {
    out.push(
      `WARNING: failed requests in ${failed.map((s) => `${s.server} ${s.endpoint}`).join(", ")}; those figures are suspect.`,
    );
  }
  out.push("");
  if (!report.svc.ran) {
    out.push("Ratios and targets compare svc with the baselines; svc was skipped, so there are none.");
    return out.join("\n");
  }
  out.push("Ratios, svc ÷ baseline (req/s: above 1 is better for svc; CPU/request: below 1 is better for svc)");
  const byEndpoint = new Map<EndpointName, Partial<Record<"bare" | "fastify", Ratio>>>();
  for (const ratio of report.ratios)
    byEndpoint.set(ratio.endpoint, { ...byEndpoint.get(ratio.endpoint), [ratio.baseline]: ratio });
  const ratioRows = [...byEndpoint].map(([endpoint, r]) => [
    endpoint,
    fixed(2)(r.bare?.reqPerSec ?? Number.NaN),
    fixed(2)(r.fastify?.reqPerSec ?? Number.NaN),
    fixed(2)(r.bare?.cpuPerRequest ?? Number.NaN),
    fixed(2)(r.fastify?.cpuPerRequest ?? Number.NaN),
  ]);
  out.push(
    table(
      ["endpoint", "req/s svc/bare", "req/s svc/fastify", "CPU svc/bare", "CPU svc/fastify"],
      ratioRows,
      new Set([1, 2, 3, 4]),
    ),
  );
  out.push("");
  out.push("Targets");
  out.push(
    table(
      ["target", "endpoint", "ratio", "limit", "status"],
      report.targets.map((t) => [
        t.description,
        t.endpoint,
        fixed(2)(t.value),
        `${t.limit === 1 ? "≤" : "≥"} ${t.limit.toFixed(2)}`,
        t.met ? "met" : "NOT MET",
      ]),
      new Set([2]),
    ),
  );
  return out.join("\n");
}
