// Jobs across three servers on one database (docs/language.md §2.8), run by jobs.test.ts on
// PostgreSQL and MariaDB: every job enqueued by actions runs, none twice while its lease
// holds, none is lost; with one server SIGKILLed mid-run every job still completes (its
// claimed jobs are claimed again when their leases end; doubles are counted and reported);
// and a schedule firing every second runs each tick exactly once across the three.

import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { until } from "../support/until.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type NetBackend, type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

interface Stats {
  runs: number;
  distinct_n: number;
}

export function defineJobsSuite(backend: NetBackend, ok: boolean, jobs: number, killJobs: number): void {
  (ok ? describe : describe.skip)(`${backend}: jobs across three servers`, () => {
    let dir: string;
    let ns: Namespace | undefined;
    let servers: TestServer[] = [];

    beforeAll(async () => {
      dir = await buildServer({ mode: "module", dir: join(repoRoot, "tests", "backends", "projects", "jobs") }, "jobs-");
    });

    afterEach(async () => {
      // Each test makes its own namespace: dropped here even when the test failed.
      for (const s of servers.splice(0)) await s.stop();
      await ns?.drop();
      ns = undefined;
    });

    afterAll(async () => {
      if (dir) removeDir(dir);
    });

    async function start(n: number): Promise<TestServer[]> {
      const started = await Promise.all(Array.from({ length: n }, () => startServer(dir, ["--db", ns!.url, "--jobs-concurrency", "8"])));
      servers.push(...started);
      return started;
    }

    async function stats(s: TestServer): Promise<Stats> {
      const r = await call(`${s.url}/api/work:run_stats`);
      expect(r.status).toBe(200);
      return { runs: Number(r.json.data.runs), distinct_n: Number(r.json.data.distinct_n) };
    }

    async function enqueue(all: TestServer[], total: number, batch: number): Promise<void> {
      const calls: Promise<void>[] = [];
      for (let start = 0, i = 0; start < total; start += batch, i++) {
        const s = all[i % all.length];
        calls.push(call(`${s.url}/api/work:add_many`, { json: { start, count: Math.min(batch, total - start) } }).then((r) => void expect(r.status).toBe(200)));
      }
      await Promise.all(calls);
    }

    test(`${jobs} jobs enqueued by actions: every one runs, none twice, none lost; the schedule ticks once a second`, async () => {
      ns = await createNamespace(backend, "jobs");
      const three = await start(3);
      await enqueue(three, jobs, 1000);
      const done = await until(() => stats(three[0]), (s) => s.distinct_n >= jobs, `${jobs} jobs`, 120_000);
      expect(done).toEqual({ runs: jobs, distinct_n: jobs });
      // The heartbeat's jobs queue behind the others (same priority, later): wait for them too.
      const health = await until(async () => (await call(`${three[1].url}/health/jobs`)).json.data, (h) => h.running === 0 && h.queued === 0, "an empty queue", 30_000);
      expect(health).toMatchObject({ queued: 0, running: 0, failed: 0 });
      // Every server took part: each logged runs of its own.
      for (const s of three) expect(s.output.some((l) => l.includes('"msg":"job run"'))).toBe(true);

      // The heartbeat's job ids are `<tick ms>.<schedule>`: each tick once, and none skipped.
      const ticks = (await call(`${three[2].url}/api/work:ticks`)).json.data.map((r: { job: string }) => Number(r.job.split(".")[0]));
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(new Set(ticks).size).toBe(ticks.length);
      const sorted = [...ticks].sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBe(1000);
      process.stderr.write(`${backend}: ${jobs} jobs on 3 servers, each run once; ${ticks.length} schedule ticks, each once\n`);
      for (const s of servers.splice(0)) expect(await s.stop()).toBe(0);
    }, 240_000);

    test(`one server of three SIGKILLed mid-run: all ${killJobs} jobs still complete (doubles counted)`, async () => {
      ns = await createNamespace(backend, "jobskill");
      const three = await start(3);
      await enqueue(three, killJobs, 500);
      await until(() => stats(three[0]), (s) => s.runs >= killJobs / 10, "some runs", 60_000);
      three[2].process.kill("SIGKILL");
      const done = await until(() => stats(three[0]), (s) => s.distinct_n >= killJobs, `${killJobs} jobs`, 120_000);
      expect(done.distinct_n).toBe(killJobs);
      const doubles = done.runs - done.distinct_n;
      // A run commits together with the deletion of its job: a killed server's open transactions
      // roll back, so a job claimed again after its lease commits once. Doubles stay possible
      // (at-least-once), and are reported rather than ruled out.
      process.stderr.write(`${backend}: ${killJobs} jobs, one server of three killed: all completed, ${doubles} ran twice\n`);
      expect(doubles).toBeGreaterThanOrEqual(0);
      const health = await until(async () => (await call(`${three[0].url}/health/jobs`)).json.data, (h) => h.running === 0 && h.queued === 0, "an empty queue", 30_000);
      expect(health.failed).toBe(0);
    }, 240_000);
  });
}
