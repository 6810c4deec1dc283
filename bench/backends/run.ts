// `npm run bench:backends`: the generated svc server against Fastify 5 on PostgreSQL and
// MySQL/MariaDB, both servers on the same driver (postgres.js, mysql2) and the same
// database server. See bench/README.md ("Backends") for what is measured.
import { mkdtempSync } from "node:fs";
import { cpus, loadavg, platform, release, tmpdir } from "node:os";
import { join } from "node:path";
import { type CountedEndpoint, loadRequests } from "../endpoints.js";
import { runLoad } from "../load.js";
import { benchPaths } from "../paths.js";
import { clockTicksPerSecond } from "../proc-cpu.js";
import type { Resources } from "../resources.js";
import { log, runBench, writeResults } from "../runner.js";
import { type RunningServer, startServer } from "../server-process.js";
import { checkServer } from "../smoke.js";
import { median } from "../summary.js";
import { type BackendsOptions, parseBackendsArgs, USAGE } from "./args.js";
import { countBackends } from "./callgrind.js";
import { gcBackends } from "./gc.js";
import type { BenchDatabase, NetBackend } from "./databases.js";
import {
  NET_SERVERS,
  type NetServer,
  netServerSpec,
  prepareBackendsBench,
  reachableBackends,
  seededDatabase,
} from "./servers.js";

const TARGET = 1.1;

interface Run {
  backend: NetBackend;
  server: NetServer;
  endpoint: CountedEndpoint;
  round: number;
  reqPerSec: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  failed: number;
}

