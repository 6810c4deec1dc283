// `npm run bench:backends -- --gc`: what each server leaves to V8's garbage collector, svc and
// the Fastify baseline on the same driver and database. Each run is a fresh server process
// (node --single-threaded --trace-gc-nvp, as the callgrind mode runs it), warmed up, then sent
// N requests; the scavenges, mark-compacts and bytes promoted to the old generation during those
// N are read off V8's trace. Bytes promoted by scavenges are garbage that only a mark-compact
// frees, so a server that promotes per request pays for mark-compacts it would not need. Several
// fresh processes, because whether a process promotes can differ from one to the next (see
// bench/README.md, "What a PostgreSQL server promotes").
import { mkdtempSync } from "node:fs";
import { cpus, platform, release, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type CountedEndpoint, loadRequests } from "../endpoints.js";
import { runAmount } from "../load.js";
import { benchPaths } from "../paths.js";
import type { Resources } from "../resources.js";
import { log, writeResults } from "../runner.js";
import { startServer } from "../server-process.js";
import { checkServer } from "../smoke.js";
import { median } from "../summary.js";
import type { BackendsOptions, GcOptions } from "./args.js";
import type { NetBackend } from "./databases.js";
import { GcCollector, type GcTally } from "./gc-trace.js";
import {
  NET_SERVERS,
  type NetServer,
  netServerSpec,
  prepareBackendsBench,
  reachableBackends,
  SEEDED,
  seededDatabase,
} from "./servers.js";

/** Lets the last answers' garbage and the driver's closing connections settle before the tally. */
const QUIET_MS = 300;

interface GcRun extends GcTally {
  backend: NetBackend;
  server: NetServer;
  endpoint: CountedEndpoint;
  run: number;
  requests: number;
}

export async function gcBackends(options: BackendsOptions, gc: GcOptions, resources: Resources): Promise<void> {
  const startedAt = new Date();
  const paths = benchPaths();
  const tmp = mkdtempSync(join(tmpdir(), "svc-bench-backends-gc-"));
  resources.trackDir(tmp);
  const { svc, tasks, seededIds } = await prepareBackendsBench(paths, tmp, startedAt, resources);
  const runs: GcRun[] = [];
  const skipped: string[] = [];

  for (const backend of await reachableBackends(options.backends, skipped)) {
    for (const name of NET_SERVERS) {
      const db = await seededDatabase(backend, name, svc, tmp, tasks, resources);
      try {
        for (const endpoint of options.endpoints) {
          for (let run = 1; run <= gc.runs; run++) {
            const collector = new GcCollector();
            const spec = netServerSpec(name, backend, db, svc, paths, tmp);
            const server = await startServer(
              {
                ...spec,
                launcher: [process.execPath, "--single-threaded", "--trace-gc-nvp"],
                onStdout: (text) => collector.feed(text),
              },
              resources,
            );
            try {
              await checkServer(server.baseUrl, tasks);
              await db.trim(startedAt);
              const requests = loadRequests(endpoint, seededIds);
              const send = async (amount: number): Promise<void> => {
                const failure = await runAmount(paths.driver, server, requests, amount, options.connections, resources);
                if (failure !== null) throw new Error(`${server.name} ${endpoint}: ${failure}`);
              };
              await send(gc.warmupRequests);
              await sleep(QUIET_MS);
              collector.take();
              await send(gc.requests);
              await sleep(QUIET_MS);
              const tally = collector.take();
              runs.push({ backend, server: name, endpoint, run, requests: gc.requests, ...tally });
              log(`${backend} ${name} ${endpoint} run ${run}: ${describe(tally, gc.requests)}`);
            } finally {
              await server.stop();
              if (endpoint === "create_task") await db.trim(startedAt);
            }
          }
        }
      } finally {
        await db.drop().catch((error: Error) => log(`could not drop a bench database: ${error.message}`));
      }
    }
  }

  process.stdout.write(
    `svc bench, backends, garbage collection: the task tracker, ${SEEDED} tasks; per run a fresh ` +
      `server, ${gc.warmupRequests} warm-up requests, then ${gc.requests} counted; ${options.connections} ` +
      `connections; node --single-threaded --trace-gc-nvp ${process.version}\n\n` +
      `${formatGcTable(runs)}\n` +
      (skipped.length ? `\nskipped: ${skipped.join("; ")}\n` : ""),
  );
  const file = writeResults(paths.resultsDir, "backends-gc-", startedAt.toISOString(), {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    options,
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model.trim(), node: process.version, os: `${platform()} ${release()}` },
    skipped,
    runs,
  });
  log(`\nfull results: ${file}`);
}

function describe(tally: GcTally, requests: number): string {
  return (
    `${Math.round(tally.promotedBytes / requests)} bytes promoted a request ` +
    `(${tally.scavenges} scavenges, ${tally.markCompacts} mark-compacts)`
  );
}

/** One line per backend, endpoint and server: bytes promoted a request in each run, and the median. */
export function formatGcTable(runs: readonly Omit<GcRun, "run">[]): string {
  const header = "| backend | endpoint | server | bytes promoted a request, each run | median | scavenges | mark-compacts |";
  const lines = [header, "|---|---|---|---|---|---|---|"];
  const keys = [...new Set(runs.map((r) => `${r.backend}\u0000${r.endpoint}\u0000${r.server}`))];
  for (const key of keys) {
    const [backend, endpoint, server] = key.split("\u0000");
    const mine = runs.filter((r) => r.backend === backend && r.endpoint === endpoint && r.server === server);
    const perRequest = mine.map((r) => r.promotedBytes / r.requests);
    lines.push(
      `| ${backend} | ${endpoint} | ${server} | ${perRequest.map((b) => Math.round(b)).join(", ")} | ` +
        `${Math.round(median(perRequest))} | ${mine.map((r) => r.scavenges).join(", ")} | ` +
        `${mine.map((r) => r.markCompacts).join(", ")} |`,
    );
  }
  return lines.join("\n");
}
