// One serving process: database (open, migrate, prepare) → HTTP server → listen, and its
// graceful close. Used alone (`--workers 1`, `--db :memory:`, in-process callers) and by
// each cluster worker (cluster/worker.ts).

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { applyPasswordCost } from "../auth/password-cost.js";
import { StartupError } from "../core/errors.js";
import type { Logger } from "../core/log.js";
import { parseListen } from "./options.js";
import { ownStatements, ownTables } from "./own-tables.js";
import { startJobs, type RunningJobs } from "../jobs/index.js";
import { jobsOnlySpec, withJobStatus } from "../jobs/status.js";
import { createServer } from "../core/server.js";
import { withLimitsSchema } from "../limits/index.js";
import { drainAndClose, SHUTDOWN_GRACE_MS } from "./shutdown.js";
import type { Database, ServerOptions, ServerSpec } from "../contract/index.js";
import { observe } from "./observe.js";
import { keepTickShapes } from "../lang/tick-shapes.js";

/** `writeTimeoutMs` bounds a network database's waits and retries: past it the client has its 503 already. */
export type OpenDatabase = (options: OpenDatabaseOptions) => Promise<Database>;
export type OpenDatabaseOptions = Pick<ServerOptions, "backend" | "db"> &
  Partial<Pick<ServerOptions, "writeTimeoutMs">>;

/** What every way of running a server hands back. */
export interface Running {
  /** `host:port` actually bound (the real port when `--listen` asked for port 0). */
  address: string;
  port: number;
  log: Logger;
  /** Graceful stop (docs/service.md §8): in-flight requests finish (up to 30 s), databases closed. Does not exit. */
  close(): Promise<void>;
}

export interface RunningServer extends Running {
  server: Server;
  db: Database;
  /** `--metrics-listen`: the port /metrics answers on there (the real one for port 0). */
  metricsPort?: number;
}

export interface ServeSettings {
  openDatabase?: OpenDatabase;
  /** Where SVC_PASSWORD_COST is read (auth/password-cost.ts); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Replaces SHUTDOWN_GRACE_MS (tests). */
  shutdownGraceMs?: number;
  /** A cluster worker says "listening" at debug: the primary says it once for all. */
  worker?: boolean;
}

/** Opens the database, checks the schema, listens. Throws StartupError when it cannot. */
export async function serve(
  spec: ServerSpec,
  options: ServerOptions,
  log: Logger,
  settings: ServeSettings = {},
): Promise<RunningServer> {
  applyPasswordCost(settings.env ?? process.env, log);
  keepTickShapes();
  const db = await openChecked(spec, options, settings.openDatabase);
  let server: Server;
  let port: number;
  let address: string;
  let jobs: RunningJobs | null = null;
  let metricsPort: number | undefined;
  // Metrics and traces (runtime/observe), each loaded only when asked for.
  const seen = await observe(spec, db, options, settings.env ?? process.env, log);
  try {
    // `--jobs`: beside serving (the default), not here, or alone, with /health the only answer.
    if (options.jobs !== "off") {
      jobs = await startJobs(spec, seen.db, log, { concurrency: options.jobsConcurrency ?? 4, pollMs: 200, spans: seen.later });
    }
    const served = options.jobs === "only" ? jobsOnlySpec(seen.spec) : seen.spec;
    server = createServer(withJobStatus(served, jobs), seen.db, options, log, seen.observer);
    const listen = parseListen(options.listen);
    port = await listenOn(server, listen.host, listen.port, options.listen);
    metricsPort = await seen.listen().catch((err: unknown) => {
      server.close();
      throw err;
    });
    address = `${listen.host.includes(":") ? `[${listen.host}]` : listen.host}:${port}`;
  } catch (err) {
    await jobs?.stop(0).catch(() => undefined);
    await seen.close();
    await db.close().catch(() => undefined);
    throw err;
  }
  const fields = { address, version: spec.version, backend: options.backend, ...(metricsPort !== undefined && { metrics_port: metricsPort }) };
  if (settings.worker === true) log.debug("worker listening", { ...fields, pid: process.pid });
  else log.info("listening", fields);

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> =>
    (closing ??= drainAndClose(server, db, log, settings.shutdownGraceMs ?? SHUTDOWN_GRACE_MS, (graceMs) => jobs?.stop(graceMs)).then(async () => {
      await seen.close();
      if (settings.worker === true) log.info("worker stopped", { pid: process.pid });
      else log.info("stopped");
      log.flush();
    }));
  return { address, port, server, db, log, close, ...(metricsPort !== undefined && { metricsPort }) };
}

/**
 * Opens the database and brings its schema up to the declared tables (a StartupError for a
 * destructive difference), then prepares every statement; closes it again on failure.
 */
export async function openChecked(
  spec: ServerSpec,
  options: OpenDatabaseOptions,
  openDatabase?: OpenDatabase,
): Promise<Database> {
  // Loaded on demand so importing the runtime does not load database drivers a caller
  // that brings its own Database (tests, `svc dev`) never uses.
  const open = openDatabase ?? (await import("../db/index.js")).openDatabase;
  const db = await open({ backend: options.backend, db: options.db, writeTimeoutMs: options.writeTimeoutMs });
  try {
    // svc's own tables beside the app's: rate-limit counters (runtime/limits), and those of the features the spec uses (own-tables.ts).
    const { tables, statements } = withLimitsSchema(spec, options);
    await db.migrate([...tables, ...ownTables(spec)], spec.schema);
    await db.prepare([...statements, ...ownStatements(spec, db.dialect)]);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}

function listenOn(server: Server, host: string, port: number, asGiven: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      const why =
        err.code === "EADDRINUSE" ? "the address is in use" : err.code === "EACCES" ? "permission denied" : err.message;
      reject(new StartupError("SVC_ERR_LISTEN", `cannot listen on ${asGiven}: ${why}`));
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolvePort((server.address() as AddressInfo).port);
    });
  });
}
