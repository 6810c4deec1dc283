// Starting and stopping a generated server: flags → database (open, migrate, prepare)
// → listen. A StartupError ends the process with its message on stderr and exit code 1;
// SIGTERM/SIGINT shut down gracefully (LANGUAGE §7, SERVICE §8): stop accepting, let
// in-flight requests finish for up to 30 s, close the database, exit 0.

import { realpathSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { StartupError } from "./errors.js";
import { createLogger, type Logger, type LogSink } from "./log.js";
import { parseListen, parseServerArgs } from "./options.js";
import { createServer } from "./server.js";
import type { Database, ServerOptions, ServerSpec } from "./types.js";

export const SHUTDOWN_GRACE_MS = 30_000;

export type OpenDatabase = (options: Pick<ServerOptions, "backend" | "db">) => Promise<Database>;

export interface RunningServer {
  /** `host:port` actually bound (the real port when `--listen` asked for port 0). */
  address: string;
  port: number;
  server: Server;
  db: Database;
  log: Logger;
  /** Graceful stop: no new connections, in-flight requests finish (up to 30 s), database closed. Does not exit. */
  close(): Promise<void>;
}

export interface MainHooks {
  /** Replaces `openDatabase` from ./db/open.js (tests, `svc dev`). */
  openDatabase?: OpenDatabase;
  env?: Readonly<Record<string, string | undefined>>;
  logSink?: LogSink;
  /** Install SIGTERM/SIGINT handlers that close and exit; default true. */
  handleSignals?: boolean;
}

/** Runs a generated server. Exits the process on a StartupError or `--help`. */
export async function main(
  spec: ServerSpec,
  argv: readonly string[] = process.argv.slice(2),
  hooks: MainHooks = {},
): Promise<RunningServer> {
  try {
    return await start(spec, argv, hooks);
  } catch (err) {
    if (err instanceof StartupError) {
      process.stderr.write(`${spec.name}: ${err.message}\n`);
    } else {
      process.stderr.write(
        `${spec.name}: could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
    }
    process.exit(1);
  }
}

/** `main` without the process exits: throws StartupError for a bad flag; for `--help`, prints it and exits 0. */
export async function start(spec: ServerSpec, argv: readonly string[], hooks: MainHooks = {}): Promise<RunningServer> {
  const parsed = parseServerArgs(argv, hooks.env ?? process.env, spec.defaults);
  if ("help" in parsed) {
    process.stdout.write(`Usage: ${spec.name} [flags]\n\n${parsed.help}`);
    process.exit(0);
  }
  const options = parsed.options;
  const log = createLogger(options.logLevel, hooks.logSink);
  // Loaded on demand so importing the runtime does not load database drivers a caller
  // that brings its own Database (tests, `svc dev`) never uses.
  const open = hooks.openDatabase ?? (await import("./db/open.js")).openDatabase;
  const db = await open({ backend: options.backend, db: options.db });
  let server: Server;
  let port: number;
  let address: string;
  try {
    await db.migrate(spec.tables);
    db.prepare(spec.statements);
    server = createServer(spec, db, options, log);
    const listen = parseListen(options.listen);
    port = await listenOn(server, listen.host, listen.port, options.listen);
    address = `${listen.host.includes(":") ? `[${listen.host}]` : listen.host}:${port}`;
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  log.info("listening", { address, version: spec.version, backend: options.backend });

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => (closing ??= shutdown(server, db, log, removeSignals));
  const onSignal = (signal: NodeJS.Signals): void => {
    log.info("shutting down", { signal });
    void close().then(() => process.exit(0));
  };
  const removeSignals = (): void => {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  };
  if (hooks.handleSignals !== false) {
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  }
  return { address, port, server, db, log, close };
}

function listenOn(server: Server, host: string, port: number, asGiven: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      const why =
        err.code === "EADDRINUSE" ? "the address is in use" : err.code === "EACCES" ? "permission denied" : err.message;
      reject(new StartupError(`cannot listen on ${asGiven}: ${why}`));
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolvePort((server.address() as AddressInfo).port);
    });
  });
}

async function shutdown(server: Server, db: Database, log: Logger, removeSignals: () => void): Promise<void> {
  removeSignals();
  // close() stops accepting and drops idle keep-alive connections; busy ones are
  // answered with `Connection: close` (server.ts) and end after their response.
  const drained = new Promise<void>((done) => server.close(() => done()));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((done) => {
    timer = setTimeout(done, SHUTDOWN_GRACE_MS, "late");
  });
  if ((await Promise.race([drained, late])) === "late") {
    log.warn("in-flight requests did not finish in time; closing their connections", { grace_ms: SHUTDOWN_GRACE_MS });
    server.closeAllConnections();
    await drained;
  }
  clearTimeout(timer);
  try {
    await db.close();
  } catch (err) {
    log.error("closing the database failed", { error: err instanceof Error ? err.message : String(err) });
  }
  log.info("stopped");
  log.flush();
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
