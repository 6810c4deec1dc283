// `npm run bench:load`: the generated task tracker under operational load (bench/README.md,
// "Operations load"). Three parts, each on its own copy of a database seeded with 1,000 tasks:
//   1. soak: --connections (100) for --duration (30 s) on list_tasks, then on create_task;
//      errors, timeouts, non-2xx and p99 from autocannon in a separate process;
//   2. shutdown: the same load from a driver that tracks every request, SIGTERM midway;
//      every request the server accepted must have had a complete answer;
//   3. ratio: req/s with --workers 2 over --workers 1.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { benchPaths } from "./paths.js";
import { Resources } from "./resources.js";
import { makeTasks, seedDatabase } from "./seed.js";
import { startServer, type RunningServer } from "./server-process.js";
import { buildSvc } from "./svc-build.js";
import { parseOpsLoadArgs, USAGE, type OpsLoadOptions } from "./ops/args.js";
import { planPinning, pinSelf, type Pinning } from "./ops/pin.js";
import { formatOpsReport, type OpsReport, type RatioFigures } from "./ops/report.js";
import { shutdownUnderLoad } from "./ops/shutdown-run.js";
import { soak, SOAK_ENDPOINTS } from "./ops/soak.js";

const READY_PATH = "/api/task_tracker:list_tasks?limit=1";
const WARMUP_SECONDS = 3;
const log = (line: string): void => void process.stderr.write(line + "\n");

interface Context {
  options: OpsLoadOptions;
  resources: Resources;
  tmp: string;
  serverJs: string;
  seedFile: string;
  driverPath: string;
  pinning: Pinning | null;
}

async function main(): Promise<void> {
  const parsed = parseOpsLoadArgs(process.argv.slice(2));
  if (parsed === "help") {
    console.log(USAGE);
    return;
  }
  const paths = benchPaths();
  const resources = new Resources();
  const tmp = mkdtempSync(join(tmpdir(), "svc-ops-load-"));
  resources.trackDir(tmp);
  process.on("SIGINT", () => void resources.release().then(() => process.exit(130)));
  // The example's webhook secret (examples/task_tracker/svc.toml): the server will not start without it.
  process.env.GITHUB_WEBHOOK_SECRET ??= "bench-secret";
  try {
    log("building the svc server from examples/task_tracker …");
    const build = await buildSvc(paths, join(tmp, "svc-dist"), resources);
    if (!build.ok) throw new Error(build.reason);
    if (!build.acceptsWorkers) throw new Error("the built server has no --workers flag");
    const plan = planPinning(parsed.pin);
    const ctx: Context = {
      options: parsed,
      resources,
      tmp,
      serverJs: build.serverJs,
      seedFile: await seed(build.serverJs, tmp, resources),
      driverPath: paths.driver,
      pinning: "reason" in plan ? null : plan,
    };
    const report: OpsReport = {
      when: new Date().toISOString(),
      cores: availableParallelism(),
      loadAverage: loadavg()[0],
      options: parsed,
      pinning:
        "reason" in plan
          ? `not pinned: ${plan.reason}`
          : `load generator on CPU ${plan.driver}, server on ${plan.server}`,
      soak: parsed.skipSoak ? [] : await soakRuns(ctx),
      shutdown: parsed.skipShutdown
        ? null
        : await shutdownRun(ctx, paths.driver.replace(/driver\.js$/, "ops/shutdown-driver.js")),
      ratio: parsed.skipRatio ? null : await ratioRuns(ctx),
    };
    console.log(formatOpsReport(report));
    mkdirSync(paths.resultsDir, { recursive: true });
    const file = join(paths.resultsDir, `ops-load-${report.when.replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
    log(`written to ${file}`);
  } finally {
    await resources.release();
  }
}

/** Lets the server create its own schema on a fresh file, then seeds 1,000 tasks into it. */
async function seed(serverJs: string, tmp: string, resources: Resources): Promise<string> {
  const file = join(tmp, "seed.db");
  const server = await startServer(
    { name: "svc", args: [serverJs, "--db", file, "--workers", "1"], cwd: tmp, readyPath: READY_PATH },
    resources,
  );
  await server.stop();
  seedDatabase(file, makeTasks(1000, Date.now()), false);
  return file;
}

function copyOfSeed(ctx: Context, name: string): string {
  const file = join(ctx.tmp, `${name}.db`);
  copyFileSync(ctx.seedFile, file);
  return file;
}

async function startPinned(ctx: Context, name: string, workers: number, logLevel: string): Promise<RunningServer> {
  if (ctx.pinning !== null) pinSelf(ctx.pinning.server);
  try {
    const db = copyOfSeed(ctx, name);
    return await startServer(
      {
        name,
        args: [ctx.serverJs, "--db", db, "--workers", String(workers), "--log-level", logLevel],
        cwd: ctx.tmp,
        readyPath: READY_PATH,
      },
      ctx.resources,
    );
  } finally {
    if (ctx.pinning !== null) pinSelf(ctx.pinning.driver);
  }
}

async function soakRuns(ctx: Context): Promise<OpsReport["soak"]> {
  const { workers, connections, durationSeconds } = ctx.options;
  // The default log level: this is the server as it would run in production.
  const server = await startPinned(ctx, "soak", workers, "info");
  try {
    const out = [];
    for (const endpoint of SOAK_ENDPOINTS) {
      log(`soak: ${endpoint}, ${connections} connections, ${durationSeconds} s, --workers ${workers} …`);
      out.push(await soak(server, endpoint, connections, durationSeconds, ctx.driverPath, ctx.resources));
    }
    return out;
  } finally {
    await server.stop();
  }
}

async function shutdownRun(ctx: Context, driverJs: string): Promise<OpsReport["shutdown"]> {
  const { workers, connections } = ctx.options;
  log(`shutdown: ${connections} connections, SIGTERM after 5 s, --workers ${workers} …`);
  if (ctx.pinning !== null) pinSelf(ctx.pinning.server);
  return shutdownUnderLoad(
    {
      serverJs: ctx.serverJs,
      cwd: ctx.tmp,
      dbFile: copyOfSeed(ctx, "shutdown"),
      driverJs,
      workers,
      connections,
      secondsBeforeSignal: 5,
    },
    ctx.resources,
  );
}

async function ratioRuns(ctx: Context): Promise<RatioFigures> {
  const { connections, ratioSeconds } = ctx.options;
  const figures: RatioFigures = { seconds: ratioSeconds, byWorkers: {} };
  for (const workers of [1, 2]) {
    const server = await startPinned(ctx, `ratio-${workers}`, workers, "warn");
    try {
      log(`ratio: --workers ${workers}, warm-up …`);
      await soak(server, "list_tasks", connections, WARMUP_SECONDS, ctx.driverPath, ctx.resources);
      const runs = [];
      for (const endpoint of ["list_tasks", "create_task"] as const) {
        log(`ratio: --workers ${workers}, ${endpoint}, ${ratioSeconds} s …`);
        runs.push(await soak(server, endpoint, connections, ratioSeconds, ctx.driverPath, ctx.resources));
        await sleep(500);
      }
      figures.byWorkers[workers] = runs;
    } finally {
      await server.stop();
    }
  }
  return figures;
}

main().catch((error: unknown) => {
  console.error(`bench:load failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
