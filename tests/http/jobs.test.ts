// Jobs on SQLite (docs/language.md §2.8, docs/operations.md "Jobs"): an enqueue commits or rolls
// back with its action, every job runs once, a unique key holds while its job is pending, a
// failing job is retried with backoff and kept as failed with its last error, `svc jobs`
// lists, retries and cancels, and `--jobs off` leaves the jobs to other servers.

import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { until } from "../support/until.js";
import { type TestServer, buildTo, removeDir, startServer, waitForOutput } from "../support/server.js";

const run = promisify(execFile);
const SVC = join(repoRoot, "build", "compiler", "cli", "svc.js");

let dir: string;
let db: string;
let server: TestServer;
let api: string;

beforeAll(async () => {
  dir = await buildTo({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "jobs") });
  db = join(dir, "jobs.db");
  server = await startServer(dir, ["--db", db]);
  api = `${server.url}/api/work`;
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

async function runs(): Promise<{ job: string; n: number }[]> {
  const r = await call(`${api}:runs`);
  expect(r.status).toBe(200);
  return r.json.data;
}

async function stats(url = server.url): Promise<{ queued: number; running: number; failed: number; oldest_pending_seconds: number }> {
  const r = await call(`${url}/health/jobs`);
  expect(r.status).toBe(200);
  return r.json.data;
}

/** The server's output once a line matches `pattern`; throws when none does in time. */
async function logged(s: TestServer, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const text = await waitForOutput(s, pattern, timeoutMs);
  if (!pattern.test(text)) throw new Error(`no log line matched ${pattern}`);
  return text;
}

async function svc(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SVC, ...args]);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("jobs on SQLite", () => {
  test("an enqueued job runs once its action commits, with its id and one log line", async () => {
    expect((await call(`${api}:add`, { json: { n: 1 } })).status).toBe(200);
    const rows = await until(runs, (r) => r.some((x) => x.n === 1), "job 1");
    const id = rows.find((x) => x.n === 1)!.job;
    expect(id).toMatch(/^[0-9A-Z]{26}$/);
    const log = await logged(server, new RegExp(`"msg":"job run","job_id":"${id}"`));
    const line = log.split("\n").find((l) => l.includes(`"job_id":"${id}"`))!;
    expect(JSON.parse(line)).toMatchObject({ job_id: id, job: "work.record", attempt: 1, outcome: "done" });
    expect(typeof JSON.parse(line).duration_ms).toBe("number");
  });

  test("an action that fails after its enqueue leaves no job behind", async () => {
    const r = await call(`${api}:add_then_fail`, { json: { n: 2 } });
    expect(r.status).toBe(409);
    expect((await call(`${api}:add`, { json: { n: 3 } })).status).toBe(200);
    await until(runs, (rows) => rows.some((x) => x.n === 3), "job 3");
    const s = await until(stats, (x) => x.queued === 0 && x.running === 0, "an empty queue");
    expect(s).toMatchObject({ queued: 0, running: 0, oldest_pending_seconds: 0 });
    expect((await runs()).map((x) => x.n)).not.toContain(2);
  });

  test("1,000 jobs enqueued by actions all run, each exactly once", async () => {
    for (const start of [100, 600]) {
      expect((await call(`${api}:add_many`, { json: { start, count: 500 } })).status).toBe(200);
    }
    const rows = await until(runs, (r) => r.filter((x) => x.n >= 100 && x.n < 1100).length >= 1000, "1000 jobs", 60_000);
    const ns = rows.filter((x) => x.n >= 100 && x.n < 1100).map((x) => x.n);
    expect(new Set(ns).size).toBe(1000);
    expect(ns).toHaveLength(1000);
  });

  test("enqueue with `unique` is a no-op while an equal job is pending; `after` delays it; `svc jobs cancel` deletes one", async () => {
    for (let i = 0; i < 3; i++) expect((await call(`${api}:add_later`, { json: { n: 5000 + i, key: "k1" } })).status).toBe(200);
    expect((await call(`${api}:add_later`, { json: { n: 5100, key: "k2" } })).status).toBe(200);
    const s = await stats();
    expect(s.queued).toBe(2);
    // Not ready for an hour: it does not count as waiting.
    expect(s.oldest_pending_seconds).toBe(0);
    const listed = await svc("jobs", "list", "--db", db, "--state", "queued", "--json");
    expect(listed.code).toBe(0);
    const jobs = JSON.parse(listed.stdout) as { id: string; job: string; state: string }[];
    expect(jobs).toHaveLength(2);
    expect(jobs.every((j) => j.job === "work.record" && j.state === "queued")).toBe(true);
    expect(await svc("jobs", "cancel", jobs[0].id, "--db", db)).toMatchObject({ code: 0 });
    expect((await stats()).queued).toBe(1);
  });

  test("a failing job is retried after a backoff, then kept as failed with its last error; `svc jobs retry` runs it again", async () => {
    expect((await call(`${api}:doomed`, { json: { reason: "the provider said no" } })).status).toBe(200);
    await until(stats, (s) => s.failed === 1, "a failed job");
    const log = await logged(server, /"job":"work.fail_always","attempt":2,[^\n]*"outcome":"failed","error":"the provider said no"/);
    expect(log).toMatch(/"job":"work.fail_always","attempt":1,[^\n]*"outcome":"retry","error":"the provider said no"/);
    const listed = await svc("jobs", "list", "--db", db, "--state", "failed");
    const line = listed.stdout.split("\n").find((l) => l.includes("work.fail_always"))!;
    expect(line).toMatch(/^\S+\s+work\.fail_always\s+default\s+failed\s+2\/2\s+\S+\s+the provider said no$/);
    const id = line.split(/\s+/)[0];
    expect((await svc("jobs", "retry", id, "--db", db)).code).toBe(0);
    // Run again from its first attempt: two more lines for it, the last one failed again.
    await logged(server, new RegExp(`(?:"job_id":"${id}"[^\\n]*"outcome":"(?:retry|failed)"[\\s\\S]*){4}`));
    await until(stats, (s) => s.failed === 1 && s.running === 0, "the retried job failed again");
  });

  test("svc jobs says so when the database has no jobs", async () => {
    const empty = await svc("jobs", "list", "--db", join(dir, "other.db"));
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/svc jobs: .*has a server with jobs run on this database/);
  });

  test("a server started with --jobs off serves and enqueues, and leaves running to the others", async () => {
    const off = await startServer(dir, ["--db", db, "--jobs", "off"]);
    try {
      expect((await call(`${off.url}/api/work:add`, { json: { n: 7 } })).status).toBe(200);
      await until(runs, (rows) => rows.some((x) => x.n === 7), "job 7 run by the first server");
      expect(off.output.join("\n")).not.toMatch(/"msg":"job run"/);
      expect((await call(`${off.url}/health/jobs`)).status).toBe(404);
    } finally {
      expect(await off.stop()).toBe(0);
    }
  });

  test("--jobs only serves /health and nothing of the app", async () => {
    const only = await startServer(dir, ["--db", db, "--jobs", "only"]);
    try {
      expect((await call(`${only.url}/health`)).status).toBe(200);
      expect((await call(`${only.url}/health/jobs`)).status).toBe(200);
      expect((await call(`${only.url}/api/work:runs`)).status).toBe(404);
    } finally {
      expect(await only.stop()).toBe(0);
    }
  });

  test("a bad --jobs value is refused at start", async () => {
    await expect(startServer(dir, ["--db", db, "--jobs", "sometimes"])).rejects.toThrow(/--jobs must be on, off or only/);
  });
});
