// --workers with node:cluster: workers share the port, a dead worker is replaced and the
// replacement logged, an in-memory database runs one worker, start-up failures are reported
// once, and log lines from several processes stay whole.

import { spawn, spawnSync } from "node:child_process";
import { createServer as createNetServer } from "node:net";
import type { AddressInfo } from "node:net";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { EXAMPLE_ENV, removeDir, startServer, type TestServer } from "../support/server.js";
import { buildServer, exited, logLines, raw, request, waitForLog } from "./support.js";

let dir: string;

beforeAll(async () => {
  dir = await buildServer();
});

afterAll(() => removeDir(dir));

/** One request on its own connection, so the primary hands it to the next worker in turn. */
async function oneShot(server: TestServer, path = "/api/task_tracker:list_tasks?limit=1") {
  return raw(server.port, request("GET", path, { Connection: "close" }), 5000);
}

describe("two workers on a database file", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(dir, ["--db", join(dir, "workers.db"), "--workers", "2"]);
  });

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  test("both start, the primary says listening once, and both serve", async () => {
    const started = logLines(server).filter((l) => l.msg === "worker started");
    expect(new Set(started.map((l) => l.pid)).size).toBe(2);
    const listening = logLines(server).filter((l) => l.msg === "listening");
    expect(listening).toHaveLength(1);
    expect(listening[0]).toMatchObject({ workers: 2, address: `127.0.0.1:${server.port}` });
    // Request ids start with a prefix drawn once per process.
    const prefixes = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const answer = await oneShot(server);
      expect(answer.status).toBe(200);
      prefixes.add(answer.headers["x-request-id"].split("-")[0]);
    }
    expect(prefixes.size).toBe(2);
  });

  test("a worker that dies is replaced, and both are logged", async () => {
    const before = logLines(server).filter((l) => l.msg === "worker started");
    const victim = before[0].pid as number;
    const mark = server.output.length;
    process.kill(victim, "SIGKILL");
    const died = await waitForLog(server, (l) => l.msg === "worker died; starting a replacement", 10_000, mark);
    expect(died).toMatchObject({ level: "error", pid: victim, signal: "SIGKILL" });
    const replacement = await waitForLog(server, (l) => l.msg === "worker started", 10_000, mark);
    expect(replacement.pid).not.toBe(victim);
    for (let i = 0; i < 6; i++) expect((await oneShot(server)).status).toBe(200);
  });

  test("log lines from both workers stay whole under concurrent load", async () => {
    const mark = server.output.length;
    // Long paths make long lines, so batches pass the 4 KiB a pipe writes atomically.
    const path = `/no/such/${"p".repeat(900)}`;
    const answers = await Promise.all(Array.from({ length: 200 }, () => oneShot(server, path)));
    expect(answers.every((a) => a.status === 404)).toBe(true);
    await waitForLog(server, () => logLines(server, mark).filter((l) => l.path === path).length === 200, 10_000, mark);
    const lines = server.output.slice(mark);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});

test("an in-memory database runs one worker and says so", async () => {
  const server = await startServer(dir, ["--db", ":memory:", "--workers", "4"]);
  try {
    const note = logLines(server).find((l) => l.workers_asked !== undefined);
    expect(note).toMatchObject({
      msg: "the database is in memory, private to one process: serving with one worker",
      workers_asked: 4,
    });
    expect(logLines(server).filter((l) => l.msg === "worker started")).toHaveLength(0);
    expect((await oneShot(server)).status).toBe(200);
  } finally {
    expect(await server.stop()).toBe(0);
  }
});

test("a port in use stops a cluster start with one message and exit 1", async () => {
  const blocker = createNetServer();
  await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
  const port = (blocker.address() as AddressInfo).port;
  try {
    const r = spawnSync(
      process.execPath,
      [join(dir, "server.js"), "--listen", `127.0.0.1:${port}`, "--workers", "2", "--db", join(dir, "busy.db")],
      { cwd: dir, encoding: "utf8", timeout: 30_000, env: { ...EXAMPLE_ENV, ...process.env } },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`task_tracker: cannot listen on 127.0.0.1:${port}: the address is in use [SVC_ERR_LISTEN]\n`);
  } finally {
    blocker.close();
  }
});

test("a signal while the workers are starting stops them all and exits 0", async () => {
  // Four workers on this machine's few cores start one after another: the signal, sent as
  // soon as the first is up, almost always finds others still starting.
  const child = spawn(
    process.execPath,
    [join(dir, "server.js"), "--listen", "127.0.0.1:0", "--workers", "4", "--db", join(dir, "early.db")],
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...EXAMPLE_ENV, ...process.env } },
  );
  let out = "";
  let signalled = false;
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (!signalled && out.includes('"msg":"worker started"')) {
      signalled = true;
      child.kill("SIGTERM");
    }
  });
  const fake = { process: child, output: [] } as unknown as TestServer;
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const code = await exited(fake);
  clearTimeout(timer);
  expect(signalled).toBe(true);
  expect(code).toBe(0);
  expect(out).toContain('"msg":"shutting down"');
  expect(out.trimEnd().endsWith('"msg":"stopped"}')).toBe(true);
});

test("replacement workers that keep failing to start stop the server after five tries, exit 1", async () => {
  const dbFile = join(dir, "taken-away.db");
  const server = await startServer(dir, ["--db", dbFile, "--workers", "2"]);
  try {
    // A folder where the database file was: the running workers keep their open file, but
    // no new worker can open it.
    for (const suffix of ["", "-wal", "-shm"]) rmSync(dbFile + suffix, { force: true });
    mkdirSync(dbFile);
    const victim = logLines(server).find((l) => l.msg === "worker started")!.pid as number;
    process.kill(victim, "SIGKILL");
    const deadline = setTimeout(() => server.process.kill("SIGKILL"), 30_000);
    const code = await exited(server);
    clearTimeout(deadline);
    expect(code).toBe(1);
    const lines = logLines(server);
    const attempts = lines.filter((l) => l.msg === "a replacement worker could not start");
    expect(attempts.map((l) => l.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(String(attempts[0].error)).toMatch(/taken-away\.db/);
    expect(lines.find((l) => l.msg === "workers keep failing to start; stopping")).toMatchObject({
      level: "error",
      attempts: 5,
    });
    // The worker still running was stopped too, before the primary exited.
    expect(lines.at(-1)?.msg).toBe("stopped");
  } finally {
    server.process.kill("SIGKILL");
    rmSync(dbFile, { recursive: true, force: true });
  }
});
