import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { Resources } from "./resources.js";
import { stopChild } from "./resources.js";

export const HOST = "127.0.0.1";
const READY_TIMEOUT_MS = 20_000;
const OUTPUT_TAIL_CHARS = 4000;

export interface ServerSpec {
  /** Label in messages and reports: "svc", "bare", "fastify". */
  name: string;
  /** Run as `node <args…>` so the child's pid is the server's own, which /proc needs. */
  args: string[];
  cwd: string;
  /** A GET path that answers 200 once the server can serve requests. */
  readyPath: string;
  /**
   * Runs `<launcher…> <args…>` instead of `node <args…>`; the launcher must end with the node
   * binary and keep the process id (valgrind does: the tool and the program are one process).
   */
  launcher?: string[];
  /** How long start-up may take (default 20 s); a server under valgrind needs far longer. */
  readyTimeoutMs?: number;
  /** Called with the server's standard output as it arrives (the --gc mode reads V8's trace). */
  onStdout?: (text: string) => void;
}

export interface RunningServer {
  name: string;
  pid: number;
  baseUrl: string;
  /** The last few KB of the server's stdout and stderr, for error messages. */
  outputTail(): string;
  stop(): Promise<void>;
}

/** Asks the kernel for a free port on 127.0.0.1; the server binds it a moment later. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() => {
        if (address !== null && typeof address === "object") resolve(address.port);
        else reject(new Error("could not get a free port"));
      });
    });
  });
}

/**
 * Spawns `node …spec.args --listen 127.0.0.1:<port>` (or under spec.launcher) and resolves once `readyPath` answers 200.
 * Rejects (after killing the child) if it exits first or is not ready in time.
 */
export async function startServer(spec: ServerSpec, resources: Resources): Promise<RunningServer> {
  const port = await freePort();
  const [command, ...prefix] = spec.launcher ?? [process.execPath];
  const child = spawn(command, [...prefix, ...spec.args, "--listen", `${HOST}:${port}`], {
    cwd: spec.cwd,
    // The example declares a GitHub webhook; its development secret, as `npm run example` sets it.
    env: { GITHUB_WEBHOOK_SECRET: "dev-secret", ...process.env },
    // stdin stays an open pipe: the baselines exit when it closes, i.e. when the bench dies.
    stdio: ["pipe", "pipe", "pipe"],
  });
  resources.track(child);
  let tail = "";
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const onStdout = spec.onStdout;
  if (onStdout) child.stdout?.on("data", (chunk: Buffer) => onStdout(chunk.toString("utf8")));
  const server: RunningServer = {
    name: spec.name,
    pid: child.pid ?? -1,
    baseUrl: `http://${HOST}:${port}`,
    outputTail: () => tail.trim(),
    stop: () => stopChild(child),
  };
  try {
    await waitReady(child, server.baseUrl + spec.readyPath, spec.readyTimeoutMs ?? READY_TIMEOUT_MS);
  } catch (error) {
    await stopChild(child);
    throw new Error(
      `${spec.name} server did not start: ${(error as Error).message}${tail ? `\n--- its output ---\n${tail.trim()}` : ""}`,
    );
  }
  return server;
}

async function waitReady(child: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`it exited (${child.exitCode ?? child.signalCode}) before answering ${url}`);
    }
    try {
      // A slow starter's first answer is slow too (valgrind translates every code path once).
      const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(2000, timeoutMs / 10)) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      lastProblem = `GET ${url} answered ${response.status}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    await sleep(50);
  }
  throw new Error(`not ready after ${timeoutMs} ms (${lastProblem})`);
}
