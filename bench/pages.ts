// `node build/bench/pages.js` (after `npx tsc -p tsconfig.json`): the task tracker's HTML
// pages against the JSON endpoints they are built from, on one svc server and the same rows.
// The target: /tasks (50 rows through jq and mustache) serves ≥ 0.5× the req/s of
// /api/task_tracker:list_tasks?limit=50. See bench/README.md, "bench:pages".
import { mkdtempSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseBenchArgs, USAGE } from "./args.js";
import type { BenchOptions } from "./args.js";
import type { LoadRequest } from "./endpoints.js";
import { runLoad } from "./load.js";
import { benchPaths } from "./paths.js";
import { PAGE_LOADS, checkPages, getJsonPath, getPagePath, LIST_JSON_PATH, LIST_PAGE_PATH, LIST_PAGE_REQUEST } from "./pages-check.js";
import type { PageLoad } from "./pages-check.js";
import { prepare, svcSpec } from "./prepare.js";
import { clockTicksPerSecond } from "./proc-cpu.js";
import type { Resources } from "./resources.js";
import { log, runBench, writeResults } from "./runner.js";
import { startServer } from "./server-process.js";
import type { RunningServer } from "./server-process.js";
import { median } from "./summary.js";
import { seededRandom } from "./ulid.js";

const TARGET = 0.5;
const PAGES_USAGE = USAGE.replace("npm run bench --", "node build/bench/pages.js").replace(/\n  --skip-svc[^\n]*/, "");

interface PageRun {
  round: number;
  load: PageLoad;
  reqPerSec: number;
  latencyP99Ms: number;
  cpuUsPerRequest: number;
  failed: number;
}

interface PageSummary {
  load: PageLoad;
  path: string;
  reqPerSec: number;
  reqPerSecMin: number;
  reqPerSecMax: number;
  latencyP99Ms: number;
  cpuUsPerRequest: number;
  bytes: number;
  failed: number;
}

/** Each load's request sequence; the :id loads walk every seeded id in one shuffled order. */
function requestsFor(ids: readonly string[]): Record<PageLoad, LoadRequest[]> {
  const rng = seededRandom(11);
  const order = [...ids];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return {
    list_json: [{ method: "GET", path: LIST_JSON_PATH }],
    list_page: [LIST_PAGE_REQUEST],
    get_json: order.map((id) => ({ method: "GET", path: getJsonPath(id) })),
    get_page: order.map((id) => ({ method: "GET", path: getPagePath(id), headers: { accept: "text/html" } })),
  };
}

const PATH_LABEL: Record<PageLoad, string> = {
  list_json: LIST_JSON_PATH,
  list_page: LIST_PAGE_PATH,
  get_json: "/api/task_tracker:get_task?id=…",
  get_page: "/tasks/:id",
};

