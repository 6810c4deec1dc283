// Issue 33's targets for many servers on one database, as benches (they take minutes, so they
// are not in the test suite; tests/backends/jobs.suite.ts runs smaller counts):
//
//   --jobs N    N jobs enqueued by actions (1,000 per call, round-robin over the servers), run
//               by --servers servers (8 at a time each); every job's run writes one row, so the
//               rows count the runs: every job ran (distinct n = N), none twice (rows = N).
//               With --kill, one server is SIGKILLed once a tenth of the jobs ran: every job
//               must still complete; runs twice are counted and reported, not ruled out.
//   --ticks S   no jobs: --servers servers run for S seconds beside a schedule firing every
//               second; each tick's job id names its tick, so the rows show each tick once
//               (duplicates = rows − distinct ticks) and none skipped (gaps between ticks).
//
//   npx tsc -p tsconfig.json && node build/bench/jobs/cluster.js --backend mysql --servers 1 --jobs 10000
//   node build/bench/jobs/cluster.js --backend postgres --servers 3 --jobs 10000 --kill
//   node build/bench/jobs/cluster.js --backend postgres --servers 3 --ticks 60
//
// Databases: SVC_TEST_POSTGRES_URL / SVC_TEST_MYSQL_URL (tests/backends/support/databases.ts);
// each run makes its own schema or database and drops it after.

import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { call } from "../../tests/support/http.js";
import { repoRoot } from "../../tests/support/paths.js";
import { until } from "../../tests/support/until.js";
import { type TestServer, removeDir, startServer } from "../../tests/support/server.js";
import { buildServer } from "../../tests/backends/support/build.js";
import { type NetBackend, backendAvailable, createNamespace } from "../../tests/backends/support/databases.js";

const { values: opts } = parseArgs({
  options: {
    backend: { type: "string", default: "postgres" },
    servers: { type: "string", default: "3" },
    jobs: { type: "string" },
    kill: { type: "boolean", default: false },
    ticks: { type: "string" },
  },
});
const backend = opts.backend as NetBackend;
const servers = Number(opts.servers);
if (backend !== "postgres" && backend !== "mysql") throw new Error("--backend postgres|mysql");
if (!(servers >= 1) || (opts.jobs === undefined) === (opts.ticks === undefined)) throw new Error("give --servers N and one of --jobs N, --ticks SECONDS");
if (opts.kill && servers < 2) throw new Error("--kill needs two servers or more");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stats(s: TestServer): Promise<{ runs: number; distinct_n: number }> {
  const r = await call(`${s.url}/api/work:run_stats`);
  if (r.status !== 200) throw new Error(`run_stats: ${r.status}`);
  return { runs: Number(r.json.data.runs), distinct_n: Number(r.json.data.distinct_n) };
}

/** Job runs each server logged, by job name. */
function runsLogged(s: TestServer, job: string): number {
  return s.output.filter((l) => l.includes('"msg":"job run"') && l.includes(`"job":"${job}"`) && l.includes('"outcome":"done"')).length;
}

