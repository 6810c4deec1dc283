// The worker side of `--workers N` (cluster.ts is the primary's). A worker is the same
// script run again by node:cluster, with WORKER_ENV set; it parses the same flags, opens its
// own database connection (SQLite: its own handle on the file, WAL and busy waits as in
// db/sqlite.ts), and listens on the port the primary shares out.
//
// It stops gracefully when the primary says so over IPC, or on its own SIGTERM/SIGINT (a
// Ctrl-C in a terminal reaches every process of the group). It never prints a start-up
// error itself: it sends it to the primary, which prints it once for all workers.

import cluster from "node:cluster";
import { type ErrorCode, StartupError } from "../../core/errors.js";
import { createLogger } from "../../core/log.js";
import { parseServerArgs } from "../options.js";
import { serve, type OpenDatabase, type Running } from "../serve.js";
import { exitOnSignals } from "../signals.js";
import type { ServerSpec } from "../../contract/index.js";

export const WORKER_ENV = "SVC_CLUSTER_WORKER";

/** primary → worker */
export interface ShutdownMessage {
  svc: "shutdown";
}

/** worker → primary */
export interface FailedMessage {
  svc: "failed";
  message: string;
  code: ErrorCode;
}

export function isWorkerProcess(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] === "1";
}

export interface WorkerHooks {
  openDatabase?: OpenDatabase;
  shutdownGraceMs?: number;
}

/** Serves as one worker; on a start-up failure tells the primary and exits 1. */
export async function runWorker(spec: ServerSpec, argv: readonly string[], hooks: WorkerHooks): Promise<Running> {
  let running: Running | null = null;
  let stopRequested = false;
  const stop = (): void => {
    stopRequested = true;
    if (running !== null) void running.close().then(() => process.exit(0));
  };
  process.on("message", (message: Partial<ShutdownMessage>) => {
    if (message?.svc !== "shutdown") return;
    running?.log.debug("worker shutting down", { pid: process.pid });
    stop();
  });
  try {
    const parsed = parseServerArgs(argv, process.env, spec.defaults);
    if ("help" in parsed) throw new StartupError("SVC_ERR_OPTION", "a worker was started with --help");
    const log = createLogger(parsed.options.logLevel);
    running = await serve(spec, parsed.options, log, {
      openDatabase: hooks.openDatabase,
      shutdownGraceMs: hooks.shutdownGraceMs,
      worker: true,
    });
    const current = running;
    exitOnSignals({ close: () => current.close() }, log, false);
    if (stopRequested) stop();
    return running;
  } catch (err) {
    const message =
      err instanceof StartupError
        ? err.message
        : `could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    const failed: FailedMessage = { svc: "failed", message, code: err instanceof StartupError ? err.code : "SVC_ERR_WORKER_START" };
    await new Promise<void>((sent) => process.send?.(failed, undefined, {}, () => sent()) ?? sent());
    process.exit(1);
  }
}
