// Server flags (LANGUAGE §7, SERVICE §8). Precedence: a flag wins over the environment
// (`SVC_LISTEN`), which wins over the defaults baked in from svc.toml, which win over the
// built-in defaults below. A bad value from any source is a StartupError naming where it
// came from.
//
// Built-in defaults: listen on 127.0.0.1:8080 (loopback, so a server started by hand is
// not exposed; pass --listen 0.0.0.0:PORT to serve other hosts), sqlite in `svc.db`,
// 1 MiB bodies, info logs. An empty host (`:8080`) also means 127.0.0.1.

import { StartupError } from "./errors.js";
import { LOG_LEVELS } from "./log.js";
import type { LogLevel, ServerOptions } from "./types.js";

export const BUILTIN_DEFAULTS: Readonly<ServerOptions> = {
  listen: "127.0.0.1:8080",
  backend: "sqlite",
  db: "svc.db",
  maxBodySize: 1_048_576,
  logLevel: "info",
};

const BACKENDS: readonly ServerOptions["backend"][] = ["sqlite", "postgres", "mysql", "tidb"];

type Key = keyof ServerOptions;

interface FlagInfo {
  key: Key;
  value: string;
  help: string;
  /** How svc.toml names the default, for messages about a bad default. */
  toml: string;
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
  "--max-body-size": {
    key: "maxBodySize",
    value: "<bytes>",
    help: "largest request body accepted; larger ones get 413",
    toml: "[server] max_body_size",
  },
  "--log-level": {
    key: "logLevel",
    value: "<error|warn|info|debug|trace>",
    help: "least severe level written to the log",
    toml: "[server] log_level",
  },
};

export type ParsedArgs = { help: string } | { options: ServerOptions };

export interface ListenAddress {
  host: string;
  port: number;
}

/** Reads the server flags; `--help` (or `-h`) yields the help text instead of options. */
export function parseServerArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  defaults: Partial<ServerOptions>,
): ParsedArgs {
  const given = new Map<Key, { value: string; source: string }>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") return { help: helpText(defaults, env) };
    if (!arg.startsWith("--")) throw new StartupError(`unexpected argument "${arg}"; server flags start with --`);
    const eq = arg.indexOf("=");
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const info = FLAGS[flag];
    if (info === undefined) throw new StartupError(`unknown flag "${flag}"; run with --help to list the flags`);
    let value: string;
    if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) throw new StartupError(`${flag} needs a value ${info.value}`);
      value = next;
      i++;
    }
    if (given.has(info.key)) throw new StartupError(`${flag} is given more than once`);
    given.set(info.key, { value, source: flag });
  }
  return { options: resolve(given, env, defaults) };
}

function resolve(
  given: Map<Key, { value: string; source: string }>,
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
  if (db === "") throw new StartupError(`${dbSource} is empty`);

  const backend = resolveBackend(given.get("backend"), defaults.backend, db, dbSource);

  const sizeFlag = given.get("maxBodySize");
  const maxBodySize =
    sizeFlag !== undefined
      ? parseSize(sizeFlag.value, sizeFlag.source)
      : defaults.maxBodySize !== undefined
        ? checkSize(defaults.maxBodySize, tomlName("maxBodySize"))
        : BUILTIN_DEFAULTS.maxBodySize;

  const levelFlag = given.get("logLevel");
  const logLevel =
    levelFlag !== undefined
      ? checkLevel(levelFlag.value, levelFlag.source)
      : defaults.logLevel !== undefined
        ? checkLevel(defaults.logLevel, tomlName("logLevel"))
        : BUILTIN_DEFAULTS.logLevel;

  return { listen, backend, db, maxBodySize, logLevel };
}

function tomlName(key: Key): string {
  const info = Object.values(FLAGS).find((f) => f.key === key);
  return `svc.toml ${info?.toml ?? key}`;
}

function stringDefault(value: unknown, key: Key): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new StartupError(`${tomlName(key)} must be a string`);
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
  flag: { value: string; source: string } | undefined,
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
    const scheme = fromUrl === null ? "a SQLite file path" : `a ${db.slice(0, db.indexOf(":") + 1)} URL`;
    throw new StartupError(`${source} ${backend} does not match ${dbSource}, which is ${scheme}`);
  }
  return backend;
}

function checkBackend(value: unknown, source: string): ServerOptions["backend"] {
  if (typeof value === "string" && (BACKENDS as readonly string[]).includes(value))
    return value as ServerOptions["backend"];
  throw new StartupError(`${source}: unknown backend ${JSON.stringify(value)}; use one of ${BACKENDS.join(", ")}`);
}

function checkLevel(value: unknown, source: string): LogLevel {
  if (typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new StartupError(`${source}: unknown log level ${JSON.stringify(value)}; use one of ${LOG_LEVELS.join(", ")}`);
}

function parseSize(value: string, source: string): number {
  if (!/^\d+$/.test(value))
    throw new StartupError(`${source}: "${value}" is not a size in bytes (a whole number, 0 or more)`);
  return checkSize(Number(value), source);
}

function checkSize(value: unknown, source: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new StartupError(`${source}: ${JSON.stringify(value)} is not a size in bytes (a whole number, 0 or more)`);
  }
  return value;
}

function checkListen(value: unknown, source: string): string {
  if (typeof value !== "string") throw new StartupError(`${source} must be a string like 127.0.0.1:8080`);
  parseListen(value, source);
  return value;
}

/** `host:port`, `[v6]:port`, `:port` or `port`; an empty host is 127.0.0.1. */
export function parseListen(value: string, source = "--listen"): ListenAddress {
  let host: string;
  let portText: string;
  if (value.startsWith("[")) {
    const close = value.indexOf("]");
    if (close === -1 || value[close + 1] !== ":") throw new StartupError(`${source}: "${value}" is not [address]:port`);
    host = value.slice(1, close);
    portText = value.slice(close + 2);
  } else {
    const colon = value.lastIndexOf(":");
    host = colon === -1 ? "" : value.slice(0, colon);
    portText = colon === -1 ? value : value.slice(colon + 1);
    if (host.includes(":")) throw new StartupError(`${source}: write an IPv6 address in brackets, e.g. [::1]:8080`);
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new StartupError(`${source}: port "${portText}" is not a number from 0 to 65535`);
  }
  if (/\s/.test(host)) throw new StartupError(`${source}: "${host}" is not a host name or address`);
  return { host: host === "" ? "127.0.0.1" : host, port: Number(portText) };
}

/** `--help` output: every flag with the default it would take right now. */
export function helpText(
  defaults: Partial<ServerOptions>,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const effective: ServerOptions = { ...BUILTIN_DEFAULTS, ...defaults };
  if (env.SVC_LISTEN !== undefined && env.SVC_LISTEN !== "") effective.listen = env.SVC_LISTEN;
  if (defaults.backend === undefined) effective.backend = backendOfUrl(effective.db) ?? BUILTIN_DEFAULTS.backend;
  const rows = Object.entries(FLAGS).map(([flag, info]) => [
    `${flag} ${info.value}`,
    `${info.help} (default: ${String(effective[info.key])})`,
  ]);
  rows.push(["--help", "print this help and exit"]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return ["Server flags:", ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)].join("\n") + "\n";
}
