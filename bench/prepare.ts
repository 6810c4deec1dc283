import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { BenchOptions } from "./args.js";
import type { BenchPaths } from "./paths.js";
import type { Resources } from "./resources.js";
import { makeTasks, seedDatabase } from "./seed.js";
import type { SeededTask } from "./seed.js";
import type { ServerSpec } from "./server-process.js";
import { startServer } from "./server-process.js";
import type { ServerName } from "./summary.js";
import { buildSvc } from "./svc-build.js";

export const SEEDED_TASKS = 1000;
const READY_PATH = "/api/task_tracker:list_tasks?limit=1";
const HOUR_MS = 3_600_000;

export type SvcStatus = { ran: true; serverJs: string; acceptsWorkers: boolean } | { ran: false; reason: string };

export interface Prepared {
  tasks: SeededTask[];
  svc: SvcStatus;
  /** One copy of the seeded file per server that will run. */
  dbFiles: Partial<Record<ServerName, string>>;
}

/**
 * Builds the svc server, lets it create its own schema on a fresh file (it refuses a table that
 * differs from its declaration, so the schema must be its own), seeds 1,000 tasks into that file,
 * and copies it once per server.
 *
 * Isolation: each server gets its own copy, so none sees another's writes. Within a server,
 * rows added by create_task runs are deleted again after each such run (trimToSeed), so every
 * run of every endpoint starts from the same 1,000 rows. Re-seeding by swapping files would mean
 * restarting the servers and losing their JIT warm-up; a delete from a second connection does not.
 */
export async function prepare(
  options: BenchOptions,
  paths: BenchPaths,
  tmp: string,
  resources: Resources,
  log: (line: string) => void,
): Promise<Prepared> {
  const seedFile = join(tmp, "seed.db");
  let svc: SvcStatus = { ran: false, reason: "skipped with --skip-svc" };
  if (!options.skipSvc) {
    log("building the svc server from examples/task_tracker …");
    const build = await buildSvc(paths, join(tmp, "svc-dist"), resources);
    svc = build.ok
      ? await letSvcCreateSchema(
          { ran: true, serverJs: build.serverJs, acceptsWorkers: build.acceptsWorkers },
          seedFile,
          tmp,
          resources,
        )
      : { ran: false, reason: build.reason };
    if (!svc.ran) {
      log(`svc server SKIPPED: ${svc.reason}`);
      removeDb(seedFile);
    }
  }
  const tasks = makeTasks(SEEDED_TASKS, Date.now() - HOUR_MS);
  seedDatabase(seedFile, tasks, !svc.ran);
  log(
    `seeded ${tasks.length} tasks ${svc.ran ? "into the schema the svc server created" : "into the fallback schema"}`,
  );
  const dbFiles: Partial<Record<ServerName, string>> = {};
  for (const name of svc.ran ? (["svc", "bare", "fastify"] as const) : (["bare", "fastify"] as const)) {
    dbFiles[name] = join(tmp, `${name}.db`);
    copyFileSync(seedFile, dbFiles[name]);
  }
  return { tasks, svc, dbFiles };
}

async function letSvcCreateSchema(
  svc: SvcStatus & { ran: true },
  seedFile: string,
  tmp: string,
  resources: Resources,
): Promise<SvcStatus> {
  try {
    const server = await startServer(svcSpec(svc, seedFile, tmp, 1), resources);
    await server.stop();
    return svc;
  } catch (error) {
    return { ran: false, reason: (error as Error).message };
  }
}

function removeDb(file: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
}

/** `logLevel` null leaves --log-level out, so the server logs at its default. */
export function svcSpec(
  svc: SvcStatus & { ran: true },
  dbFile: string,
  cwd: string,
  workers: number,
  logLevel: string | null = "error",
): ServerSpec {
  return {
    name: "svc",
    args: [
      svc.serverJs,
      "--db",
      dbFile,
      ...(logLevel === null ? [] : ["--log-level", logLevel]),
      ...(svc.acceptsWorkers ? ["--workers", String(workers)] : []),
    ],
    cwd,
    readyPath: READY_PATH,
  };
}

export function baselineSpec(name: "bare" | "fastify", paths: BenchPaths, dbFile: string, cwd: string): ServerSpec {
  return {
    name,
    args: [name === "bare" ? paths.bareServer : paths.fastifyServer, "--db", dbFile, "--stop-with-stdin"],
    cwd,
    readyPath: READY_PATH,
  };
}
