// Server flags (docs/language.md §7, docs/service.md §8). Precedence: a flag wins over the environment
// (`SVC_LISTEN`, for the listen address only), which wins over the defaults baked in from
// svc.toml, which win over the built-in defaults below. A bad value from any source is a
// StartupError naming where it came from (the flag, the variable or the svc.toml key).
//
// Built-in defaults: listen on 127.0.0.1:8080 (loopback, so a server started by hand is
// not exposed; pass --listen 0.0.0.0:PORT to serve other hosts), sqlite in `svc.db`,
// 1 MiB bodies, info logs, 30 s read and write timeouts, no CORS, one worker per core
// this process may run on. An empty host (`:8080`) also means 127.0.0.1.

import { availableParallelism } from "node:os";
import { StartupError } from "../core/errors.js";
import {
  checkBackend, checkBool, checkLevel, checkListen, checkOrigin, checkPublicUrl, checkSize, checkSwitch, checkTimeout,
  checkWorkers, parseBool, parseListen, parseSize, parseSwitch, parseWhole,
} from "./option-values.js";
import type { ServerOptions } from "../contract/index.js";
import { DEFAULT_CONCURRENCY } from "../jobs/index.js";
import { checkServerHeader } from "../core/answer/index.js";

export { MAX_TIMEOUT_MS, MAX_WORKERS, parseListen, type ListenAddress } from "./option-values.js";

export const BUILTIN_DEFAULTS: Readonly<ServerOptions> = {
  listen: "127.0.0.1:8080",
  backend: "sqlite",
  db: "svc.db",
  corsOrigin: null,
  readTimeoutMs: 30_000,
  writeTimeoutMs: 30_000,
  maxBodySize: 1_048_576,
  // availableParallelism honours the CPU affinity mask (taskset, cgroup cpusets), unlike cpus().length.
  workers: availableParallelism(),
  logLevel: "info",
  publicUrl: null,
  trustProxy: false,
  openapi: false,
  serverHeader: null,
  jobs: "on",
  jobsConcurrency: DEFAULT_CONCURRENCY,
  metrics: false,
  metricsListen: null,
  metricsToken: null,
};

type Key = keyof ServerOptions;

interface FlagInfo {
  key: Key;
  value: string;
  help: string;
  /** How svc.toml names the default, for messages about a bad default. */
  toml: string;
  /** A switch: the flag alone means true; `--flag=false` turns it off. */
  switch?: true;
}

const FLAGS: Record<string, FlagInfo> = {
  "--listen": {
    key: "listen",
    value: "<addr:port>",
    help: "address and port to listen on (env SVC_LISTEN; port 0 picks a free one)",
    toml: "[server] listen",
  },
  "--backend": {
    key: "backend",
    value: "<sqlite|postgres|mysql|tidb>",
    help: "database backend; inferred from a postgres://, mysql:// or sqlite: --db URL",
    toml: "[database] backend",
  },
  "--db": {
    key: "db",
    value: "<connection>",
    help: "SQLite file, :memory:, or a postgres:// / mysql:// URL",
    toml: "[database] url",
  },
  "--cors-origin": {
    key: "corsOrigin",
    value: "<origin>",
    help: "the one browser origin (https://app.example.com) allowed to call the API, or * for any, without credentials",
    toml: "[server] cors_origin",
  },
  "--read-timeout": {
    key: "readTimeoutMs",
    value: "<ms>",
    help: "longest time to receive a request's headers and body; slower clients get 408",
    toml: "[server] read_timeout_ms",
  },
  "--write-timeout": {
    key: "writeTimeoutMs",
    value: "<ms>",
    help: "longest time from a request's headers to the end of its response; past it 503, or the connection is cut",
    toml: "[server] write_timeout_ms",
  },
  "--max-body-size": {
    key: "maxBodySize",
    value: "<bytes>",
    help: "largest request body accepted; larger ones get 413",
    toml: "[server] max_body_size",
  },
  "--workers": {
    key: "workers",
    value: "<n>",
    help: "worker processes sharing the port; 1 serves from this process (always 1 with --db :memory:)",
    toml: "[server] workers",
  },
  "--public-url": {
    key: "publicUrl",
    value: "<url>",
    help: "the external base URL (https://api.example.com) that input.base_url answers, e.g. in Location headers",
    toml: "[server] public_url",
  },
  "--trust-proxy": {
    key: "trustProxy",
    value: "<true|false>",
    help: "believe X-Forwarded-Proto and X-Forwarded-Host (only behind a proxy that sets them)",
    toml: "[server] trust_proxy",
  },
  "--server-header": {
    key: "serverHeader",
    value: "<name>",
    help: "the Server header every answer carries (e.g. svc); empty for none",
    toml: "[server] header",
  },
  "--log-level": {
    key: "logLevel",
    value: "<error|warn|info|debug|trace>",
    help: "least severe level written to the log",
    toml: "[server] log_level",
  },
  "--jobs": {
    key: "jobs",
    value: "<on|off|only>",
    help: "run declared jobs and schedules beside serving (on), not in this process (off), or only them, serving /health alone (only)",
    toml: "[server] jobs",
  },
  "--jobs-concurrency": {
    key: "jobsConcurrency",
    value: "<n>",
    help: "jobs this process runs at once (1-256)",
    toml: "[server] jobs_concurrency",
  },
  "--openapi": {
    key: "openapi",
    value: "(alone, or =false)",
    help: "serve /openapi.json and the API reference page at /_svc/docs (svc dev always does)",
    toml: "[server] openapi",
    switch: true,
  },
  "--metrics": {
    key: "metrics",
    value: "(alone, or =false)",
    help: "serve Prometheus metrics at GET /metrics (env SVC_METRICS; docs/operations.md)",
    toml: "[server] metrics",
    switch: true,
  },
  "--metrics-listen": {
    key: "metricsListen",
    value: "<addr:port>",
    help: "serve /metrics on this address instead of the server's own",
    toml: "[server] metrics_listen",
  },
};

