// `npm run bench:backends -- --callgrind`: instructions per request of svc and the Fastify
// baseline on PostgreSQL and MySQL/MariaDB, same drivers, each server alone under callgrind in
// turn. Only the server process is counted: the database server's work is not in the figure.
import { mkdirSync, mkdtempSync } from "node:fs";
import { cpus, loadavg, platform, release, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { COUNT_METHOD, countEndpoint } from "../callgrind/measure.js";
import type { CallgrindOptions } from "../callgrind/options.js";
import { countRatios, formatCountTable } from "../callgrind/report.js";
import type { Column, CountRecord } from "../callgrind/report.js";
import { CallgrindCounters, requireValgrind, underCallgrind } from "../callgrind/valgrind.js";
import { loadRequests } from "../endpoints.js";
import { benchPaths } from "../paths.js";
import type { Resources } from "../resources.js";
import { log, writeResults } from "../runner.js";
import { startServer } from "../server-process.js";
import type { RunningServer } from "../server-process.js";
import { checkHealth, checkServer } from "../smoke.js";
import type { BackendsOptions } from "./args.js";
import { NET_SERVERS, netServerSpec, prepareBackendsBench, reachableBackends, SEEDED, seededDatabase } from "./servers.js";

const COLUMNS: readonly Column[] = [
  { server: "svc", label: "svc" },
  { server: "fastify", label: "Fastify 5" },
];

interface BackendRecord extends CountRecord {
  backend: string;
}

export async function countBackends(
  options: BackendsOptions,
  count: CallgrindOptions,
  resources: Resources,
): Promise<void> {
  const valgrind = requireValgrind();
  const startedAt = new Date();
  const loadAtStart = loadavg()[0];
  const paths = benchPaths();
  const tmp = mkdtempSync(join(tmpdir(), "svc-bench-backends-"));
  resources.trackDir(tmp);
  const dumpDir = join(tmp, "callgrind");
  mkdirSync(dumpDir);
  const keepDir = count.keepDumps === null ? null : resolve(count.keepDumps);
  if (keepDir) mkdirSync(keepDir, { recursive: true });
  const { svc, tasks, seededIds } = await prepareBackendsBench(paths, tmp, startedAt, resources);
  const records: BackendRecord[] = [];
  const skipped: string[] = [];

  for (const backend of await reachableBackends(options.backends, skipped)) {
    for (const name of NET_SERVERS) {
      const db = await seededDatabase(backend, name, svc, tmp, tasks, resources);
      let server: RunningServer | undefined;
      try {
        log(`${backend} ${name}: starting under callgrind (slow: up to a few minutes) …`);
        const spec = netServerSpec(name, backend, db, svc, paths, tmp, count.svcLogLevel);
        server = await startServer(underCallgrind({ ...spec, name }, dumpDir), resources);
        await checkHealth(server.baseUrl);
        await checkServer(server.baseUrl, tasks);
        await db.trim(startedAt);
        log(`${backend} ${name} is up at ${server.baseUrl} (pid ${server.pid}) and answers the endpoints`);
        const counters = new CallgrindCounters(server.pid, dumpDir);
        for (const endpoint of options.endpoints) {
          const running = server;
          const result = await countEndpoint(
            {
              label: `${backend} ${name} ${endpoint}`,
              server: running,
              counters,
              driverPath: paths.driver,
              requests: loadRequests(endpoint, seededIds),
              afterBatch: () => (endpoint === "create_task" ? db.trim(startedAt) : undefined),
              keepDumpAs: keepDir ? join(keepDir, `${backend}.${name}.${endpoint}.callgrind.out`) : undefined,
            },
            { ...count, connections: options.connections },
            resources,
            log,
          ).catch((error: Error) => {
            const output = running.outputTail();
            throw new Error(`${error.message}${output ? `\n--- ${name} output ---\n${output}` : ""}`);
          });
          records.push({ backend, server: name, endpoint, ...result });
          log(
            `${backend} ${name} ${endpoint}: ${Math.round(result.perRequest).toLocaleString("en-US")} instructions/request`,
          );
        }
      } finally {
        await server?.stop();
        await db.drop().catch((error: Error) => log(`could not drop a bench database: ${error.message}`));
      }
    }
  }

  const tables = options.backends
    .filter((backend) => records.some((r) => r.backend === backend))
    .map(
      (backend) =>
        `${backend}\n${formatCountTable(
          records.filter((r) => r.backend === backend),
          options.endpoints,
          COLUMNS,
        )}`,
    );
  process.stdout.write(
    `svc bench, backends, instructions per request (callgrind): the task tracker, ${SEEDED} tasks; ` +
      `${count.requests} counted after warm-up batches of ${count.warmupRequests} (settled within ` +
      `${count.settle.tolerance * 100} %), ${options.connections} connections; svc log level ` +
      `${count.svcLogLevel ?? "default"}; the database server's own work is not counted; ` +
      `node --single-threaded ${process.version}, ${valgrind}\n\n${tables.join("\n\n")}\n` +
      (skipped.length ? `\nskipped: ${skipped.join("; ")}\n` : ""),
  );
  const file = writeResults(paths.resultsDir, "backends-callgrind-", startedAt.toISOString(), {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    options,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim(),
      node: process.version,
      valgrind,
      os: `${platform()} ${release()}`,
      loadAverageAtStart: loadAtStart,
    },
    method: COUNT_METHOD,
    skipped,
    ratios: options.backends.flatMap((backend) =>
      countRatios(
        records.filter((r) => r.backend === backend),
        ["fastify"],
      ).map((ratio) => ({ backend, ...ratio })),
    ),
    counts: records,
  });
  log(`\nfull results: ${file}`);
}