async function jobsRun(dir: string, url: string, total: number): Promise<void> {
  const all = await Promise.all(Array.from({ length: servers }, () => startServer(dir, ["--db", url, "--jobs-concurrency", "8", "--log-level", "info"])));
  try {
    const t0 = performance.now();
    const calls: Promise<void>[] = [];
    for (let start = 0, i = 0; start < total; start += 1000, i++) {
      calls.push(call(`${all[i % servers].url}/api/work:add_many`, { json: { start, count: Math.min(1000, total - start) } }).then((r) => {
        if (r.status !== 200) throw new Error(`add_many: ${r.status} ${JSON.stringify(r.json)}`);
      }));
    }
    await Promise.all(calls);
    const enqueued = performance.now();
    let killedAt: number | null = null;
    if (opts.kill) {
      await until(() => stats(all[0]), (s) => s.runs >= total / 10, "a tenth of the jobs", 600_000);
      killedAt = (await stats(all[0])).runs;
      all[servers - 1].process.kill("SIGKILL");
    }
    const alive = opts.kill ? all.slice(0, -1) : all;
    const done = await until(() => stats(alive[0]), (s) => s.distinct_n >= total, `${total} jobs`, 900_000);
    const finished = performance.now();
    // Anything still queued or running (a lease that ends later, a double still to come) shows after an empty queue.
    await until(async () => (await call(`${alive[0].url}/health/jobs`)).json.data, (h) => h.queued === 0 && h.running === 0, "an empty queue", 120_000);
    const settled = await stats(alive[0]);
    const health = (await call(`${alive[0].url}/health/jobs`)).json.data as { failed: number };
    const perServer = all.map((s) => runsLogged(s, "work.record"));
    const lines = [
      `${backend}, ${servers} server(s)${opts.kill ? `, one SIGKILLed after ${killedAt} runs` : ""}: ${total} jobs enqueued by ${Math.ceil(total / 1000)} actions in ${((enqueued - t0) / 1000).toFixed(1)} s`,
      // The servers run jobs while the actions still enqueue: the rate counts from the first enqueue.
      `  completed: ${done.distinct_n} of ${total} distinct jobs ${((finished - t0) / 1000).toFixed(1)} s after the first enqueue, ${((finished - enqueued) / 1000).toFixed(1)} s after the last (${(total / ((finished - t0) / 1000)).toFixed(0)} jobs/s overall)`,
      `  rows written (committed runs): ${settled.runs}; distinct jobs: ${settled.distinct_n}; ran twice: ${settled.runs - settled.distinct_n}; lost: ${total - settled.distinct_n}; failed: ${health.failed}`,
      `  runs logged "done" per server: ${perServer.join(", ")}${opts.kill ? " (the last one killed; its runs after its last log line rolled back)" : ""}`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    const ok = settled.distinct_n === total && health.failed === 0 && (opts.kill || settled.runs === total);
    process.stdout.write(ok ? "  result: met\n" : "  result: NOT met\n");
    if (!ok) process.exitCode = 1;
  } finally {
    for (const s of all) await s.stop();
  }
}

async function ticksRun(dir: string, url: string, seconds: number): Promise<void> {
  const all = await Promise.all(Array.from({ length: servers }, () => startServer(dir, ["--db", url, "--jobs-concurrency", "8", "--log-level", "info"])));
  const t0 = Date.now();
  await sleep(seconds * 1000);
  const t1 = Date.now();
  // A graceful stop lets a tick's job that is running commit.
  for (const s of all) await s.stop();
  const reader = await startServer(dir, ["--db", url, "--jobs", "off"]);
  try {
    const ids = ((await call(`${reader.url}/api/work:ticks`)).json.data as { job: string }[]).map((r) => Number(r.job.split(".")[0]));
    const distinct = [...new Set(ids)].sort((a, b) => a - b);
    let gaps = 0;
    for (let i = 1; i < distinct.length; i++) if (distinct[i] - distinct[i - 1] !== 1000) gaps++;
    const perServer = all.map((s) => runsLogged(s, "work.heartbeat"));
    process.stdout.write(
      [
        `${backend}, ${servers} servers for ${((t1 - t0) / 1000).toFixed(1)} s, a schedule every 1 s:`,
        `  ticks run: ${ids.length}; distinct ticks: ${distinct.length}; duplicates: ${ids.length - distinct.length}; gaps between consecutive ticks: ${gaps}`,
        `  first tick ${new Date(distinct[0]).toISOString()}, last ${new Date(distinct[distinct.length - 1]).toISOString()}`,
        `  ticks run per server: ${perServer.join(", ")}`,
      ].join("\n") + "\n",
    );
    const ok = ids.length === distinct.length && gaps === 0 && distinct.length >= Math.floor(seconds) - 1;
    process.stdout.write(ok ? "  result: met\n" : "  result: NOT met\n");
    if (!ok) process.exitCode = 1;
  } finally {
    await reader.stop();
  }
}

async function main(): Promise<void> {
  if (!(await backendAvailable(backend))) throw new Error(`${backend} is not reachable`);
  const dir = await buildServer({ mode: "module", dir: join(repoRoot, "tests", "backends", "projects", "jobs") }, "bench-jobs-cluster-");
  const ns = await createNamespace(backend, "benchjobs");
  try {
    if (opts.jobs !== undefined) await jobsRun(dir, ns.url, Number(opts.jobs));
    else await ticksRun(dir, ns.url, Number(opts.ticks));
  } finally {
    await ns.drop();
    removeDir(dir);
  }
}

await main();