export type ParsedArgs = { help: string } | { options: ServerOptions };


interface Given {
  value: string;
  source: string;
}

/** Reads the server flags; `--help` (or `-h`) yields the help text instead of options. */
export function parseServerArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  defaults: Partial<ServerOptions>,
): ParsedArgs {
  const given = new Map<Key, Given>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") return { help: helpText(defaults, env) };
    if (!arg.startsWith("--")) throw new StartupError("SVC_ERR_OPTION", `unexpected argument "${arg}"; server flags start with --`);
    const eq = arg.indexOf("=");
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const info = FLAGS[flag];
    if (info === undefined) throw new StartupError("SVC_ERR_OPTION", `unknown flag "${flag}"; run with --help to list the flags`);
    let value: string;
    if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else if (info.switch) {
      value = "true";
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) throw new StartupError("SVC_ERR_OPTION", `${flag} needs a value ${info.value}`);
      value = next;
      i++;
    }
    if (given.has(info.key)) throw new StartupError("SVC_ERR_OPTION", `${flag} is given more than once`);
    given.set(info.key, { value, source: flag });
  }
  return { options: resolve(given, env, defaults) };
}

function resolve(
  given: Map<Key, Given>,
  env: Readonly<Record<string, string | undefined>>,
  defaults: Partial<ServerOptions>,
): ServerOptions {
  const listenFlag = given.get("listen");
  const envListen = env.SVC_LISTEN;
  const listen =
    listenFlag !== undefined
      ? checkListen(listenFlag.value, listenFlag.source)
      : envListen !== undefined && envListen !== ""
        ? checkListen(envListen, "SVC_LISTEN")
        : defaults.listen !== undefined
          ? checkListen(defaults.listen, tomlName("listen"))
          : BUILTIN_DEFAULTS.listen;

  const dbFlag = given.get("db");
  const db = dbFlag?.value ?? stringDefault(defaults.db, "db") ?? BUILTIN_DEFAULTS.db;
  const dbSource =
    dbFlag?.source ?? (defaults.db !== undefined ? tomlName("db") : `the default --db ${BUILTIN_DEFAULTS.db}`);
  if (db === "") throw new StartupError("SVC_ERR_OPTION", `${dbSource} is empty`);

  const backend = resolveBackend(given.get("backend"), defaults.backend, db, dbSource);

  return {
    listen,
    backend,
    db,
    corsOrigin: pick(given, defaults, "corsOrigin", checkOrigin, checkOrigin),
    readTimeoutMs: pick(given, defaults, "readTimeoutMs", parseWhole(checkTimeout), checkTimeout),
    writeTimeoutMs: pick(given, defaults, "writeTimeoutMs", parseWhole(checkTimeout), checkTimeout),
    maxBodySize: pick(given, defaults, "maxBodySize", parseSize, checkSize),
    workers: pick(given, defaults, "workers", parseWhole(checkWorkers), checkWorkers),
    logLevel: pick(given, defaults, "logLevel", checkLevel, checkLevel),
    publicUrl: pick(given, defaults, "publicUrl", checkPublicUrl, checkPublicUrl),
    trustProxy: pick(given, defaults, "trustProxy", parseBool, checkBool),
    openapi: pick(given, defaults, "openapi", parseSwitch, checkSwitch),
    serverHeader: pick(given, defaults, "serverHeader", checkServerHeader, checkServerHeader),
    jobs: pick(given, defaults, "jobs", checkJobs, checkJobs),
    jobsConcurrency: pick(given, defaults, "jobsConcurrency", parseWhole(checkConcurrency), checkConcurrency),
    metrics: metricsSwitch(given, env, defaults),
    metricsListen: pick(given, defaults, "metricsListen", checkListen, checkListen),
    // A credential's name, never a value: only svc.toml sets it (the value comes from [credentials]).
    metricsToken: typeof defaults.metricsToken === "string" ? defaults.metricsToken : null,
  };
}

