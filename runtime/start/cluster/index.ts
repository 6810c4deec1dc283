// `--workers N` with node:cluster: the primary starts N workers (worker.ts) that share the
// listening port (each accepts from the one socket itself: see the scheduling policy
// below), replaces a worker that dies, and stops them all on shutdown.
//
// The primary opens the database once before forking, migrates it and prepares every
// statement, then closes it: a schema that cannot be migrated or a statement that does not
// prepare stops the start with one message, before any worker exists. Each worker then opens
// its own connection and runs the same migration, which finds nothing left to do (it runs
// under the database's write lock, so workers starting together cannot race; see
// db/sqlite/migrate.ts). The primary holds no connection while serving.

import cluster, { type Worker } from "node:cluster";
import { codeOf, type ErrorCode, StartupError } from "../../core/errors.js";
import type { Logger } from "../../core/log.js";
import { parseListen } from "../options.js";
import { openChecked, type OpenDatabase, type Running } from "../serve.js";
import { SHUTDOWN_GRACE_MS } from "../shutdown.js";
import { exitOnSignals } from "../signals.js";
import type { ServerOptions, ServerSpec } from "../../contract/index.js";
import { WORKER_ENV, type FailedMessage, type ShutdownMessage } from "./worker.js";

/** After this many replacements in a row that fail to start, the primary gives up and exits 1. */
export const MAX_FAILED_STARTS = 5;
/** Extra time the primary gives workers beyond their own grace period before killing them. */
const KILL_MARGIN_MS = 5000;
/** A worker that ran this long counts as healthy: its replacement starts without delay. */
const HEALTHY_AFTER_MS = 10_000;
const MAX_RESTART_DELAY_MS = 5000;
const SHUTDOWN: ShutdownMessage = { svc: "shutdown" };

export interface ClusterHooks {
  openDatabase?: OpenDatabase;
  shutdownGraceMs?: number;
  /** Install SIGTERM/SIGINT handlers (before the first fork, so a signal during start-up stops cleanly); default true. */
  handleSignals?: boolean;
}

export interface RunningCluster extends Running {
  /** Kills every worker at once (the second signal). */
  abort(): void;
}

interface Slot {
  worker: Worker;
  startedAt: number;
  ready: boolean;
  failure?: { message: string; code: ErrorCode };
}

