// What both modes of bench:backends do to put a server on a database: a database of its own,
// the table made by the svc server (so both servers get the same table and indexes), the
// seeded tasks, and the command line of each server.
import { join } from "node:path";
import type { BenchPaths } from "../paths.js";
import { svcSpec } from "../prepare.js";
import type { SvcStatus } from "../prepare.js";
import type { Resources } from "../resources.js";
import { log } from "../runner.js";
import { makeTasks } from "../seed.js";
import type { SeededTask } from "../seed.js";
import { startServer } from "../server-process.js";
import type { ServerSpec } from "../server-process.js";
import { buildSvc } from "../svc-build.js";
import { createDatabase, unreachable } from "./databases.js";
import type { BenchDatabase, NetBackend } from "./databases.js";

export const NET_SERVERS = ["svc", "fastify"] as const;
export type NetServer = (typeof NET_SERVERS)[number];

/** Tasks seeded into every server's database. */
export const SEEDED = 1000;

export interface BackendsBench {
  svc: SvcStatus & { ran: true };
  tasks: SeededTask[];
  seededIds: string[];
}

/** What every mode of bench:backends starts from: the svc server built, the tasks to seed. */
export async function prepareBackendsBench(
  paths: BenchPaths,
  tmp: string,
  startedAt: Date,
  resources: Resources,
): Promise<BackendsBench> {
  log("building the svc server from examples/task_tracker …");
  const build = await buildSvc(paths, join(tmp, "svc-dist"), resources);
  if (!build.ok) throw new Error(`the svc server does not build: ${build.reason}`);
  // Every seeded task is older than this: after a create_task run, rows from here on go.
  const tasks = makeTasks(SEEDED, startedAt.getTime() - 3_600_000);
  return {
    svc: { ran: true, serverJs: build.serverJs, acceptsWorkers: build.acceptsWorkers },
    tasks,
    seededIds: tasks.map((t) => t.id),
  };
}

/** The backends asked for whose database server answers; why each other one is skipped goes to `skipped`. */
export async function reachableBackends(backends: readonly NetBackend[], skipped: string[]): Promise<NetBackend[]> {
  const reachable: NetBackend[] = [];
  for (const backend of backends) {
    const why = await unreachable(backend);
    if (why === null) {
      reachable.push(backend);
    } else {
      skipped.push(why);
      log(`${backend} SKIPPED: ${why}`);
    }
  }
  return reachable;
}

/** A new seeded database for `name` on `backend`; the caller drops it. */
export async function seededDatabase(
  backend: NetBackend,
  name: NetServer,
  svc: SvcStatus & { ran: true },
  tmp: string,
  tasks: readonly SeededTask[],
  resources: Resources,
): Promise<BenchDatabase> {
  const db = await createDatabase(backend, `${backend}_${name}`);
  try {
    const maker = await startServer(svcSpec(svc, db.url, tmp, 1), resources);
    await maker.stop();
    await db.seed(tasks);
    return db;
  } catch (error) {
    await db.drop().catch(() => undefined);
    throw error;
  }
}

/** `logLevel` is svc's --log-level (null: its default); the Fastify baseline logs nothing. */
export function netServerSpec(
  name: NetServer,
  backend: NetBackend,
  db: BenchDatabase,
  svc: SvcStatus & { ran: true },
  paths: BenchPaths,
  tmp: string,
  logLevel: string | null = "error",
): ServerSpec {
  if (name === "svc") return svcSpec(svc, db.url, tmp, 1, logLevel);
  return {
    name: "fastify",
    args: [
      join(paths.buildDir, "bench", "backends", "fastify-net.js"),
      "--backend",
      backend,
      "--db",
      db.url,
      "--stop-with-stdin",
    ],
    cwd: tmp,
    readyPath: "/api/task_tracker:list_tasks?limit=1",
  };
}