/** `--metrics` wins over SVC_METRICS, which wins over `[server] metrics`. */
function metricsSwitch(
  given: Map<Key, Given>,
  env: Readonly<Record<string, string | undefined>>,
  defaults: Partial<ServerOptions>,
): boolean {
  const fromEnv = env.SVC_METRICS;
  if (given.get("metrics") === undefined && fromEnv !== undefined && fromEnv !== "") return parseBool(fromEnv, "SVC_METRICS");
  return pick(given, defaults, "metrics", parseSwitch, checkSwitch) === true;
}

/** The flag's value when given, else the svc.toml default when present, else the built-in one; each checked. */
function pick<K extends Key>(
  given: Map<Key, Given>,
  defaults: Partial<ServerOptions>,
  key: K,
  fromFlag: (value: string, source: string) => ServerOptions[K],
  fromToml: (value: unknown, source: string) => ServerOptions[K],
): ServerOptions[K] {
  const flag = given.get(key);
  if (flag !== undefined) return fromFlag(flag.value, flag.source);
  const fallback = defaults[key];
  if (fallback !== undefined && fallback !== null) return fromToml(fallback, tomlName(key));
  return BUILTIN_DEFAULTS[key];
}

function tomlName(key: Key): string {
  const info = Object.values(FLAGS).find((f) => f.key === key);
  return `svc.toml ${info?.toml ?? key}`;
}

function stringDefault(value: unknown, key: Key): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new StartupError("SVC_ERR_OPTION", `${tomlName(key)} must be a string`);
  return value;
}

/** The backend a `--db` URL names by its scheme, or null for a plain SQLite path. */
export function backendOfUrl(db: string): ServerOptions["backend"] | null {
  // URL schemes are case-insensitive (RFC 3986 §3.1).
  const lower = db.slice(0, 14).toLowerCase();
  if (lower.startsWith("postgres://") || lower.startsWith("postgresql://")) return "postgres";
  if (lower.startsWith("mysql://")) return "mysql";
  if (lower.startsWith("sqlite:")) return "sqlite";
  return null;
}

function resolveBackend(
  flag: Given | undefined,
  fallback: unknown,
  db: string,
  dbSource: string,
): ServerOptions["backend"] {
  const fromUrl = backendOfUrl(db);
  let backend: ServerOptions["backend"];
  let source: string;
  if (flag !== undefined) {
    backend = checkBackend(flag.value, flag.source);
    source = flag.source;
  } else if (fromUrl !== null) {
    return fromUrl;
  } else if (fallback !== undefined) {
    backend = checkBackend(fallback, tomlName("backend"));
    source = tomlName("backend");
  } else {
    return BUILTIN_DEFAULTS.backend;
  }
  // tidb speaks the MySQL protocol, so it takes mysql:// URLs.
  const compatible =
    fromUrl === null ? backend === "sqlite" : fromUrl === backend || (backend === "tidb" && fromUrl === "mysql");
  if (!compatible) {
    const scheme = fromUrl !== null ? `a ${db.slice(0, db.indexOf(":") + 1)} URL` : db === ":memory:" ? "an in-memory SQLite database" : "a SQLite file path";
    throw new StartupError("SVC_ERR_OPTION", `${source} ${backend} does not match ${dbSource}, which is ${scheme}`);
  }
  return backend;
}

/** `--help` output: every flag with the default it would take right now. */
export function helpText(
  defaults: Partial<ServerOptions>,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const effective: ServerOptions = { ...BUILTIN_DEFAULTS };
  for (const key of Object.keys(defaults) as Key[]) {
    if (defaults[key] !== undefined) (effective as unknown as Record<Key, unknown>)[key] = defaults[key];
  }
  if (env.SVC_LISTEN !== undefined && env.SVC_LISTEN !== "") effective.listen = env.SVC_LISTEN;
  if (defaults.backend === undefined) effective.backend = backendOfUrl(effective.db) ?? BUILTIN_DEFAULTS.backend;
  const rows = Object.entries(FLAGS).map(([flag, info]) => [
    `${flag} ${info.value}`,
    `${info.help} (default: ${effective[info.key] === null ? "none" : String(effective[info.key])})`,
  ]);
  rows.push(["--help", "print this help and exit"]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return ["Server flags:", ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)].join("\n") + "\n";
}

function checkJobs(value: unknown, source: string): "on" | "off" | "only" {
  if (value === "on" || value === "off" || value === "only") return value;
  throw new StartupError("SVC_ERR_OPTION", `${source} must be on, off or only, not ${JSON.stringify(value)}`);
}

function checkConcurrency(value: unknown, source: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 256) return value;
  throw new StartupError("SVC_ERR_OPTION", `${source} must be a whole number from 1 to 256, not ${JSON.stringify(value)}`);
}
