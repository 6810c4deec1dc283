// Graceful shutdown with jobs on SQLite (docs/language.md §2.8, docs/operations.md "Jobs"):
// SIGTERM while a job runs stops claiming, the running job finishes within the grace period
// and commits, the jobs not yet run stay queued with no attempt counted, and the next server
// on the database runs every one of them: none lost, none run twice. A job still running when
// the grace ends is returned to the queue instead (rolled back, not failed) and runs again on
// the next start. The gate, not a clock, decides which: the job is let go only after the
// server has said which side of the grace it is on.

import { spawn, type ChildProcess, execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import { call } from "../../support/http.js";
import { repoRoot } from "../../support/paths.js";
import { until } from "../../support/until.js";
import { buildTo, removeDir, startServer } from "../../support/server.js";

const run = promisify(execFile);
const SVC = join(repoRoot, "build", "compiler", "cli", "svc.js");
const GATED = join(repoRoot, "build", "tests", "http", "jobs-shutdown", "gated-server.js");

let dir: string;

beforeAll(async () => {
  dir = await buildTo({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "jobs") });
});

afterAll(() => removeDir(dir));

interface Gated {
  child: ChildProcess;
  url: string;
  output: string[];
  exited: Promise<number | null>;
}

/** The jobs project's server as its own process, a job `record(n)` with n in `gate` held at its first statement until released. */
function startGated(db: string, gate: number[], args: string[], graceMs = 30_000): Promise<Gated> {
  const child = spawn(process.execPath, [GATED, join(dir, "server.js"), "--listen", "127.0.0.1:0", "--workers", "1", "--db", db, ...args], {
    cwd: dir,
    env: { ...process.env, GATE_N: gate.join(","), GRACE_MS: String(graceMs) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        output.push(line);
        const m = /"msg":"listening".*?"address":"[^"]*:(\d+)"/.exec(line);
        if (m) resolve({ child, url: `http://127.0.0.1:${m[1]}`, output, exited });
      }
    });
    child.stderr!.on("data", (c: Buffer) => output.push(...c.toString("utf8").split("\n").filter(Boolean)));
    // "close": only then has everything the server wrote been read.
    child.once("close", (code) => reject(new Error(`gated server exited with ${code} before listening:\n${output.join("\n")}`)));
  });
}

/** Reads the server's output until a line matches, waiting for the event itself. */
function seen(s: Gated, pattern: RegExp, what: string): Promise<string[]> {
  return until(async () => s.output, (lines) => lines.some((l) => pattern.test(l)), what);
}

async function queued(db: string): Promise<{ id: string; state: string; attempt: number; last_error: string }[]> {
  const { stdout } = await run(process.execPath, [SVC, "jobs", "list", "--db", db, "--json"]);
  return JSON.parse(stdout) as { id: string; state: string; attempt: number; last_error: string }[];
}

/** Starts a server on `db` that runs jobs, waits until `count` distinct jobs committed and the queue is empty, and stops it. */
async function runAllOnNextStart(db: string, count: number): Promise<{ job: string; n: number }[]> {
  const next = await startServer(dir, ["--db", db]);
  try {
    const rows = await until(
      async () => (await call(`${next.url}/api/work:runs`)).json.data as { job: string; n: number }[],
      (r) => r.length >= count,
      "every job run",
    );
    await until(() => queued(db), (j) => j.length === 0, "an empty queue");
    return rows;
  } finally {
    expect(await next.stop()).toBe(0);
  }
}

