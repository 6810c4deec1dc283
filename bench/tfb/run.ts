// `npm run bench:tfb`: TechEmpower's six test types on PostgreSQL, each implementation of
// targets.ts (the bare node:http and Fastify baselines, and svc's examples/techempower once it
// exists) on the same database server, in a schema of its own seeded alike, with the same
// pool size. Every target must first pass the TFB verifier (verify.ts); then either timed
// rounds (autocannon from a separate driver process, the order rotated each round, medians)
// or, with --callgrind, instructions per request. See bench/README.md ("TFB").
import { mkdirSync, mkdtempSync } from "node:fs";
import { cpus, loadavg, platform, release, tmpdir } from "node:os";
import { join } from "node:path";
import { COUNT_METHOD, countEndpoint } from "../callgrind/measure.js";
import type { CallgrindOptions } from "../callgrind/options.js";
import { CallgrindCounters, requireValgrind, underCallgrind } from "../callgrind/valgrind.js";
import { runLoad } from "../load.js";
import { benchPaths } from "../paths.js";
import { clockTicksPerSecond } from "../proc-cpu.js";
import type { Resources } from "../resources.js";
import { log, runBench, writeResults } from "../runner.js";
import { type RunningServer, startServer } from "../server-process.js";
import { median } from "../summary.js";
import { parseTfbArgs, type TfbOptions, USAGE } from "./args.js";
import { createSchema, dropSchema, readWorld, schemaUrl, seedTfb } from "./data.js";
import { type PreparedTarget, TARGETS, tfbRequest } from "./targets.js";
import { formatResults, type TestType, verifyTfb } from "./verify.js";
import { formatTable, type Row } from "./table.js";

interface Ready {
  name: string;
  prepared: PreparedTarget;
  dbUrl: string;
}

export interface TimedRun {
  target: string;
  test: TestType;
  round: number;
  reqPerSec: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  cpuPercent: number;
  failed: number;
}

async function main(options: TfbOptions, resources: Resources): Promise<void> {
  const startedAt = new Date();
  const loadAtStart = loadavg()[0];
  const paths = benchPaths();
  const tmp = mkdtempSync(join(tmpdir(), "svc-bench-tfb-"));
  resources.trackDir(tmp);
  const valgrind = options.callgrind ? requireValgrind() : null;
  const skipped: string[] = [];
  const schemas: string[] = [];
  const ready: Ready[] = [];
  const verification: Record<string, string> = {};
  try {
    for (const target of TARGETS.filter((t) => options.targets === null || options.targets.includes(t.name))) {
      let prepared: PreparedTarget;
      try {
        prepared = await target.prepare(paths, tmp, resources);
      } catch (error) {
        if (options.targets !== null) throw new Error(`${target.name}: ${(error as Error).message}`);
        skipped.push(`${target.name}: ${(error as Error).message}`);
        log(`${target.name} SKIPPED: ${(error as Error).message}`);
        continue;
      }
      const schema = `svc_bench_tfb_${target.name}_${process.pid}`;
      await createSchema(options.db, schema);
      schemas.push(schema);
      const dbUrl = schemaUrl(options.db, schema);
      if (prepared.ownsSchema) await (await startServer(prepared.spec(dbUrl), resources)).stop();
      await seedTfb(dbUrl);
      const server = await startServer(prepared.spec(dbUrl), resources);
      const results = await verifyTfb(server.baseUrl, { paths: prepared.paths, readWorld: () => readWorld(dbUrl), dateWaitMs: 1100 });
      await server.stop();
      verification[target.name] = formatResults(results);
      log(`${target.name}: TFB verification\n${verification[target.name]}`);
      if (results.some((r) => r.verdict === "fail")) {
        skipped.push(`${target.name}: fails the TFB verification`);
        continue;
      }
      // Verification ran /updates: every target starts from the same rows.
      await seedTfb(dbUrl);
      ready.push({ name: target.name, prepared, dbUrl });
    }
    if (ready.length === 0) throw new Error(`no target can run (${skipped.join("; ")})`);
    const names = ready.map((r) => r.name);
    const reference = options.reference ?? (names.includes("svc") ? "svc" : names.includes("fastify") ? "fastify" : names[0]);
    if (!names.includes(reference)) throw new Error(`the reference ${reference} does not run (${skipped.join("; ")})`);
    const common = {
      startedAt: startedAt.toISOString(),
      options,
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model.trim(),
        node: process.version,
        os: `${platform()} ${release()}`,
        loadAverageAtStart: loadAtStart,
      },
      verification,
      skipped,
      reference,
    };
    const rows = options.callgrind
      ? await counted(options, options.callgrind, ready, paths.driver, tmp, resources, valgrind!)
      : await timed(options, ready, paths.driver, resources);
    const title = options.callgrind
      ? `svc bench:tfb, instructions per request (callgrind, node --single-threaded, ${valgrind}); ` +
        `${options.callgrind.requests} counted after warm-up batches of ${options.callgrind.warmupRequests}; ` +
        `${options.connections} connections; queries=${options.queries}; the database server's work is not counted`
      : `svc bench:tfb: ${options.rounds} rounds × ${options.duration} s, ${options.connections} connections, ` +
        `queries=${options.queries}, ${cpus().length} × ${cpus()[0]?.model.trim()}, node ${process.version}; medians over the rounds`;
    process.stdout.write(
      `${title}\n\n${formatTable(rows.table, options.tests, names, reference)}\n` + (skipped.length ? `\nskipped: ${skipped.join("; ")}\n` : ""),
    );
    const file = writeResults(paths.resultsDir, options.callgrind ? "tfb-callgrind-" : "tfb-", common.startedAt, {
      ...common,
      finishedAt: new Date().toISOString(),
      ...(options.callgrind ? { method: COUNT_METHOD } : {}),
      table: rows.table,
      runs: rows.runs,
    });
    log(`\nfull results: ${file}`);
  } finally {
    for (const schema of schemas) await dropSchema(options.db, schema).catch((e: Error) => log(`could not drop ${schema}: ${e.message}`));
  }
}

