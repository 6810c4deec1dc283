// Starting a generated server: flags → one serving process (serve.ts), or a primary with
// `--workers N` worker processes (cluster/). A StartupError ends the process
// with its message on stderr and exit code 1; SIGTERM/SIGINT shut down gracefully
// (signals.ts; docs/language.md §7, docs/service.md §8): stop accepting, let in-flight requests finish for
// up to 30 s, stop the workers, close the database, exit 0.

import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startCluster } from "./cluster/index.js";
import { type ErrorCode, StartupError } from "../core/errors.js";
import { createLogger, type Logger, type LogSink } from "../core/log.js";
import { parseServerArgs } from "./options.js";
import { serve, type OpenDatabase, type Running, type RunningServer } from "./serve.js";
import { exitOnSignals } from "./signals.js";
import type { ServerOptions, ServerSpec } from "../contract/index.js";
import { isWorkerProcess, runWorker } from "./cluster/worker.js";

export { SHUTDOWN_GRACE_MS } from "./shutdown.js";
export type { OpenDatabase, Running, RunningServer } from "./serve.js";

export interface MainHooks {
  /** Replaces `openDatabase` from ./db/index.js (tests, `svc dev`). */
  openDatabase?: OpenDatabase;
  env?: Readonly<Record<string, string | undefined>>;
  logSink?: LogSink;
  /** Install SIGTERM/SIGINT handlers that close and exit; default true. */
  handleSignals?: boolean;
  /** Replaces the 30 s shutdown grace period (tests). */
  shutdownGraceMs?: number;
}

/**
 * Runs a generated server as a process: one serving process, or with `--workers` above 1 a
 * cluster primary (which returns once every worker listens). Exits the process on a
 * StartupError or `--help`.
 */
export async function main(
  spec: ServerSpec,
  argv: readonly string[] = process.argv.slice(2),
  hooks: MainHooks = {},
): Promise<Running> {
  try {
    if (isWorkerProcess()) return await runWorker(spec, argv, hooks);
    const options = optionsOrHelp(spec, argv, hooks);
    const log = createLogger(options.logLevel, hooks.logSink);
    const workers = workerCount(options, log);
    if (workers === 1) return await startOne(spec, options, log, hooks);
    return await startCluster(spec, options, workers, log, hooks);
  } catch (err) {
    if (err instanceof StartupError) {
      process.stderr.write(`${spec.name}: ${withCode(err.message, err.code)}\n`);
    } else {
      process.stderr.write(
        `${spec.name}: could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
    }
    process.exit(1);
  }
}

/** The code goes at the end of the message's first line, where a multi-line reason (a statement's SQL) does not bury it. */
function withCode(message: string, code: ErrorCode): string {
  const end = message.indexOf("\n");
  return end === -1 ? `${message} [${code}]` : `${message.slice(0, end)} [${code}]${message.slice(end)}`;
}

/**
 * One server in this process, whatever `--workers` says: `main` without the process exits
 * and without a cluster (tests, `svc dev`). Throws StartupError for a bad flag; for `--help`,
 * prints it and exits 0.
 */
export async function start(spec: ServerSpec, argv: readonly string[], hooks: MainHooks = {}): Promise<RunningServer> {
  const options = optionsOrHelp(spec, argv, hooks);
  return startOne(spec, options, createLogger(options.logLevel, hooks.logSink), hooks);
}

async function startOne(
  spec: ServerSpec,
  options: ServerOptions,
  log: Logger,
  hooks: MainHooks,
): Promise<RunningServer> {
  const running = await serve(spec, options, log, hooks);
  if (hooks.handleSignals !== false) {
    const remove = exitOnSignals(running, log);
    // Closed by its owner rather than by a signal: the handlers must not outlive it.
    const close = running.close;
    running.close = () => close().finally(remove);
  }
  return running;
}

function optionsOrHelp(spec: ServerSpec, argv: readonly string[], hooks: MainHooks): ServerOptions {
  const parsed = parseServerArgs(argv, hooks.env ?? process.env, spec.defaults);
  if ("help" in parsed) {
    process.stdout.write(`Usage: ${spec.name} [flags]\n\n${parsed.help}`);
    process.exit(0);
  }
  return parsed.options;
}

/** An in-memory SQLite database lives in one process: with it, one worker, said in the log. */
function workerCount(options: ServerOptions, log: Logger): number {
  if (options.workers > 1 && options.backend === "sqlite" && isMemoryDb(options.db)) {
    log.info("the database is in memory, private to one process: serving with one worker", {
      workers_asked: options.workers,
    });
    return 1;
  }
  return options.workers;
}

/** As db/index.ts's sqlitePath reads `--db`, without loading the driver. */
function isMemoryDb(db: string): boolean {
  let value = db.trim();
  if (value.toLowerCase().startsWith("sqlite:")) value = value.slice("sqlite:".length).replace(/^\/\//, "");
  return value === ":memory:";
}

/** True when the module at `importMetaUrl` is the script node was started with, so `server.js` runs `main` only then. */
export function isEntry(importMetaUrl: string): boolean {
  const entry = process.argv[1];
  if (entry === undefined || !importMetaUrl.startsWith("file:")) return false;
  const modulePath = realpath(fileURLToPath(importMetaUrl));
  const entryPath = resolve(entry);
  // `node dist/server` names the script without its extension.
  for (const candidate of [entryPath, `${entryPath}.js`, `${entryPath}.mjs`]) {
    if (realpath(candidate) === modulePath) return true;
  }
  return false;
}

function realpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