describe("jobs at a graceful shutdown (SQLite)", () => {
  test("SIGTERM while a job runs: it finishes within the grace and commits, the queued ones stay, the next server runs them all once", async () => {
    const db = join(dir, "shutdown.db");
    const s = await startGated(db, [9001, 9002, 9003, 9004], ["--jobs-concurrency", "1"]);
    try {
      // Four jobs in one transaction (the running one holds SQLite's write lock from then on).
      expect((await call(`${s.url}/api/work:add_many`, { json: { start: 9001, count: 4 } })).status).toBe(200);
      // One runs, held; the one slot is taken, so the other three wait in the queue.
      await seen(s, /"gate":"held"/, "a job running");

      s.child.kill("SIGTERM");
      await seen(s, /"msg":"shutting down"/, "the shutdown to begin");
      s.child.stdin!.write("release\n");
      expect(await s.exited).toBe(0);
    } finally {
      if (s.child.exitCode === null) s.child.kill("SIGKILL");
    }

    const held = JSON.parse(s.output.find((l) => l.includes('"gate":"held"'))!) as { n: number };
    const runs = s.output.filter((l) => l.includes('"msg":"job run"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ job: "work.record", attempt: 1, outcome: "done" });
    expect(s.output.join("\n")).not.toMatch(/jobs returned to the queue/);
    // The three not yet run are still queued, no attempt spent on them.
    const left = await queued(db);
    expect(left.map((j) => [j.state, j.attempt])).toEqual([["queued", 0], ["queued", 0], ["queued", 0]]);

    const committed = await startServer(dir, ["--db", db, "--jobs", "off"]);
    try {
      // Only the job that was running committed, before the process exited.
      expect((await call(`${committed.url}/api/work:runs`)).json.data).toEqual([{ job: runs[0].job_id, n: held.n }]);
    } finally {
      expect(await committed.stop()).toBe(0);
    }

    const rows = await runAllOnNextStart(db, 4);
    expect(rows.map((r) => r.n).sort((a, b) => a - b)).toEqual([9001, 9002, 9003, 9004]);
    expect(new Set(rows.map((r) => r.job)).size).toBe(4);
  });

  test("a job still running when the grace ends is rolled back and returned to the queue, not failed, and runs on the next start", async () => {
    const db = join(dir, "grace-ended.db");
    // A short grace; the job outlives it because it is held until the server says the grace ended.
    const s = await startGated(db, [9101, 9102, 9103], ["--jobs-concurrency", "1"], 200);
    try {
      expect((await call(`${s.url}/api/work:add_many`, { json: { start: 9101, count: 3 } })).status).toBe(200);
      await seen(s, /"gate":"held"/, "a job running");

      s.child.kill("SIGTERM");
      await seen(s, /"msg":"shutdown grace ended; returning running jobs"/, "the grace to end with the job running");
      // Let go now, its insert runs; the run was given up on, so it rolls back instead of committing.
      s.child.stdin!.write("release\n");
      expect(await s.exited).toBe(0);
    } finally {
      if (s.child.exitCode === null) s.child.kill("SIGKILL");
    }

    const held = JSON.parse(s.output.find((l) => l.includes('"gate":"held"'))!) as { n: number };
    expect(s.output.filter((l) => l.includes('"gate":"held"'))).toHaveLength(1);
    const lines = s.output.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.msg === "shutdown grace ended; returning running jobs")).toMatchObject({ jobs: 1, grace_ms: 200 });
    const runs = lines.filter((l) => l.msg === "job run");
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ job: "work.record", attempt: 1, outcome: "returned" });
    expect(runs[0]).not.toHaveProperty("error");
    expect(lines.find((l) => l.msg === "jobs returned to the queue at shutdown")).toMatchObject({ jobs: 1 });

    // All three queued, the returned one among them: no attempt spent, no error kept, none failed.
    const left = await queued(db);
    expect(left.map((j) => [j.state, j.attempt, j.last_error])).toEqual([["queued", 0, ""], ["queued", 0, ""], ["queued", 0, ""]]);
    expect(left.map((j) => j.id)).toContain(runs[0].job_id);

    // Its insert rolled back: the next server runs each of the three once, the returned one included.
    const rows = await runAllOnNextStart(db, 3);
    expect(rows.map((r) => r.n).sort((a, b) => a - b)).toEqual([9101, 9102, 9103]);
    expect(rows.filter((r) => r.n === held.n)).toEqual([{ job: runs[0].job_id, n: held.n }]);
  });
});
