// `npm run bench`: the generated svc server side by side with two hand-written baselines.
// See bench/README.md for what is measured and how to read it.
import { mkdtempSync } from "node:fs";
import { cpus, loadavg, platform, release, tmpdir } from "node:os";
import { join } from "node:path";
import { parseBenchArgs, USAGE } from "./args.js";
import type { BenchOptions } from "./args.js";
import { countSqlite } from "./callgrind/sqlite.js";
import { ENDPOINTS, loadRequests } from "./endpoints.js";
import type { EndpointName, LoadRequest } from "./endpoints.js";
import { runLoad } from "./load.js";
import { benchPaths } from "./paths.js";
import type { BenchPaths } from "./paths.js";
import { baselineSpec, prepare, SEEDED_TASKS, svcSpec } from "./prepare.js";
import type { Prepared } from "./prepare.js";
import { clockTicksPerSecond } from "./proc-cpu.js";
import { formatReport } from "./report.js";
import type { BenchReport } from "./report.js";
import type { Resources } from "./resources.js";
import { log, runBench, writeResults } from "./runner.js";
import { trimToSeed } from "./seed.js";
import { startServer } from "./server-process.js";
import type { RunningServer, ServerSpec } from "./server-process.js";
import { checkServer } from "./smoke.js";
import type { ResponseBytes } from "./smoke.js";
import { ratios, summarize, targets } from "./summary.js";
import type { RunRecord, ServerName } from "./summary.js";

const METHOD = [
  "Each server is its own process on 127.0.0.1 with its own copy of one seeded SQLite file (WAL).",
  "Load comes from autocannon in a separate driver process.",
  "Rounds interleave the servers, rotating their order each round; figures are medians over the rounds.",
  "req/s = completed responses / run time.",
  "p99 = 99th percentile of the response times autocannon's client measures (fractional ms).",
  "CPU/request = server user+system time from /proc/<pid>/stat (all threads) from the start to the end",
  "of the load, divided by completed responses.",
].join(" ");

interface Context {
  options: BenchOptions;
  paths: BenchPaths;
  resources: Resources;
  /** Holds the database copies and the svc build; removed at the end. */
  tmp: string;
  clkTck: number;
  prepared: Prepared;
  seededIds: string[];
  /** Built once: get_task's 1,000-request sequence is the same for every run. */
  requests: Record<EndpointName, LoadRequest[]>;
  servers: Map<ServerName, RunningServer>;
}

async function measure(
  ctx: Context,
  name: ServerName,
  endpoint: EndpointName,
  seconds: number,
  round: number,
): Promise<RunRecord> {
  const server = ctx.servers.get(name);
  if (!server) throw new Error(`no running ${name} server`);
  try {
    const load = await runLoad(
      {
        driverPath: ctx.paths.driver,
        serverPid: server.pid,
        run: {
          url: server.baseUrl,
          connections: ctx.options.connections,
          durationSeconds: seconds,
          requests: ctx.requests[endpoint],
        },
      },
      ctx.resources,
    );
    // Put the table back to the seeded rows so the next run, of any endpoint, starts equal.
    if (endpoint === "create_task") trimToSeed(dbFileOf(ctx, name), ctx.seededIds);
    const cpuSeconds = load.serverCpuTicks / ctx.clkTck;
    return {
      round,
      server: name,
      endpoint,
      requests: load.requests,
      durationSeconds: load.durationSeconds,
      reqPerSec: load.requests / load.durationSeconds,
      latencyP50Ms: load.latencyP50Ms,
      latencyP99Ms: load.latencyP99Ms,
      serverCpuTicks: load.serverCpuTicks,
      cpuUsPerRequest: load.requests > 0 ? (cpuSeconds * 1e6) / load.requests : Number.NaN,
      serverCpuPercent: (cpuSeconds / load.durationSeconds) * 100,
      non2xx: load.non2xx,
      errors: load.errors,
      timeouts: load.timeouts,
      statusCodes: load.statusCodes,
    };
  } catch (error) {
    const output = server.outputTail();
    throw new Error(
      `${name} ${endpoint}: ${(error as Error).message}${output ? `\n--- ${name} output ---\n${output}` : ""}`,
    );
  }
}

function dbFileOf(ctx: Context, name: ServerName): string {
  const file = ctx.prepared.dbFiles[name];
  if (!file) throw new Error(`no database file for ${name}`);
  return file;
}

function formatRun(run: RunRecord): string {
  const failed = run.non2xx + run.errors;
  return (
    `${run.endpoint.padEnd(11)} ${run.server.padEnd(7)} ${Math.round(run.reqPerSec).toString().padStart(7)} req/s  ` +
    `p99 ${run.latencyP99Ms.toFixed(2).padStart(6)} ms  CPU ${run.cpuUsPerRequest.toFixed(1).padStart(7)} µs/req ` +
    `(${run.serverCpuPercent.toFixed(0).padStart(3)} % busy)` +
    (failed > 0 ? `  (${failed} FAILED: ${JSON.stringify(run.statusCodes)})` : "")
  );
}