async function main(options: BackendsOptions, resources: Resources): Promise<void> {
  if (options.callgrind) return countBackends(options, options.callgrind, resources);
  if (options.gc) return gcBackends(options, options.gc, resources);
  const startedAt = new Date();
  const paths = benchPaths();
  const tmp = mkdtempSync(join(tmpdir(), "svc-bench-backends-"));
  resources.trackDir(tmp);
  const clk = clockTicksPerSecond();
  const { svc, tasks, seededIds } = await prepareBackendsBench(paths, tmp, startedAt, resources);
  const runs: Run[] = [];
  const skipped: string[] = [];
  const databases: BenchDatabase[] = [];

  try {
    for (const backend of await reachableBackends(options.backends, skipped)) {
      const servers = new Map<NetServer, { server: RunningServer; db: BenchDatabase }>();
      for (const name of NET_SERVERS) {
        const db = await seededDatabase(backend, name, svc, tmp, tasks, resources);
        databases.push(db);
        const server = await startServer({ ...netServerSpec(name, backend, db, svc, paths, tmp), name }, resources);
        await checkServer(server.baseUrl, tasks);
        await db.trim(startedAt);
        servers.set(name, { server, db });
        log(`${backend} ${name} is up at ${server.baseUrl} (pid ${server.pid}) and answers the endpoints`);
      }
      const measure = async (
        name: NetServer,
        endpoint: CountedEndpoint,
        seconds: number,
        round: number,
      ): Promise<Run> => {
        const { server, db } = servers.get(name)!;
        const load = await runLoad(
          {
            driverPath: paths.driver,
            serverPid: server.pid,
            run: {
              url: server.baseUrl,
              connections: options.connections,
              durationSeconds: seconds,
              requests: loadRequests(endpoint, seededIds),
            },
          },
          resources,
        );
        if (endpoint === "create_task") await db.trim(startedAt);
        return {
          backend,
          server: name,
          endpoint,
          round,
          reqPerSec: load.requests / load.durationSeconds,
          p99Ms: load.latencyP99Ms,
          cpuUsPerRequest: load.requests > 0 ? (load.serverCpuTicks / clk / load.requests) * 1e6 : Number.NaN,
          failed: load.non2xx + load.errors,
        };
      };
      if (options.warmup > 0) {
        log(`${backend}: warm-up, ${options.warmup} s per server and endpoint`);
        for (const endpoint of options.endpoints)
          for (const name of NET_SERVERS) await measure(name, endpoint, options.warmup, 0);
      }
      for (let round = 1; round <= options.rounds; round++) {
        const order = round % 2 === 1 ? NET_SERVERS : ([...NET_SERVERS].reverse() as NetServer[]);
        for (const endpoint of options.endpoints) {
          for (const name of order) {
            const run = await measure(name, endpoint, options.duration, round);
            runs.push(run);
            log(
              `  ${backend.padEnd(8)} ${endpoint.padEnd(11)} ${name.padEnd(7)} ${Math.round(run.reqPerSec).toString().padStart(6)} req/s  p99 ${run.p99Ms.toFixed(2).padStart(6)} ms  CPU ${run.cpuUsPerRequest.toFixed(1).padStart(6)} µs/req${run.failed ? `  ${run.failed} FAILED` : ""}`,
            );
          }
        }
      }
      for (const { server } of servers.values()) await server.stop();
    }
  } finally {
    for (const db of databases)
      await db.drop().catch((error: Error) => log(`could not drop a bench database: ${error.message}`));
  }

  const rows: string[] = [];
  const summary: Record<string, unknown>[] = [];
  rows.push(
    "backend   endpoint     svc req/s  fastify req/s  ratio  target    svc p99  fastify p99  svc CPU µs/req  fastify CPU µs/req",
  );
  for (const backend of options.backends) {
    for (const endpoint of options.endpoints) {
      const of = (server: NetServer) =>
        runs.filter((r) => r.backend === backend && r.endpoint === endpoint && r.server === server);
      if (of("svc").length === 0) continue;
      const m = (server: NetServer, key: "reqPerSec" | "p99Ms" | "cpuUsPerRequest") =>
        median(of(server).map((r) => r[key]));
      const ratio = m("svc", "reqPerSec") / m("fastify", "reqPerSec");
      const failed = [...of("svc"), ...of("fastify")].reduce((n, r) => n + r.failed, 0);
      summary.push({
        backend,
        endpoint,
        svc: m("svc", "reqPerSec"),
        fastify: m("fastify", "reqPerSec"),
        ratio,
        met: ratio >= TARGET,
        failed,
      });
      rows.push(
        [
          backend.padEnd(8),
          endpoint.padEnd(11),
          Math.round(m("svc", "reqPerSec")).toString().padStart(10),
          Math.round(m("fastify", "reqPerSec")).toString().padStart(14),
          ratio.toFixed(2).padStart(6),
          `${ratio >= TARGET ? "met" : "NOT MET"} (≥ ${TARGET})`.padEnd(8),
          m("svc", "p99Ms").toFixed(2).padStart(8),
          m("fastify", "p99Ms").toFixed(2).padStart(11),
          m("svc", "cpuUsPerRequest").toFixed(1).padStart(15),
          m("fastify", "cpuUsPerRequest").toFixed(1).padStart(19),
        ].join("  ") + (failed ? `  (${failed} failed requests: suspect)` : ""),
      );
    }
  }
  process.stdout.write(
    `svc bench, backends: ${options.rounds} rounds × ${options.duration} s, ${options.connections} connections, ${cpus().length} × ${cpus()[0]?.model.trim()}, node ${process.version}\n` +
      `medians over the rounds; ratio = svc req/s ÷ fastify req/s\n\n${rows.join("\n")}\n` +
      (skipped.length ? `\nskipped: ${skipped.join("; ")}\n` : ""),
  );
  const file = writeResults(paths.resultsDir, "backends-", startedAt.toISOString(), {
    startedAt: startedAt.toISOString(),
    options,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim(),
      node: process.version,
      os: `${platform()} ${release()}`,
      loadAverageAtStart: loadavg()[0],
    },
    summary,
    skipped,
    runs,
  });
  log(`\nfull results: ${file}`);
}

runBench({ name: "bench", usage: USAGE, parse: parseBackendsArgs, main });