/** Timed rounds: every target running, each test type on each in an order rotated each round. */
async function timed(options: TfbOptions, ready: Ready[], driverPath: string, resources: Resources): Promise<{ table: Row[]; runs: TimedRun[] }> {
  const clk = clockTicksPerSecond();
  const servers = new Map<string, RunningServer>();
  for (const r of ready) servers.set(r.name, await startServer(r.prepared.spec(r.dbUrl), resources));
  const measure = async (r: Ready, test: TestType, seconds: number, round: number): Promise<TimedRun> => {
    const server = servers.get(r.name)!;
    const load = await runLoad(
      {
        driverPath,
        serverPid: server.pid,
        run: { url: server.baseUrl, connections: options.connections, durationSeconds: seconds, requests: [tfbRequest(test, r.prepared, options.queries)] },
      },
      resources,
    );
    const cpuSeconds = load.serverCpuTicks / clk;
    return {
      target: r.name,
      test,
      round,
      reqPerSec: load.requests / load.durationSeconds,
      p99Ms: load.latencyP99Ms,
      cpuUsPerRequest: load.requests > 0 ? (cpuSeconds / load.requests) * 1e6 : Number.NaN,
      cpuPercent: (cpuSeconds / load.durationSeconds) * 100,
      failed: load.non2xx + load.errors + load.timeouts,
    };
  };
  if (options.warmup > 0) {
    log(`warm-up: ${options.warmup} s per target and test type`);
    for (const test of options.tests) for (const r of ready) await measure(r, test, options.warmup, 0);
  }
  const runs: TimedRun[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    // Rotating the order each round spreads the machine's drift over every target.
    const order = ready.map((_, i) => ready[(i + round - 1) % ready.length]);
    log(`round ${round}/${options.rounds}: ${order.map((r) => r.name).join(" → ")}`);
    for (const test of options.tests) {
      for (const r of order) {
        const run = await measure(r, test, options.duration, round);
        runs.push(run);
        log(
          `  ${test.padEnd(9)} ${r.name.padEnd(8)} ${Math.round(run.reqPerSec).toString().padStart(7)} req/s  p99 ${run.p99Ms.toFixed(2).padStart(7)} ms  ` +
            `CPU ${run.cpuUsPerRequest.toFixed(1).padStart(7)} µs/req${run.failed ? `  ${run.failed} FAILED` : ""}`,
        );
      }
    }
  }
  for (const server of servers.values()) await server.stop();
  const table: Row[] = [];
  for (const test of options.tests) {
    for (const r of ready) {
      const of = runs.filter((x) => x.target === r.name && x.test === test);
      const m = (key: "reqPerSec" | "p99Ms" | "cpuUsPerRequest" | "cpuPercent") => median(of.map((x) => x[key]));
      table.push({
        test,
        target: r.name,
        reqPerSec: m("reqPerSec"),
        reqPerSecRange: [Math.min(...of.map((x) => x.reqPerSec)), Math.max(...of.map((x) => x.reqPerSec))],
        p99Ms: m("p99Ms"),
        cpuUsPerRequest: m("cpuUsPerRequest"),
        cpuPercent: m("cpuPercent"),
        failed: of.reduce((n, x) => n + x.failed, 0),
      });
    }
  }
  return { table, runs };
}

/** Instructions per request: each target alone under callgrind, every test type counted in turn. */
async function counted(
  options: TfbOptions,
  count: CallgrindOptions,
  ready: Ready[],
  driverPath: string,
  tmp: string,
  resources: Resources,
  valgrind: string,
): Promise<{ table: Row[]; runs: unknown[] }> {
  const dumpDir = join(tmp, "callgrind");
  mkdirSync(dumpDir, { recursive: true });
  const table: Row[] = [];
  const runs: unknown[] = [];
  for (const r of ready) {
    log(`${r.name}: starting under callgrind (${valgrind}; slow: up to a few minutes) …`);
    const server = await startServer(underCallgrind(r.prepared.spec(r.dbUrl), dumpDir), resources);
    const counters = new CallgrindCounters(server.pid, dumpDir);
    try {
      for (const test of options.tests) {
        const result = await countEndpoint(
          { label: `${r.name} ${test}`, server, counters, driverPath, requests: [tfbRequest(test, r.prepared, options.queries)], afterBatch: () => undefined },
          { ...count, connections: options.connections },
          resources,
          log,
        );
        runs.push({ target: r.name, test, ...result });
        table.push({ test, target: r.name, instructions: result.perRequest, settled: result.settled, failed: 0 });
        log(`${r.name} ${test}: ${Math.round(result.perRequest).toLocaleString("en-US")} instructions/request`);
      }
    } finally {
      await server.stop();
    }
  }
  return { table, runs };
}

runBench({ name: "bench:tfb", usage: USAGE, parse: parseTfbArgs, main });
