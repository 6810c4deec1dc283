// `npm run bench -- --callgrind`: instructions per request of svc, bare node:http and Fastify 5
// on SQLite, each server alone under callgrind in turn. See bench/README.md ("Instruction counts").
import { mkdirSync, mkdtempSync } from "node:fs";
import { cpus, loadavg, platform, release, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BenchOptions } from "../args.js";
import { COUNTED_ENDPOINTS, type CountedEndpoint, loadRequests } from "../endpoints.js";
import { LIST_PAGE_REQUEST } from "../pages-check.js";
import { benchPaths } from "../paths.js";
import { baselineSpec, prepare, SEEDED_TASKS, svcSpec } from "../prepare.js";
import type { Resources } from "../resources.js";
import { log, writeResults } from "../runner.js";
import { trimToSeed } from "../seed.js";
import { startServer } from "../server-process.js";
import type { RunningServer } from "../server-process.js";
import { checkHealth, checkServer } from "../smoke.js";
import type { ServerName } from "../summary.js";
import { COUNT_METHOD, countEndpoint } from "./measure.js";
import type { CallgrindOptions } from "./options.js";
import { countRatios, formatCountTable, PAGE_ENDPOINT, pageLine, pageToList } from "./report.js";
import type { Column, CountRecord } from "./report.js";
import { CallgrindCounters, requireValgrind, underCallgrind } from "./valgrind.js";

export const SQLITE_COLUMNS: readonly Column[] = [
  { server: "svc", label: "svc" },
  { server: "bare", label: "bare node:http" },
  { server: "fastify", label: "Fastify 5" },
];

const SVC_ENDPOINTS: readonly string[] = [...COUNTED_ENDPOINTS, PAGE_ENDPOINT];

export async function countSqlite(options: BenchOptions, count: CallgrindOptions, resources: Resources): Promise<void> {
  const valgrind = requireValgrind();
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg()[0];
  const paths = benchPaths();
  const tmp = mkdtempSync(join(tmpdir(), "svc-bench-"));
  resources.trackDir(tmp);
  const dumpDir = join(tmp, "callgrind");
  mkdirSync(dumpDir);
  const keepDir = count.keepDumps === null ? null : resolve(count.keepDumps);
  if (keepDir) mkdirSync(keepDir, { recursive: true });

  const prepared = await prepare(options, paths, tmp, resources, log);
  const seededIds = prepared.tasks.map((task) => task.id);
  const records: CountRecord[] = [];
  const responseBytes: Record<string, Record<string, number>> = {};
  const skipped: string[] = prepared.svc.ran ? [] : [`svc: ${prepared.svc.reason}`];

  for (const [name, dbFile] of Object.entries(prepared.dbFiles) as [ServerName, string][]) {
    const svc = prepared.svc;
    const spec =
      name === "svc"
        ? svc.ran
          ? svcSpec(svc, dbFile, tmp, 1, count.svcLogLevel)
          : null
        : baselineSpec(name, paths, dbFile, tmp);
    if (spec === null) continue;
    log(`${name}: starting under callgrind (slow: up to a few minutes) …`);
    let server: RunningServer | undefined;
    try {
      server = await startServer(underCallgrind(spec, dumpDir), resources);
      responseBytes[name] = {
        health: await checkHealth(server.baseUrl),
        ...(await checkServer(server.baseUrl, prepared.tasks)),
      };
    } catch (error) {
      await server?.stop();
      // svc is the thing under construction: its failure is reported and the baselines still run.
      if (name !== "svc") throw error;
      skipped.push(`svc: ${(error as Error).message}`);
      log(`svc server SKIPPED: ${(error as Error).message}`);
      continue;
    }
    trimToSeed(dbFile, seededIds);
    log(`${name} is up at ${server.baseUrl} (pid ${server.pid}) and answers all four endpoints`);
    const counters = new CallgrindCounters(server.pid, dumpDir);
    // svc alone also serves the list as a page (jq and mustache over the same 50 rows).
    const endpoints: readonly string[] = name === "svc" ? SVC_ENDPOINTS : COUNTED_ENDPOINTS;
    for (const endpoint of endpoints) {
      const result = await countEndpoint(
        {
          label: `${name} ${endpoint}`,
          server,
          counters,
          driverPath: paths.driver,
          requests:
            endpoint === PAGE_ENDPOINT
              ? [LIST_PAGE_REQUEST]
              : loadRequests(endpoint as CountedEndpoint, seededIds),
          afterBatch: () => {
            if (endpoint === "create_task") trimToSeed(dbFile, seededIds);
          },
          keepDumpAs: keepDir ? join(keepDir, `${name}.${endpoint}.callgrind.out`) : undefined,
        },
        { ...count, connections: options.connections },
        resources,
        log,
      ).catch((error: Error) => {
        const output = server.outputTail();
        throw new Error(`${error.message}${output ? `\n--- ${name} output ---\n${output}` : ""}`);
      });
      records.push({ server: name, endpoint, ...result });
      log(`${name} ${endpoint}: ${Math.round(result.perRequest).toLocaleString("en-US")} instructions/request`);
    }
    await server.stop();
  }

  const cpuList = cpus();
  const title =
    `svc bench, instructions per request (callgrind): SQLite, the task tracker, ${SEEDED_TASKS} tasks; ` +
    `${count.requests} counted after warm-up batches of ${count.warmupRequests} (settled within ` +
    `${count.settle.tolerance * 100} %), ${options.connections} connections; svc log level ` +
    `${count.svcLogLevel ?? "default"}; node --single-threaded ${process.version}, ${valgrind}`;
  process.stdout.write(
    `${title}\n\n${formatCountTable(records, SVC_ENDPOINTS, SQLITE_COLUMNS)}\n` +
      pageLine(records) +
      (skipped.length ? `\nskipped: ${skipped.join("; ")}\n` : ""),
  );
  const file = writeResults(paths.resultsDir, "callgrind-", startedAt, {
    startedAt,
    finishedAt: new Date().toISOString(),
    options,
    machine: {
      cpuModel: cpuList[0]?.model.trim() ?? "unknown",
      cpus: cpuList.length,
      node: process.version,
      valgrind,
      os: `${platform()} ${release()}`,
      loadAverageAtStart: loadAtStart,
    },
    method: COUNT_METHOD,
    seededTasks: SEEDED_TASKS,
    skipped,
    responseBytes,
    ratios: countRatios(records, ["bare", "fastify"]),
    pageToList: pageToList(records),
    counts: records,
  });
  log(`\nfull results: ${file}`);
}
