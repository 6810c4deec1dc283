// Jobs per second on one PostgreSQL database, svc's runner beside pg-boss's, in one run
// (docs/operations.md "Jobs"): N jobs are enqueued first (svc: by actions of a server started
// with --jobs off; pg-boss: boss.insert), then one worker process (svc: a server with
// --jobs only) runs them all; the figure is N over the time from the worker's start to an
// empty queue. Two kinds of job: empty, and one that writes one row. Both run 8 at a time.
//
//   npx tsc -p tsconfig.json && node build/bench/jobs/run.js [--jobs 5000]

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import PgBoss from "pg-boss";
import { buildFiles, writeFiles } from "../../tests/support/build-cache.js";
import { repoRoot } from "../../tests/support/paths.js";

const PG = process.env.SVC_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const N = Number(process.argv[process.argv.indexOf("--jobs") + 1] || 5000) || 5000;
const CONCURRENCY = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function withSchema(schema: string): string {
  const u = new URL(PG);
  u.searchParams.set("options", `-c search_path=${schema}`);
  return u.toString();
}

interface Proc {
  url: string;
  stop(): Promise<void>;
}

function startServer(dir: string, args: string[]): Promise<Proc> {
  const child = spawn(process.execPath, [join(dir, "server.js"), "--workers", "1", "--log-level", "warn", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 20_000);
    // --log-level warn hides "listening": ask /health until it answers.
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    void (async () => {
      const port = await freePortOf(args);
      for (;;) {
        try {
          const r = await fetch(`http://127.0.0.1:${port}/health`);
          if (r.ok) break;
        } catch {
          await sleep(50);
        }
      }
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${port}`,
        stop: () => new Promise<void>((done) => {
          child.removeAllListeners("exit");
          child.once("exit", () => done());
          child.kill("SIGTERM");
        }),
      });
    })();
  });
}

let nextPort = 18900 + (process.pid % 500);
async function freePortOf(args: string[]): Promise<number> {
  return Number(args[args.indexOf("--listen") + 1].split(":")[1]);
}

async function svcRun(dir: string, kind: "empty" | "write_row", schema: string): Promise<number> {
  const db = withSchema(schema);
  const port1 = nextPort++;
  const enqueuer = await startServer(dir, ["--db", db, "--jobs", "off", "--listen", `127.0.0.1:${port1}`]);
  const action = kind === "empty" ? "add_empty" : "add_rows";
  for (let start = 0; start < N; start += 1000) {
    const r = await fetch(`${enqueuer.url}/api/work:${action}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ start, count: Math.min(1000, N - start) }) });
    if (!r.ok) throw new Error(`enqueue: ${r.status} ${await r.text()}`);
  }
  await enqueuer.stop();
  const t0 = performance.now();
  const port2 = nextPort++;
  const worker = await startServer(dir, ["--db", db, "--jobs", "only", "--jobs-concurrency", String(CONCURRENCY), "--listen", `127.0.0.1:${port2}`]);
  for (;;) {
    const s = (await (await fetch(`${worker.url}/health/jobs`)).json()) as { data: { queued: number; running: number } };
    if (s.data.queued === 0 && s.data.running === 0) break;
    await sleep(20);
  }
  const seconds = (performance.now() - t0) / 1000;
  await worker.stop();
  return N / seconds;
}

async function pgBossRun(kind: "empty" | "write_row", schema: string): Promise<number> {
  const boss = new PgBoss({ connectionString: PG, schema, max: CONCURRENCY + 2 });
  boss.on("error", (e) => console.error("pg-boss:", e.message));
  await boss.start();
  await boss.createQueue(kind);
  for (let start = 0; start < N; start += 1000) {
    await boss.insert(Array.from({ length: Math.min(1000, N - start) }, (_, i) => ({ name: kind, data: { n: start + i } })));
  }
  const pool = postgres(withSchema(schema), { max: CONCURRENCY, onnotice: () => undefined });
  let done = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    // Batches of 8, run at once: 8 jobs at a time, as svc's runner here.
    void boss.work<{ n: number }>(kind, { batchSize: CONCURRENCY, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      await Promise.all(jobs.map(async (j) => {
        if (kind === "write_row") await pool`INSERT INTO boss_run (n) VALUES (${j.data.n})`;
      }));
      done += jobs.length;
      if (done >= N) resolve();
    });
  });
  const seconds = (performance.now() - t0) / 1000;
  await boss.stop({ graceful: false, wait: true });
  await pool.end({ timeout: 1 });
  return N / seconds;
}

async function count(admin: postgres.Sql, table: string): Promise<number> {
  const [r] = await admin.unsafe(`SELECT count(*)::int AS n FROM ${table}`);
  return Number(r.n);
}

async function main(): Promise<void> {
  const base = join(repoRoot, "build", "tmp");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, "bench-jobs-"));
  writeFiles(dir, await buildFiles({ mode: "module", dir: join(repoRoot, "bench", "jobs", "project") }, { runtimeImport: "../../runtime/index.js" }));
  const admin = postgres(PG, { max: 1, onnotice: () => undefined });
  const rows: string[] = [];
  try {
    for (const kind of ["empty", "write_row"] as const) {
      const s1 = `svc_bench_jobs_${process.pid}_${kind}`;
      const s2 = `boss_bench_${process.pid}_${kind}`;
      await admin.unsafe(`CREATE SCHEMA ${s1}`);
      await admin.unsafe(`CREATE SCHEMA ${s2}`);
      await admin.unsafe(`CREATE TABLE ${s2}.boss_run (id bigserial PRIMARY KEY, n bigint NOT NULL)`);
      try {
        const svc = await svcRun(dir, kind, s1);
        process.stdout.write(`${kind}: svc ${svc.toFixed(0)} jobs/s\n`);
        const boss = await pgBossRun(kind, s2);
        // Both sides wrote their rows, one a job: counted, not assumed.
        const written = kind === "empty" ? "" : `   rows written: svc ${await count(admin, `${s1}.job_run`)}, pg-boss ${await count(admin, `${s2}.boss_run`)}`;
        rows.push(`${kind.padEnd(10)} svc ${svc.toFixed(0).padStart(6)} jobs/s   pg-boss ${boss.toFixed(0).padStart(6)} jobs/s   ratio ${(svc / boss).toFixed(2)}${written}`);
        process.stdout.write(`${rows[rows.length - 1]}\n`);
      } finally {
        await admin.unsafe(`DROP SCHEMA ${s1} CASCADE`);
        await admin.unsafe(`DROP SCHEMA ${s2} CASCADE`);
      }
    }
  } finally {
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`\n${N} jobs each, ${CONCURRENCY} at a time, one worker process, PostgreSQL at ${new URL(PG).host}\n`);
}

await main();
