// issue 37: the openapi.json svc writes, held against two tools users of OpenAPI run every
// day. Redocly CLI's linter, with its built-in recommended rules, finds no error in any
// example's description; Stoplight Prism, as a validating proxy (`--errors`: a request or
// an answer that does not match the description is refused instead of passed on), stands
// between RealWorld's official Postman collection and examples/conduit, and every assertion
// still passes, as it does with nothing in between (newman.test.ts).

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";
import { buildTo, removeDir, startServer, type TestServer } from "../support/server.js";
import { type Conduit, runCollection, startConduit } from "./support.js";

const require = createRequire(import.meta.url);
/** A tool's command-line entry, found through its package.json (both are dev dependencies). */
function binOf(pkg: string, name: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const bin = (require(manifest) as { bin: Record<string, string> }).bin[name];
  return join(manifest, "..", bin);
}

// Neither tool may phone home or print update notices here: the network is this machine's.
const QUIET: NodeJS.ProcessEnv = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer: string }[];
}

/** `redocly lint --format=json` over one file, in a folder with no redocly.yaml: the recommended rules. */
function redoclyLint(file: string, cwd: string): Promise<{ errors: number; problems: LintProblem[] }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [binOf("@redocly/cli", "redocly"), "lint", file, "--format=json"], { cwd, env: QUIET, maxBuffer: 64 << 20 }, (err, stdout) => {
      // Exit 1 means problems were found; the JSON still says which.
      const start = stdout.indexOf("{");
      if (start === -1) return reject(err ?? new Error(`redocly printed no report: ${stdout}`));
      const report = JSON.parse(stdout.slice(start)) as { totals: { errors: number }; problems: LintProblem[] };
      resolve({ errors: report.totals.errors, problems: report.problems });
    });
  });
}

describe("Redocly's recommended rules", () => {
  for (const example of ["task_tracker", "accounts", "conduit"]) {
    test(`examples/${example}'s openapi.json has no error`, async () => {
      const dir = await buildTo({ mode: "project", dir: join(repoRoot, "examples", example) });
      try {
        const { errors, problems } = await redoclyLint(join(dir, "openapi.json"), dir);
        const found = problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
        expect(found).toEqual([]);
        expect(errors).toBe(0);
      } finally {
        removeDir(dir);
      }
    });
  }
});

/** A port free on 127.0.0.1 just now: Prism takes a port number, not 0. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Prism {
  url: string;
  output: string[];
  stop(): Promise<void>;
}

/** `prism proxy <description> <upstream> --errors` on 127.0.0.1, once it says it listens. */
async function startPrism(description: string, upstream: string): Promise<Prism> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [binOf("@stoplight/prism-cli", "prism"), "proxy", description, upstream, "--errors", "--host", "127.0.0.1", "--port", String(port)],
    { env: QUIET, stdio: ["ignore", "pipe", "pipe"] },
  );
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`prism did not start:\n${output.join("\n")}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      if (output.some((line) => line.includes("Prism is listening"))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`prism exited before listening:\n${output.join("\n")}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, output, stop };
}

describe("Prism's validating proxy in front of examples/conduit", () => {
  let conduit: Conduit;
  let prism: Prism;

  beforeAll(async () => {
    conduit = await startConduit();
    prism = await startPrism(join(conduit.dir, "openapi.json"), conduit.server.url);
  });

  afterAll(async () => {
    await prism?.stop();
    expect(await conduit?.stop()).toBe(0);
  });

  test("the official collection passes every assertion through it, and it reports no violation", async () => {
    const run = await runCollection(`${prism.url}/api`);
    if (run.failures.length > 0) console.error(`newman failures through prism:\n${run.failures.join("\n")}`);
    expect(run.failures).toEqual([]);
    expect(run.requests).toEqual({ total: 32, failed: 0 });
    expect(run.assertions).toEqual({ total: 311, failed: 0 });
    // Every request went through the proxy, and it found nothing to say against any.
    expect(prism.output.filter((line) => line.includes("Forwarding")).length).toBeGreaterThanOrEqual(32);
    expect(prism.output.filter((line) => /violation|✖/i.test(line))).toEqual([]);
  });
});

describe("Prism's validating proxy in front of examples/task_tracker", () => {
  let dir: string;
  let server: TestServer;
  let prism: Prism;

  beforeAll(async () => {
    dir = await buildTo({ mode: "project", dir: join(repoRoot, "examples", "task_tracker") });
    server = await startServer(dir, ["--db", join(dir, "tasks.db")]);
    prism = await startPrism(join(dir, "openapi.json"), server.url);
  });

  afterAll(async () => {
    await prism?.stop();
    expect(await server?.stop()).toBe(0);
    removeDir(dir);
  });

  /** One call through the proxy: its status and envelope. */
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(`${prism.url}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  }

  test("endpoints, routes and route-file blocks, answers and errors, all as described", async () => {
    const created = await call("POST", "/api/task_tracker:create_task", { title: "Write the docs", priority: "high" });
    expect(created.status).toBe(200);
    const id = created.json.data.id as string;
    expect((await call("GET", "/api/task_tracker:list_tasks?limit=10")).json.data[0].id).toBe(id);
    expect((await call("GET", `/api/task_tracker:get_task?id=${id}`)).status).toBe(200);
    expect((await call("POST", "/api/task_tracker:start_task", { id, assignee: "ada" })).json.data.status).toBe("in_progress");
    expect((await call("GET", `/v1/tasks/${id}`)).status).toBe(200);
    expect((await call("GET", "/api/task_tracker")).json.data.records).toHaveLength(1);
    expect((await call("GET", `/api/task_tracker/${id}`)).json.data.result.id).toBe(id);
    expect((await call("POST", `/api/task_tracker/${id}?handler=complete_task`, {})).json.data.result.status).toBe("done");
    expect((await call("POST", "/api/task_tracker", { title: "another" })).status).toBe(200);
    // Errors are described too: a fail of the action, and a missing task.
    expect((await call("POST", `/v1/tasks/${id}/complete`, {})).status).toBe(400);
    expect((await call("GET", "/api/task_tracker:get_task?id=nope")).json).toEqual({ ok: true, data: null });
    expect((await call("DELETE", `/v1/tasks/${id}`)).status).toBe(200);
    expect(prism.output.filter((line) => line.includes("Forwarding")).length).toBeGreaterThanOrEqual(12);
    expect(prism.output.filter((line) => /violation|✖/i.test(line))).toEqual([]);
  });
});