function specFor(ctx: Context, name: ServerName, dbFile: string): ServerSpec {
  if (name !== "svc") return baselineSpec(name, ctx.paths, dbFile, ctx.tmp);
  if (!ctx.prepared.svc.ran) throw new Error("the svc server was not built");
  return svcSpec(ctx.prepared.svc, dbFile, ctx.tmp, ctx.options.svcWorkers);
}

/**
 * Starts every server and checks its answers. A svc server that fails either is skipped with
 * its reason (it is the thing under construction); a failing baseline stops the bench.
 */
async function startAll(ctx: Context): Promise<Partial<Record<ServerName, ResponseBytes>>> {
  const bytes: Partial<Record<ServerName, ResponseBytes>> = {};
  for (const [name, dbFile] of Object.entries(ctx.prepared.dbFiles) as [ServerName, string][]) {
    let server: RunningServer | undefined;
    try {
      server = await startServer(specFor(ctx, name, dbFile), ctx.resources);
      bytes[name] = await checkServer(server.baseUrl, ctx.prepared.tasks);
    } catch (error) {
      await server?.stop();
      const reason = `${name}: ${(error as Error).message}`;
      if (name !== "svc") throw new Error(reason);
      log(`svc server SKIPPED: ${reason}`);
      ctx.prepared.svc = { ran: false, reason };
      delete bytes.svc;
      continue;
    }
    ctx.servers.set(name, server);
    trimToSeed(dbFile, ctx.seededIds);
    log(`${name} is up at ${server.baseUrl} (pid ${server.pid}) and answers all three endpoints`);
  }
  return bytes;
}

async function main(options: BenchOptions, resources: Resources): Promise<void> {
  if (options.callgrind) return countSqlite(options, options.callgrind, resources);
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg()[0];
  if (loadAtStart > cpus().length / 2) {
    log(
      `note: 1-minute load average is ${loadAtStart.toFixed(1)} on ${cpus().length} CPUs; req/s will be noisy (CPU/request less so)`,
    );
  }
  const paths = benchPaths();
  const tmp = mkdtempSync(join(tmpdir(), "svc-bench-"));
  resources.trackDir(tmp);

  const prepared = await prepare(options, paths, tmp, resources, log);
  const seededIds = prepared.tasks.map((task) => task.id);
  const ctx: Context = {
    options,
    paths,
    resources,
    tmp,
    clkTck: clockTicksPerSecond(),
    prepared,
    seededIds,
    requests: {
      list_tasks: loadRequests("list_tasks", seededIds),
      get_task: loadRequests("get_task", seededIds),
      create_task: loadRequests("create_task", seededIds),
    },
    servers: new Map(),
  };
  const responseBytes = await startAll(ctx);
  const names = [...ctx.servers.keys()];
  const perRun = options.durationSeconds + 0.6;
  const estimate = Math.ceil(
    names.length *
      ENDPOINTS.length *
      (options.rounds * perRun + (options.warmupSeconds > 0 ? options.warmupSeconds + 0.6 : 0)),
  );
  log(`servers: ${names.join(", ")}; about ${Math.ceil(estimate / 60)} min (${estimate} s) of load to go`);

  if (options.warmupSeconds > 0) {
    log(`warm-up: ${options.warmupSeconds} s per server and endpoint (not measured)`);
    for (const endpoint of ENDPOINTS)
      for (const name of names) await measure(ctx, name, endpoint, options.warmupSeconds, 0);
  }
  const runs: RunRecord[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    // Rotating the order each round spreads thermal and background drift over every server.
    const order = names.map((_, i) => names[(i + round - 1) % names.length]);
    log(`round ${round}/${options.rounds}: ${order.join(" → ")}`);
    for (const endpoint of ENDPOINTS) {
      for (const name of order) {
        const run = await measure(ctx, name, endpoint, options.durationSeconds, round);
        runs.push(run);
        log(`  ${formatRun(run)}`);
      }
    }
  }
  await Promise.all([...ctx.servers.values()].map((server) => server.stop()));

  const summaries = summarize(runs);
  const ratioList = ratios(summaries);
  const cpuList = cpus();
  const report: BenchReport = {
    startedAt,
    finishedAt: new Date().toISOString(),
    options,
    machine: {
      cpuModel: cpuList[0]?.model.trim() ?? "unknown",
      cpus: cpuList.length,
      node: process.version,
      os: `${platform()} ${release()}`,
      clockTicksPerSecond: ctx.clkTck,
      loadAverageAtStart: loadAtStart,
    },
    method: METHOD,
    seededTasks: SEEDED_TASKS,
    svc: ctx.prepared.svc.ran
      ? { ran: true, workers: ctx.prepared.svc.acceptsWorkers ? options.svcWorkers : "no --workers flag; ran as built" }
      : { ran: false, reason: ctx.prepared.svc.reason },
    responseBytes,
    summaries,
    ratios: ratioList,
    targets: targets(ratioList),
    runs,
  };
  process.stdout.write(formatReport(report) + "\n");
  log(`\nfull results: ${writeResults(paths.resultsDir, "", startedAt, report)}`);
}

runBench({ name: "bench", usage: USAGE, parse: parseBenchArgs, main });
