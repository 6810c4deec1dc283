// Every server flag of docs/service.md §8 on a generated server and through svc-server: `--help`
// lists them with their defaults, a bad value stops the server with a message naming the
// flag, svc.toml `[server]` sets the defaults and a flag wins over it; logs at the chosen level.

import { spawn, spawnSync } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { EXAMPLE_ENV, removeDir, startServer, tmpDir } from "../support/server.js";
import { buildServer, exampleDir, logLines, raw, svcServerJs } from "./support.js";

let dir: string;
const cleanup: string[] = [];

beforeAll(async () => {
  dir = await buildServer();
  cleanup.push(dir);
});

afterAll(() => {
  for (const d of cleanup) removeDir(d);
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function run(script: string, args: string[], cwd = dir) {
  const r = spawnSync(process.execPath, [script, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...EXAMPLE_ENV, ...process.env, SVC_LISTEN: "" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("--help", () => {
  test("lists every server flag with its default and exits 0", () => {
    const r = run(join(dir, "server.js"), ["--help"]);
    expect(r.code).toBe(0);
    const expected: [string, string][] = [
      ["--listen <addr:port>", "127.0.0.1:8080"],
      ["--backend <sqlite|postgres|mysql|tidb>", "sqlite"],
      ["--db <connection>", "sqlite:data/tasks.db"],
      ["--cors-origin <origin>", "none"],
      ["--read-timeout <ms>", "30000"],
      ["--write-timeout <ms>", "30000"],
      ["--max-body-size <bytes>", "1048576"],
      ["--workers <n>", String(availableParallelism())],
      ["--log-level <error|warn|info|debug|trace>", "info"],
    ];
    for (const [flag, value] of expected) {
      const line = r.stdout.split("\n").find((l) => l.trimStart().startsWith(flag));
      expect(line).toContain(`(default: ${value})`);
    }
  });

  test("svc-server lists the same flags", () => {
    const r = run(svcServerJs, ["--project", exampleDir, "--help"]);
    expect(r.code).toBe(0);
    for (const flag of [
      "--cors-origin",
      "--read-timeout",
      "--write-timeout",
      "--workers",
      "--max-body-size",
      "--log-level",
    ])
      expect(r.stdout).toContain(flag);
  });
});

describe("a bad value stops the server with a message naming the flag", () => {
  test.each([
    [["--listen", "127.0.0.1:70000"], "--listen: port"],
    [["--backend", "oracle"], "--backend: unknown backend"],
    [["--db="], "--db is empty"],
    [["--cors-origin", "https://app.example.com/"], "--cors-origin:"],
    [["--cors-origin", "ftp://files.example.com"], "--cors-origin:"],
    [["--read-timeout", "0"], "--read-timeout: 0 is not a timeout"],
    [["--read-timeout", "1.5"], "--read-timeout:"],
    [["--write-timeout", "-1"], "--write-timeout:"],
    [["--write-timeout", "3000000000"], "--write-timeout: 3000000000 is not a timeout"],
    [["--max-body-size", "-5"], "--max-body-size:"],
    [["--max-body-size", "1mb"], "--max-body-size:"],
    [["--workers", "0"], "--workers: 0 is not a number of workers"],
    [["--workers", "two"], "--workers:"],
    [["--log-level", "loud"], "--log-level: unknown log level"],
  ])("%j", (args, message) => {
    const r = run(join(dir, "server.js"), args);
    expect(r.code).toBe(1);
    expect(r.stderr.startsWith(`task_tracker: ${message}`)).toBe(true);
    expect(r.stderr.split("\n")).toHaveLength(2);
    expect(r.stdout).toBe("");
  });

  test("through svc-server too", () => {
    const r = run(svcServerJs, ["--project", exampleDir, "--workers", "0"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--workers: 0 is not a number of workers");
  });
});

describe("svc.toml [server]", () => {
  let project: string;
  let built: string;

  beforeAll(async () => {
    project = tmpDir("ops-toml-");
    cleanup.push(project);
    cpSync(join(exampleDir, "modules"), join(project, "modules"), { recursive: true });
    writeFileSync(
      join(project, "svc.toml"),
      [
        '[project]\nname = "configured"\n',
        "[server]",
        'listen = "127.0.0.1:9797"',
        'cors_origin = "https://toml.example.com"',
        "read_timeout_ms = 700",
        "write_timeout_ms = 4000",
        "max_body_size = 2048",
        "workers = 1",
        'log_level = "warn"',
        "",
        "[credentials]",
        'github_webhook = { env = "GITHUB_WEBHOOK_SECRET" }',
        "",
      ].join("\n"),
    );
    built = await buildServer({ mode: "project", dir: project });
    cleanup.push(built);
  });

  test("every key becomes a default that --help shows", () => {
    const r = run(join(built, "server.js"), ["--help"]);
    for (const [flag, value] of [
      ["--listen", "127.0.0.1:9797"],
      ["--cors-origin", "https://toml.example.com"],
      ["--read-timeout", "700"],
      ["--write-timeout", "4000"],
      ["--max-body-size", "2048"],
      ["--workers", "1"],
      ["--log-level", "warn"],
    ]) {
      const line = r.stdout.split("\n").find((l) => l.trimStart().startsWith(flag));
      expect(line).toContain(`(default: ${value})`);
    }
  });

  test("the defaults are in force, and a flag wins over each", async () => {
    const byToml = await startServer(built, ["--db", ":memory:", "--log-level", "info"]);
    try {
      const r = await call(`${byToml.url}/api/task_tracker:list_tasks`, {
        headers: { Origin: "https://toml.example.com" },
      });
      expect(r.headers["access-control-allow-origin"]).toBe("https://toml.example.com");
      const big = await call(`${byToml.url}/api/task_tracker:create_task`, { json: { title: "x".repeat(3000) } });
      expect(big.status).toBe(413);
      // svc.toml's 700 ms read timeout, not the 30 s default: the 408 names the one that fired
      // (and the window, 20 s, is still short of the default).
      const silent = await raw(byToml.port, () => undefined, 20_000);
      expect(silent.status).toBe(408);
      expect(silent.json.error).toBe("the request did not arrive within the read timeout (700 ms)");
    } finally {
      expect(await byToml.stop()).toBe(0);
    }
    const byFlag = await startServer(built, [
      "--db",
      ":memory:",
      "--cors-origin",
      "https://flag.example.com",
      "--max-body-size",
      "100000",
      "--log-level",
      "debug",
    ]);
    try {
      const r = await call(`${byFlag.url}/api/task_tracker:list_tasks`, {
        headers: { Origin: "https://toml.example.com" },
      });
      expect(r.headers["access-control-allow-origin"]).toBeUndefined();
      const big = await call(`${byFlag.url}/api/task_tracker:create_task`, { json: { title: "x".repeat(3000) } });
      expect(big.status).toBe(200);
    } finally {
      expect(await byFlag.stop()).toBe(0);
    }
  });
});

describe("logs", () => {
  test("at info: one JSON line per request with id, method, path, status and duration; the id is echoed", async () => {
    const server = await startServer(dir, ["--db", ":memory:", "--workers", "1"]);
    try {
      const mine = await call(`${server.url}/api/task_tracker:list_tasks`, { headers: { "X-Request-Id": "trace-42" } });
      expect(mine.headers["x-request-id"]).toBe("trace-42");
      const odd = await call(`${server.url}/nope`, { headers: { "X-Request-Id": "bad id with spaces" } });
      expect(odd.headers["x-request-id"]).toMatch(/^[A-Za-z0-9_-]{8}-[0-9A-Z]{8}$/);
      // An encoded path reaches the route but is logged as it was sent, not as declared.
      const encoded = await call(`${server.url}/api/task_tracker%3Alist_tasks`, { headers: { "X-Request-Id": "enc-1" } });
      expect(encoded.status).toBe(200);
      await server.stop();
      const requests = logLines(server).filter((l) => l.msg === "request");
      expect(requests.find((l) => l.request_id === "trace-42")).toMatchObject({
        level: "info",
        method: "GET",
        path: "/api/task_tracker:list_tasks",
        status: 200,
        duration_ms: expect.any(Number),
        time: expect.any(String),
      });
      expect(requests.find((l) => l.request_id === odd.headers["x-request-id"])).toMatchObject({
        status: 404,
        path: "/nope",
      });
      expect(requests.find((l) => l.request_id === "enc-1")).toMatchObject({ status: 200, path: "/api/task_tracker%3Alist_tasks" });
    } finally {
      await server.stop();
    }
  });

  test("at warn: warnings are written, nothing less severe", async () => {
    const port = await freePort();
    const dbFile = join(dir, "warn.db");
    const child = spawn(
      process.execPath,
      [
        join(dir, "server.js"),
        "--db",
        dbFile,
        "--workers",
        "1",
        "--log-level",
        "warn",
        "--listen",
        `127.0.0.1:${port}`,
        "--write-timeout",
        "300",
      ],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...EXAMPLE_ENV, ...process.env } },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    // "close", not "exit": the lines read below are all there only then.
    const code = new Promise<number | null>((resolve) => child.once("close", resolve));
    try {
      let up = false;
      for (let i = 0; i < 200 && !up; i++) {
        up = await call(`http://127.0.0.1:${port}/health`).then(
          (r) => r.status === 200,
          () => new Promise<boolean>((r) => setTimeout(() => r(false), 50)),
        );
      }
      expect(up).toBe(true);
      // A write held up by another connection's lock runs past the write timeout: a warning.
      const locker = new Database(dbFile);
      locker.exec("BEGIN IMMEDIATE");
      const late = await call(`http://127.0.0.1:${port}/api/task_tracker:create_task`, { json: { title: "late" } });
      locker.exec("ROLLBACK");
      locker.close();
      expect(late.status).toBe(503);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await code).toBe(0);
    const lines = out
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.map((l) => l.msg)).toContain("write timeout");
    expect(lines.filter((l) => l.level !== "warn" && l.level !== "error")).toEqual([]);
  });
});
