// The bench:tfb report: a row per test type and target, then each target's ratio to the
// reference (req/s above 1: faster than the reference; CPU or instructions below 1: cheaper).

export interface Row {
  test: string;
  target: string;
  /** Timed mode: medians over the rounds. */
  reqPerSec?: number;
  reqPerSecRange?: [number, number];
  p99Ms?: number;
  cpuUsPerRequest?: number;
  cpuPercent?: number;
  /** Callgrind mode. */
  instructions?: number;
  settled?: boolean;
  /** Requests not answered 2xx, errors and timeouts, over every run. */
  failed: number;
}

const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

function columns(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ").trimEnd()).join("\n");
}

export function formatTable(rows: readonly Row[], tests: readonly string[], targets: readonly string[], reference: string): string {
  const countedMode = rows.some((r) => r.instructions !== undefined);
  const head = countedMode
    ? ["test", "target", "instructions/req", "failed"]
    : ["test", "target", "req/s", "req/s range", "p99 ms", "CPU µs/req", "CPU %", "failed"];
  const body = rows.map((r) =>
    countedMode
      ? [r.test, r.target, `${int.format(r.instructions!)}${r.settled ? "" : "*"}`, String(r.failed)]
      : [
          r.test,
          r.target,
          int.format(r.reqPerSec!),
          `${int.format(r.reqPerSecRange![0])}–${int.format(r.reqPerSecRange![1])}`,
          r.p99Ms!.toFixed(2),
          r.cpuUsPerRequest!.toFixed(1),
          r.cpuPercent!.toFixed(0),
          String(r.failed),
        ],
  );
  const others = targets.filter((t) => t !== reference);
  const ratioHead = ["test", "", ...others.flatMap((t) => (countedMode ? [`instr ${t}/${reference}`] : [`req/s ${t}/${reference}`, `CPU ${t}/${reference}`]))];
  const find = (test: string, target: string) => rows.find((r) => r.test === test && r.target === target);
  const ratioBody = tests.map((test) => {
    const ref = find(test, reference);
    return [
      test,
      "",
      ...others.flatMap((t) => {
        const row = find(test, t);
        if (!row || !ref) return countedMode ? ["n/a"] : ["n/a", "n/a"];
        return countedMode
          ? [(row.instructions! / ref.instructions!).toFixed(2)]
          : [(row.reqPerSec! / ref.reqPerSec!).toFixed(2), (row.cpuUsPerRequest! / ref.cpuUsPerRequest!).toFixed(2)];
      }),
    ];
  });
  const notes = [
    ...(rows.some((r) => r.failed > 0) ? ["a row with failed requests is suspect"] : []),
    ...(rows.some((r) => r.settled === false) ? ["* warm-up had not settled when counting began"] : []),
  ];
  return [columns([head, ...body]), "", `Ratios to ${reference}`, columns([ratioHead, ...ratioBody]), ...notes].join("\n");
}
