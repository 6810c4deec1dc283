// The cost of an Idempotency-Key: instructions per request of create_task without the
// header, with a fresh key per request (the action runs and its answer is stored), and with
// one key sent again and again (a replay), counted by valgrind's callgrind as issue 16
// describes: the server runs under `valgrind --tool=callgrind node --single-threaded`,
// after warm-up requests of every case the counters are zeroed (`callgrind_control -z`),
// the measured requests are sent (8 at a time), and `callgrind_control -d` dumps the total.
//
//   npx tsc -p tsconfig.json && node build/bench/idempotency.js [--server DIR] [--backend B --db URL] [--warmup N] [--requests N]
//
// `--server DIR` measures an already built server (e.g. one built by an older svc, for a
// before/after of the plain call); by default the task tracker is built into a fresh folder.

import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { freePort, HOST } from "./server-process.js";
import { benchPaths } from "./paths.js";

const { values: opts } = parseArgs({
  options: {
    server: { type: "string" },
    backend: { type: "string", default: "sqlite" },
    db: { type: "string" },
    warmup: { type: "string", default: "2000" },
    requests: { type: "string", default: "3000" },
    concurrency: { type: "string", default: "8" },
  },
});
const WARMUP = Number(opts.warmup);
const REQUESTS = Number(opts.requests);
const CONCURRENCY = Number(opts.concurrency);

const paths = benchPaths();
const work = mkdtempSync(join(paths.buildDir, "tmp-idem-bench-"));
let serverDir = opts.server === undefined ? undefined : resolve(opts.server);
if (serverDir === undefined) {
  serverDir = join(work, "dist");
  execFileSync(process.execPath, [paths.svcCli, "build", "--project", paths.exampleProject, "--out", serverDir], { stdio: "inherit" });
}
// The generated server imports `svc/runtime`: it must sit inside the repository to resolve it.
const dbArg = opts.db ?? join(work, "bench.db");

const port = await freePort();
const outFile = join(work, "callgrind.out.%p");
const child = spawn(
  "valgrind",
  [
    "--tool=callgrind",
    `--callgrind-out-file=${outFile}`,
    process.execPath,
    "--single-threaded",
    join(serverDir, "server.js"),
    "--listen",
    `${HOST}:${port}`,
    "--backend",
    opts.backend!,
    "--db",
    dbArg,
    "--workers",
    "1",
  ],
  { cwd: serverDir, env: { GITHUB_WEBHOOK_SECRET: "dev-secret", ...process.env }, stdio: ["ignore", "ignore", "pipe"] },
);
let stderr = "";
child.stderr!.on("data", (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));

const origin = `http://${HOST}:${port}`;
const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
const BODY = JSON.stringify({ title: "Benchmark task", priority: "high" });

async function waitReady(): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const r = await pool.request({ path: "/health", method: "GET" });
      await r.body.text();
      if (r.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${stderr}`);
    await sleep(250);
  }
}

type Mode = "plain" | "fresh key" | "replay";
let counter = 0;

async function send(mode: Mode, n: number): Promise<void> {
  let next = 0;
  const one = async () => {
    while (next < n) {
      next++;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (mode === "fresh key") headers["idempotency-key"] = `bench-${process.pid}-${counter++}`;
      if (mode === "replay") headers["idempotency-key"] = `bench-${process.pid}-replayed`;
      const r = await pool.request({ path: "/api/task_tracker:create_task", method: "POST", headers, body: BODY });
      await r.body.text();
      if (r.statusCode !== 200) throw new Error(`${mode}: status ${r.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, one));
}

function control(flag: string): void {
  execFileSync("callgrind_control", [flag, String(child.pid)], { stdio: "ignore" });
}

/** The `totals:` (or `summary:`) line of the newest dump. */
function lastTotal(): number {
  // Dumps on request are `callgrind.out.<pid>.<n>`.
  const prefix = `callgrind.out.${child.pid}.`;
  const numbers = readdirSync(work)
    .filter((f) => f.startsWith(prefix))
    .map((f) => Number(f.slice(prefix.length)));
  const newest = join(work, `${prefix}${Math.max(...numbers)}`);
  const text = readFileSync(newest, "utf8");
  const m = /^(?:totals|summary): (\d+)/m.exec(text);
  if (!m) throw new Error(`no totals in ${newest}`);
  return Number(m[1]);
}

const MODES: Mode[] = ["plain", "fresh key", "replay"];
const results: { mode: string; perRequest: number }[] = [];
try {
  await waitReady();
  // V8 keeps optimizing for a while: every case is warmed up before any is measured, and
  // the plain case is measured first and last, so drift shows as a difference between the two.
  for (let round = 0; round < 2; round++) for (const mode of MODES) await send(mode, Math.ceil(WARMUP / 2));
  for (const [mode, label] of [...MODES.map((m) => [m, m]), ["plain", "plain, again"]] as [Mode, string][]) {
    control("-z");
    await send(mode, REQUESTS);
    control("-d");
    await sleep(500);
    const per = Math.round(lastTotal() / REQUESTS);
    results.push({ mode: label, perRequest: per });
    process.stderr.write(`${label}: ${per.toLocaleString("en-US")} instructions per request\n`);
  }
} finally {
  await pool.close();
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    await exited;
  }
}
const plain = results[0].perRequest;
const table = [
  `| create_task (${opts.backend}, ${REQUESTS} requests after ${WARMUP} of each) | instructions/request | vs plain |`,
  "|---|---|---|",
  ...results.map((r) => `| ${r.mode} | ${r.perRequest.toLocaleString("en-US")} | ${(r.perRequest / plain).toFixed(2)} |`),
].join("\n");
console.log(table);
writeFileSync(join(paths.buildDir, "idempotency-bench.md"), `${table}\n`);
rmSync(work, { recursive: true, force: true });
