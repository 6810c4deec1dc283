// Shared by the dev and deploy tests: running the CLI in-process and a child server process.

import { type ChildProcess, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { Cli, type CommandClass } from "clipanion";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one svc command in this process, capturing what it writes; `stdin` is what it reads. */
export async function runCli(command: CommandClass, argv: string[], stdin = ""): Promise<CliRun> {
  const cli = new Cli({ binaryName: "svc" });
  cli.register(command);
  let stdout = "";
  let stderr = "";
  const sink = (append: (s: string) => void): Writable =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        append(chunk.toString());
        done();
      },
    });
  const code = await cli.run(argv, {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
  });
  return { code, stdout, stderr };
}

export interface Child {
  process: ChildProcess;
  /** Everything the child wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node args…` in `cwd` and waits until its output matches `ready` (returning the
 * match), failing after `timeoutMs` with what it printed.
 */
export function startChild(
  args: string[],
  cwd: string,
  ready: RegExp,
  timeoutMs = 30_000,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: Child; match: RegExpMatchArray }> {
  const proc = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const child: Child = {
    process: proc,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.kill("SIGTERM");
        // A child that ignores SIGTERM must not outlive the test.
        setTimeout(() => proc.kill("SIGKILL"), 10_000).unref();
      }),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void child.stop();
      reject(new Error(`not ready within ${timeoutMs} ms; output:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = out.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    proc.stdout.on("data", onData);
    proc.stderr.on("data", onData);
    // "close", not "exit": only then has all its output been read.
    proc.once("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it was ready; output:\n${out}`));
    });
  });
}
