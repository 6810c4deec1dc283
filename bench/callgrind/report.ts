// The instruction-count table: instructions per request per server and endpoint, then svc's
// ratio to each baseline (below 1: svc executes fewer instructions per request).
import type { EndpointCount } from "./measure.js";

export interface CountRecord extends EndpointCount {
  server: string;
  endpoint: string;
}

export interface CountRatio {
  endpoint: string;
  baseline: string;
  /** svc instructions per request ÷ the baseline's. */
  ratio: number;
}

export interface Column {
  server: string;
  label: string;
}

/** svc's /tasks page: the list_tasks rows through page.jq and mustache. */
export const PAGE_ENDPOINT = "tasks_page";

const ENDPOINT_LABELS: Record<string, string> = {
  list_tasks: "list_tasks (50 rows)",
  [PAGE_ENDPOINT]: "/tasks page (50 rows)",
};

/** The page's requests per instruction as a share of svc's list_tasks': list ÷ page; null without both. */
export function pageToList(records: readonly CountRecord[]): number | null {
  const find = (endpoint: string) => records.find((r) => r.server === "svc" && r.endpoint === endpoint);
  const [page, list] = [find(PAGE_ENDPOINT), find("list_tasks")];
  return page && list ? list.perRequest / page.perRequest : null;
}

/** The page against the JSON list, as issue 16 states its target; "" when either is missing. */
export function pageLine(records: readonly CountRecord[]): string {
  const ratio = pageToList(records);
  if (ratio === null) return "";
  return `/tasks page, requests per instruction as a share of list_tasks': ${ratio.toFixed(2)} (target: at least 0.60)\n`;
}
const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** svc ÷ each baseline, per endpoint where both were counted. */
export function countRatios(records: readonly CountRecord[], baselines: readonly string[]): CountRatio[] {
  const out: CountRatio[] = [];
  for (const svc of records.filter((r) => r.server === "svc")) {
    for (const baseline of baselines) {
      const other = records.find((r) => r.server === baseline && r.endpoint === svc.endpoint);
      if (other) out.push({ endpoint: svc.endpoint, baseline, ratio: svc.perRequest / other.perRequest });
    }
  }
  return out;
}

/**
 * One row per endpoint: a column per server, then svc/<baseline> per baseline column. A figure
 * whose warm-up never settled carries a `*`, one that differs from its last warm-up batch a `†`;
 * a server that was not counted shows "n/a".
 */
export function formatCountTable(
  records: readonly CountRecord[],
  endpoints: readonly string[],
  columns: readonly Column[],
): string {
  const baselines = columns.filter((c) => c.server !== "svc");
  const ratios = countRatios(
    records,
    baselines.map((c) => c.server),
  );
  const header = ["endpoint", ...columns.map((c) => c.label), ...baselines.map((c) => `svc/${c.label.split(" ")[0]}`)];
  const rows = endpoints.map((endpoint) => [
    ENDPOINT_LABELS[endpoint] ?? endpoint,
    ...columns.map((c) => {
      const record = records.find((r) => r.server === c.server && r.endpoint === endpoint);
      if (!record) return "n/a";
      return `${int.format(record.perRequest)}${record.settled ? "" : "*"}${record.matchesWarmup ? "" : "†"}`;
    }),
    ...baselines.map((c) => {
      const ratio = ratios.find((r) => r.endpoint === endpoint && r.baseline === c.server);
      return ratio ? ratio.ratio.toFixed(2) : "n/a";
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join("  ")
      .trimEnd();
  const lines = [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  if (records.some((r) => !r.settled)) lines.push("* warm-up had not settled when counting began (see --max-warmups)");
  if (records.some((r) => !r.matchesWarmup)) {
    lines.push(
      "† the count differs from the last warm-up batch by more than the tolerance (a major GC in one of them?)",
    );
  }
  return lines.join("\n");
}
