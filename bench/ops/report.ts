import type { OpsLoadOptions } from "./args.js";
import type { ShutdownReport } from "./shutdown-run.js";
import type { SoakFigures } from "./soak.js";

export interface RatioFigures {
  seconds: number;
  /** Runs per worker count: list_tasks, then create_task. */
  byWorkers: Record<number, SoakFigures[]>;
}

export interface OpsReport {
  when: string;
  cores: number;
  loadAverage: number;
  options: OpsLoadOptions;
  pinning: string;
  soak: SoakFigures[];
  shutdown: ShutdownReport | null;
  ratio: RatioFigures | null;
}

const fixed = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : "-");

export function formatOpsReport(r: OpsReport): string {
  const out: string[] = [
    `bench:load  ${r.when}  ${r.cores} cores, load average ${fixed(r.loadAverage, 2)}; ${r.pinning}`,
  ];
  if (r.soak.length > 0) {
    out.push("", `Soak: ${r.options.connections} connections, --workers ${r.options.workers}, log level info`);
    out.push("endpoint      seconds  requests   req/s   p50 ms  p99 ms  errors  timeouts  non-2xx");
    for (const s of r.soak) {
      out.push(
        [
          s.endpoint.padEnd(12),
          fixed(s.seconds).padStart(8),
          String(s.requests).padStart(9),
          fixed(s.reqPerSec, 0).padStart(7),
          fixed(s.p50Ms, 2).padStart(8),
          fixed(s.p99Ms, 2).padStart(7),
          String(s.errors).padStart(7),
          String(s.timeouts).padStart(9),
          String(s.non2xx).padStart(8),
        ].join(" "),
      );
    }
  }
  if (r.shutdown !== null) {
    const s = r.shutdown;
    const ok = s.acceptedUnanswered === 0 && s.exitCode === 0;
    out.push(
      "",
      `Shutdown under load: ${s.connections} connections, --workers ${s.workers}, SIGTERM after 5 s`,
      `  exit code ${s.exitCode}, stopped ${s.stopMs} ms after the signal`,
      `  accepted by the server: ${s.accepted}; answered completely: ${JSON.stringify(s.answeredByStatus)}`,
      `  accepted without a complete answer: ${s.acceptedUnanswered}${s.examplesUnanswered.length > 0 ? ` e.g. ${JSON.stringify(s.examplesUnanswered)}` : ""}`,
      `  lost at the client, never accepted: ${JSON.stringify(s.notAcceptedByReason)}`,
      `  ${ok ? "PASS: every accepted request got a complete answer" : "FAIL"}`,
    );
  }
  if (r.ratio !== null) {
    out.push("", `--workers 2 vs --workers 1: ${r.options.connections} connections, ${r.ratio.seconds} s each`);
    const one = r.ratio.byWorkers[1] ?? [];
    const two = r.ratio.byWorkers[2] ?? [];
    for (let i = 0; i < Math.min(one.length, two.length); i++) {
      out.push(
        `  ${one[i].endpoint.padEnd(12)} ${fixed(one[i].reqPerSec, 0).padStart(7)} → ${fixed(two[i].reqPerSec, 0).padStart(7)} req/s` +
          `  ratio ${fixed(two[i].reqPerSec / one[i].reqPerSec, 2)}  (p99 ${fixed(one[i].p99Ms, 2)} → ${fixed(two[i].p99Ms, 2)} ms,` +
          ` errors ${one[i].errors + two[i].errors}, non-2xx ${one[i].non2xx + two[i].non2xx})`,
      );
    }
  }
  return out.join("\n");
}
