import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DiscoverTarget } from "../../compiler/project/discover.js";
import { buildFiles, serverBuild, writeFiles } from "./build-cache.js";
import { repoRoot } from "./paths.js";

/**
 * Build a project into a fresh folder under build/tmp (inside the repository, so the
 * generated `import "svc/runtime"` resolves to this checkout) and return that folder.
 */
export async function buildTo(target: DiscoverTarget): Promise<string> {
  const files = await buildFiles(target, serverBuild("svc/runtime"));
  const dir = tmpDir("srv-");
  writeFiles(dir, files);
  return dir;
}

/** A fresh folder under build/tmp: inside the repository, where `svc/runtime` resolves. */
export function tmpDir(prefix: string): string {
  const base = join(repoRoot, "build", "tmp");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, prefix));
}

export interface TestServer {
  url: string;
  port: number;
  /** Every line the server printed on stdout and stderr. */
  output: string[];
  process: ChildProcess;
  stop(): Promise<number | null>;
}

/**
 * The task tracker example's development credential (examples/task_tracker/svc.toml, README
 * "Webhooks"): a server built from the example does not start without it.
 */
export const EXAMPLE_ENV: NodeJS.ProcessEnv = { GITHUB_WEBHOOK_SECRET: "dev-secret" };

/**
 * For a server whose suite is not about what a password hash costs (sessions, revocation,
 * keys, many sign-ups): new hashes at N = 2^10, a few milliseconds each instead of a second
 * of a core (docs/auth.md, "Password cost in tests"). The throttle on SQLite, the hashing
 * and upgrade tests keep the full cost.
 */
export const CHEAP_PASSWORDS: NodeJS.ProcessEnv = { SVC_PASSWORD_COST: "10" };

/**
 * Test servers run one process unless a test asks for workers: forking a worker per core
 * for every suite would only load this 2-core machine.
 */
function oneWorkerUnlessSaid(args: string[]): string[] {
  return args.includes("--workers") ? args : [...args, "--workers", "1"];
}

/** Start `node <dir>/server.js` on an ephemeral 127.0.0.1 port and wait for its `listening` log line. */
export function startServer(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  const child = spawn(process.execPath, [join(dir, "server.js"), "--listen", "127.0.0.1:0", ...oneWorkerUnlessSaid(args)], {
    cwd: dir,
    env: { ...EXAMPLE_ENV, ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${output.join("\n")}`));
    }, 15_000);
    let buffered = "";
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        output.push(line);
        const m = /"msg":"listening".*?"address":"([^"]+)"/.exec(line);
        if (m) {
          clearTimeout(timer);
          const port = Number(m[1].slice(m[1].lastIndexOf(":") + 1));
          resolve({ url: `http://127.0.0.1:${port}`, port, output, process: child, stop });
        }
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c: Buffer) => output.push(...c.toString("utf8").split("\n").filter(Boolean)));
    // "close", not "exit": only then has everything the server wrote been read; the start
    // timer still bounds the wait should a child it left hold its output open.
    child.once("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output.join("\n")}`));
    });
  });
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Waits until the server has printed a line matching `pattern`: the logger writes once
 * per event-loop tick, so a line can arrive just after the response it belongs to.
 */
export async function waitForOutput(server: TestServer, pattern: RegExp, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = server.output.join("\n");
    if (pattern.test(text) || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