/** Starts `count` workers and resolves once all listen; throws StartupError if one cannot start. */
export async function startCluster(
  spec: ServerSpec,
  options: ServerOptions,
  count: number,
  log: Logger,
  hooks: ClusterHooks = {},
): Promise<RunningCluster> {
  const db = await openChecked(spec, options, hooks.openDatabase);
  await db.close();
  // `--metrics`: one scrape answers for every worker, the primary passing their metrics on (metrics/cluster.ts).
  const gatherer = options.metrics === true ? new (await import("../../metrics/cluster.js")).MetricsGatherer() : null;

  // Workers accept from the one listening socket themselves (SCHED_NONE), instead of the
  // primary accepting and passing each connection on (round-robin, Node's default on Linux).
  // A connection in flight from the primary to a worker that dies is lost by Node: the
  // primary keeps its copy open, unread and unanswered, for good (no timeout applies to
  // it). Here a connection is only ever in the kernel's accept queue, which the surviving
  // workers keep draining, or in one worker, whose death closes it. Set before the first fork,
  // when Node reads it.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const slots = new Map<number, Slot>();
  const graceMs = hooks.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
  const listen = parseListen(options.listen);
  let port = -1;
  let stopping = false;
  let failedStarts = 0;
  let restartDelay = 0;
  const timers = new Set<NodeJS.Timeout>();
  let onAllExited: (() => void) | null = null;
  let startup: { ready: () => void; fail: (message: string, code: ErrorCode) => void } | null = null;

  const fork = (): void => {
    const worker = cluster.fork({ [WORKER_ENV]: "1" });
    const slot: Slot = { worker, startedAt: Date.now(), ready: false };
    slots.set(worker.id, slot);
    worker.on("message", (message: Partial<FailedMessage>) => {
      if (message?.svc === "failed" && typeof message.message === "string") slot.failure = { message: message.message, code: codeOf(message) };
      else gatherer?.onMessage(worker, message as object);
    });
    worker.on("listening", (address: { port: number }) => {
      slot.ready = true;
      // Stopping began while it started: it listens for the message only now.
      if (stopping) return void worker.send(SHUTDOWN);
      port = address.port;
      failedStarts = 0;
      log.info("worker started", { worker: worker.id, pid: worker.process.pid });
      if (startup !== null && [...slots.values()].every((s) => s.ready)) startup.ready();
    });
    worker.on("exit", (code: number | null, signal: string | null) => onExit(slot, code, signal));
  };

  const onExit = (slot: Slot, code: number | null, signal: string | null): void => {
    slots.delete(slot.worker.id);
    gatherer?.onExit(slot.worker);
    if (stopping) {
      if (code !== 0) log.warn("worker stopped uncleanly", { worker: slot.worker.id, code, signal });
      if (slots.size === 0) onAllExited?.();
      return;
    }
    if (!slot.ready) {
      const why = slot.failure ?? { message: `worker exited (${signal ?? `code ${code}`}) before it was ready`, code: "SVC_ERR_WORKER_START" };
      if (startup !== null) return startup.fail(why.message, why.code);
      failedStarts++;
      log.error("a replacement worker could not start", { worker: slot.worker.id, code: why.code, error: why.message, attempt: failedStarts });
      if (failedStarts >= MAX_FAILED_STARTS) {
        log.error("workers keep failing to start; stopping", { attempts: failedStarts });
        void close().then(() => process.exit(1));
        return;
      }
    } else {
      log.error("worker died; starting a replacement", {
        worker: slot.worker.id,
        pid: slot.worker.process.pid,
        code,
        signal,
      });
    }
    // Back off while workers die young, so a crash loop does not spin the CPU.
    const lived = Date.now() - slot.startedAt;
    restartDelay = lived >= HEALTHY_AFTER_MS ? 0 : Math.min(MAX_RESTART_DELAY_MS, Math.max(100, restartDelay * 2));
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopping) fork();
    }, restartDelay);
    timers.add(timer);
  };

  const abort = (): void => {
    for (const { worker } of slots.values()) worker.process.kill("SIGKILL");
  };

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((done) => {
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      const finish = (): void => {
        clearTimeout(killTimer);
        gatherer?.close();
        log.info("stopped");
        log.flush();
        done();
      };
      // Each worker drains for up to the grace period itself; this only catches a stuck one.
      const killTimer = setTimeout(() => {
        log.warn("workers did not stop in time; killing them", { workers: slots.size });
        abort();
      }, graceMs + KILL_MARGIN_MS);
      onAllExited = finish;
      if (slots.size === 0) return finish();
      // A worker not yet listening gets the message when it is (see fork).
      for (const { worker, ready } of slots.values()) {
        if (!ready) continue;
        if (worker.isConnected()) worker.send(SHUTDOWN);
        else worker.process.kill("SIGTERM");
      }
    }));

  const removeSignals = hooks.handleSignals === false ? () => undefined : exitOnSignals({ close, abort }, log);
  await new Promise<void>((ready, fail) => {
    startup = {
      ready,
      fail: (message, code) => {
        stopping = true;
        abort();
        removeSignals();
        fail(new StartupError(code, message));
      },
    };
    for (let i = 0; i < count; i++) fork();
  });
  startup = null;

  const address = `${listen.host.includes(":") ? `[${listen.host}]` : listen.host}:${port}`;
  log.info("listening", { address, version: spec.version, backend: options.backend, workers: count });
  return { address, port, log, close, abort };
}
