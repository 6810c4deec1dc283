// One built version of the project inside `svc dev`: its generated module imported from
// memory, its statements prepared on the dev database, and its request handler made by the
// runtime's own createHandler, so dev serves exactly what a built server would.

import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { OutputFile } from "../generate/index.js";
import { SQL_MODULE } from "../generate/sql-file.js";
import { StartupError } from "../../runtime/core/errors.js";
import type { Logger } from "../../runtime/core/log.js";
import { parseServerArgs } from "../../runtime/start/options.js";
import { ownStatements, ownTables } from "../../runtime/start/own-tables.js";
import { createHandler, type Handler } from "../../runtime/core/server.js";
import type { Database, ServerOptions, ServerSpec } from "../../runtime/contract/index.js";
import { traced, type Tracing } from "../../runtime/traces/index.js";
import { Observer } from "../../runtime/observe/index.js";
import { DEFAULT_CONCURRENCY, POLL_MS, startJobs, type RunningJobs } from "../../runtime/jobs/index.js";

/** The runtime as the generated module imports it: the very modules this process runs. */
export const RUNTIME_URL = new URL("../../runtime/index.js", import.meta.url).href;

export interface Generation {
  id: number;
  spec: ServerSpec;
  /** Made by createHandler: the dev server hands it requests; its route table says what answers in JSON. */
  handler: Handler;
  db: Database;
  /** `db` with a span around each statement: what its requests and its jobs run on. */
  served: Database;
  tracing: Tracing;
  /** Its jobs' runner and schedules (§2.8), as a built server's: stopped when the generation retires. */
  jobs: RunningJobs | null;
  inFlight: number;
  retired: boolean;
  /** Set once retired with requests still in flight: the last one to finish calls it. */
  dispose?: () => void;
}

/**
 * Imports the generated server.js of `files`; each distinct text is a new module (Node caches
 * by URL). A module imported from memory has no folder beside it: its import of the
 * companion sql.js names that module's own `data:` URL instead, and its public/ files are
 * read from the project at `root`, where `public/…` holds the bytes svc build would write
 * beside server.js.
 */
export async function importSpec(files: readonly OutputFile[], root: string): Promise<ServerSpec> {
  const js = files.find((f) => f.path === "server.js");
  if (js === undefined) throw new Error("the build wrote no server.js");
  let text = String(js.contents);
  const sql = files.find((f) => f.path === `${SQL_MODULE}.js`);
  if (sql !== undefined) {
    const specifier = JSON.stringify(`./${SQL_MODULE}.js`);
    if (!text.includes(specifier)) throw new Error(`the generated server.js does not import ${specifier}`);
    text = text.replace(specifier, JSON.stringify(dataUrl(String(sql.contents))));
  }
  const mod = (await import(dataUrl(text))) as { spec?: ServerSpec };
  if (mod.spec === undefined) throw new Error("the generated module exports no spec");
  if (mod.spec.app !== undefined) mod.spec.app.publicRoot = pathToFileURL(join(root, sep)).href;
  return mod.spec;
}

function dataUrl(js: string): string {
  return `data:text/javascript;base64,${Buffer.from(js).toString("base64")}`;
}

/** The server options for `spec`: svc.toml's [server] defaults, with dev's in-memory database and one process. */
export function devOptions(spec: ServerSpec, logLevel: string | undefined): ServerOptions {
  // The API description and reference page are always served in development (docs/openapi.md).
  const argv = ["--listen", "127.0.0.1:0", "--db", ":memory:", "--backend", "sqlite", "--workers", "1", "--openapi"];
  if (logLevel !== undefined) argv.push("--log-level", logLevel);
  const parsed = parseServerArgs(argv, {}, spec.defaults);
  if ("help" in parsed) throw new Error("unreachable: --help was not asked for");
  return parsed.options;
}

export interface Migrated {
  db: Database;
  /** Why the data was reset, when the schema change could not keep it. */
  reset: string | null;
}

/**
 * Brings `db` to the spec's tables. An additive change (new tables, new nullable or
 * defaulted columns) keeps the data; a destructive one is refused by migrate and the dev
 * server starts over on a fresh in-memory database from `open`.
 */
export async function migrateOrReset(
  spec: ServerSpec,
  db: Database | null,
  open: () => Promise<Database>,
): Promise<Migrated> {
  if (db !== null) {
    try {
      await db.migrate([...spec.tables, ...ownTables(spec)], spec.schema);
      await db.prepare([...spec.statements, ...ownStatements(spec, db.dialect)]);
      return { db, reset: null };
    } catch (err) {
      if (!(err instanceof StartupError)) throw err;
      return { db: await fresh(spec, open), reset: err.message };
    }
  }
  return { db: await fresh(spec, open), reset: null };
}

async function fresh(spec: ServerSpec, open: () => Promise<Database>): Promise<Database> {
  const db = await open();
  try {
    await db.migrate([...spec.tables, ...ownTables(spec)], spec.schema);
    await db.prepare([...spec.statements, ...ownStatements(spec, db.dialect)]);
    return db;
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
}

/**
 * The handler for `spec` on `db`. Its shutdown checks ask whether the dev server, which
 * really listens, still takes requests. Throws StartupError (e.g. a missing credential).
 */
export function makeGeneration(
  id: number,
  spec: ServerSpec,
  db: Database,
  options: ServerOptions,
  log: Logger,
  listening: () => boolean,
  tracing: Tracing,
): Generation {
  // Every request is traced, for the trace view (compiler/dev/traces.ts); `db` stays the plain one, which migrations use.
  const served = traced(spec, db, tracing);
  const handler = createHandler(served.spec, served.db, options, log, { accepting: listening, observer: new Observer(null, tracing) });
  return {
    id,
    spec,
    handler,
    db,
    served: served.db,
    tracing,
    jobs: null,
    inFlight: 0,
    retired: false,
  };
}

/**
 * Starts the runner and the scheduler of `gen`'s jobs on its database. The one before it has
 * stopped its own by then (stopJobs); a job it returned runs here, under its lease rules.
 */
export async function startGenerationJobs(gen: Generation, options: ServerOptions, log: Logger): Promise<void> {
  if (options.jobs === "off") return;
  // Runs traced as a built server's are, so the trace view shows them beside the requests.
  gen.jobs = await startJobs(gen.spec, gen.served, log, { concurrency: options.jobsConcurrency ?? DEFAULT_CONCURRENCY, pollMs: POLL_MS, spans: gen.tracing });
}

/** Stops `gen`'s jobs: no more claims or ticks; a job still running is returned to the queue at its next statement. */
export async function stopJobs(gen: Generation): Promise<void> {
  const jobs = gen.jobs;
  gen.jobs = null;
  // Dev has no grace period: the next generation runs the job again from its start.
  await jobs?.stop(0);
}