async function main(options: BenchOptions, resources: Resources): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg()[0];
  const paths = benchPaths();
  const tmp = mkdtempSync(join(tmpdir(), "svc-bench-pages-"));
  resources.trackDir(tmp);
  const prepared = await prepare({ ...options, skipSvc: false }, paths, tmp, resources, log);
  if (!prepared.svc.ran) throw new Error(`the svc server could not run: ${prepared.svc.reason}`);
  const server: RunningServer = await startServer(
    svcSpec(prepared.svc, prepared.dbFiles.svc!, tmp, options.svcWorkers),
    resources,
  );
  const bytes = await checkPages(server.baseUrl, prepared.tasks);
  log(`svc is up at ${server.baseUrl} (pid ${server.pid}); its pages render the seeded tasks`);

  const requests = requestsFor(prepared.tasks.map((t) => t.id));
  const clkTck = clockTicksPerSecond();
  const measure = async (load: PageLoad, seconds: number, round: number): Promise<PageRun> => {
    const result = await runLoad(
      {
        driverPath: paths.driver,
        serverPid: server.pid,
        run: {
          url: server.baseUrl,
          connections: options.connections,
          durationSeconds: seconds,
          requests: requests[load],
        },
      },
      resources,
    );
    return {
      round,
      load,
      reqPerSec: result.requests / result.durationSeconds,
      latencyP99Ms: result.latencyP99Ms,
      cpuUsPerRequest: result.requests > 0 ? ((result.serverCpuTicks / clkTck) * 1e6) / result.requests : Number.NaN,
      failed: result.non2xx + result.errors,
    };
  };

  if (options.warmupSeconds > 0) for (const load of PAGE_LOADS) await measure(load, options.warmupSeconds, 0);
  const runs: PageRun[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    // Rotating the order spreads the machine's drift over all four loads.
    const order = PAGE_LOADS.map((_, i) => PAGE_LOADS[(i + round - 1) % PAGE_LOADS.length]);
    log(`round ${round}/${options.rounds}`);
    for (const load of order) {
      const run = await measure(load, options.durationSeconds, round);
      runs.push(run);
      log(
        `  ${load.padEnd(10)} ${Math.round(run.reqPerSec).toString().padStart(6)} req/s  p99 ${run.latencyP99Ms.toFixed(2)} ms  CPU ${run.cpuUsPerRequest.toFixed(0)} µs/req${run.failed ? `  ${run.failed} FAILED` : ""}`,
      );
    }
  }
  await server.stop();

  const summaries: PageSummary[] = PAGE_LOADS.map((load) => {
    const mine = runs.filter((r) => r.load === load);
    const rates = mine.map((r) => r.reqPerSec);
    return {
      load,
      path: PATH_LABEL[load],
      reqPerSec: median(rates),
      reqPerSecMin: Math.min(...rates),
      reqPerSecMax: Math.max(...rates),
      latencyP99Ms: median(mine.map((r) => r.latencyP99Ms)),
      cpuUsPerRequest: median(mine.map((r) => r.cpuUsPerRequest)),
      bytes: bytes[load],
      failed: mine.reduce((sum, r) => sum + r.failed, 0),
    };
  });
  const of = (load: PageLoad) => summaries.find((s) => s.load === load)!;
  const listRatio = of("list_page").reqPerSec / of("list_json").reqPerSec;
  const getRatio = of("get_page").reqPerSec / of("get_json").reqPerSec;
  const cpuRatio = of("list_json").cpuUsPerRequest / of("list_page").cpuUsPerRequest;

  const out = [
    `svc pages bench: ${prepared.tasks.length} seeded tasks, ${options.rounds} rounds × ${options.durationSeconds} s, ${options.connections} connections, --workers ${options.svcWorkers}, ${cpus().length} CPUs (load average ${loadAtStart.toFixed(1)} at start)`,
    "",
    row(["path", "req/s", "req/s range", "p99 ms", "CPU µs/req", "resp bytes", "failed"]),
    ...summaries.map((s) =>
      row([
        s.path,
        s.reqPerSec.toFixed(0),
        `${s.reqPerSecMin.toFixed(0)}–${s.reqPerSecMax.toFixed(0)}`,
        s.latencyP99Ms.toFixed(2),
        s.cpuUsPerRequest.toFixed(0),
        String(s.bytes),
        String(s.failed),
      ]),
    ),
    "",
    `/tasks ÷ list_tasks?limit=50 req/s: ${listRatio.toFixed(2)} (target ≥ ${TARGET.toFixed(2)}: ${listRatio >= TARGET ? "met" : "NOT MET"})`,
    `/tasks/:id ÷ get_task req/s: ${getRatio.toFixed(2)}`,
    // The steadier view on a shared machine: the req/s ratio a CPU-bound server would show.
    `CPU/request, list_tasks ÷ /tasks: ${cpuRatio.toFixed(2)}; get_task ÷ /tasks/:id: ${(of("get_json").cpuUsPerRequest / of("get_page").cpuUsPerRequest).toFixed(2)}`,
  ];
  if (summaries.some((s) => s.failed > 0)) out.push("WARNING: failed requests; those figures are suspect.");
  process.stdout.write(out.join("\n") + "\n");
  const report = {
    startedAt,
    finishedAt: new Date().toISOString(),
    options,
    loadAverageAtStart: loadAtStart,
    summaries,
    ratios: { listPageOverJson: listRatio, getPageOverJson: getRatio, listJsonCpuOverPageCpu: cpuRatio },
    target: {
      description: "/tasks req/s ≥ 0.5 × list_tasks?limit=50",
      value: listRatio,
      limit: TARGET,
      met: listRatio >= TARGET,
    },
    runs,
  };
  log(`\nfull results: ${writeResults(paths.resultsDir, "pages-", startedAt, report)}`);
}

function row(cells: string[]): string {
  const widths = [LIST_JSON_PATH.length, 7, 13, 8, 11, 11, 7];
  return cells
    .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
    .join(" ")
    .trimEnd();
}

function parsePagesArgs(argv: string[]): BenchOptions | "help" {
  const options = parseBenchArgs(argv);
  if (options !== "help" && options.skipSvc) throw new Error("--skip-svc: the pages bench measures only svc");
  return options;
}

runBench({ name: "bench:pages", usage: PAGES_USAGE, parse: parsePagesArgs, main });
