// `--db` for the network backends: a postgres:// or mysql:// URL. svc reads its own pool
// settings from the query string and hands the rest of the URL to the driver:
//
//   pool_size            connections per server process (per worker)        default 10
//   connect_timeout_ms   opening one connection                              default 5000
//   acquire_timeout_ms   waiting for a free connection before answering 503  default: the request's deadline
//   queue_limit          requests waiting for a connection, per pool; past it 503 at once  default 4096
//   schema               postgres: the schema the tables live in (search_path) default: the server's
//
// Waits never outlast the request's own deadline (--write-timeout): past it the client has
// its 503 already.

import { StartupError } from "../../core/errors.js";

export interface NetSettings {
  poolSize: number;
  connectTimeoutMs: number;
  acquireTimeoutMs: number;
  /** How many statements or transactions may wait for a connection of one pool; one more is a 503 at once. */
  queueLimit: number;
  /** The request deadline (--write-timeout): the budget for retries and server-side statement time. */
  requestTimeoutMs: number;
}

export interface NetTarget {
  /** The URL without svc's own parameters, for the driver. */
  driverUrl: string;
  host: string;
  port: number | null;
  user: string;
  password: string;
  database: string;
  /** postgres `?schema=`; null for the server's default search_path. */
  schema: string | null;
  /** Parameters left for the driver (e.g. `sslmode`). */
  params: Map<string, string>;
  settings: NetSettings;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
/** A burst waits, in order, up to this many requests a pool; beyond it a request is answered 503 at once. */
export const DEFAULT_QUEUE_LIMIT = 4096;
const MAX_QUEUE_LIMIT = 1_000_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const MAX_POOL_SIZE = 1000;
const MAX_MS = 600_000;

const SCHEMES: Record<"postgres" | "mysql", readonly string[]> = {
  postgres: ["postgres:", "postgresql:"],
  mysql: ["mysql:"],
};

/** Reads a postgres:// or mysql:// `--db` URL; every problem is a StartupError that never shows the password. */
export function parseNetUrl(db: string, dialect: "postgres" | "mysql", requestTimeoutMs?: number): NetTarget {
  let url: URL;
  try {
    url = new URL(db.trim());
  } catch {
    throw new StartupError("SVC_ERR_DB_URL", `--db ${redactUrl(db)} is not a URL; expected e.g. ${example(dialect)}`);
  }
  if (!SCHEMES[dialect].includes(url.protocol.toLowerCase())) {
    throw new StartupError("SVC_ERR_DB_URL", `--db ${redactUrl(db)} is not a ${dialect} URL; expected e.g. ${example(dialect)}`);
  }
  if (url.hostname === "")
    throw new StartupError("SVC_ERR_DB_URL", `--db ${redactUrl(db)} names no host; expected e.g. ${example(dialect)}`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (database === "" || database.includes("/")) {
    throw new StartupError("SVC_ERR_DB_URL", `--db ${redactUrl(db)} names no database; put it in the path, e.g. ${example(dialect)}`);
  }
  const take = (name: string): string | null => {
    const all = url.searchParams.getAll(name);
    if (all.length > 1) throw new StartupError("SVC_ERR_DB_URL", `--db ${redactUrl(db)}: ${name} is given ${all.length} times`);
    url.searchParams.delete(name);
    return all.length === 0 ? null : all[0];
  };
  const whole = (name: string, fallback: number, min: number, max: number): number => {
    const text = take(name);
    if (text === null) return fallback;
    if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new StartupError("SVC_ERR_DB_URL", `--db ${redactUrl(db)}: ${name}=${text} is not a whole number from ${min} to ${max}`);
    }
    return Number(text);
  };
  const requestMs = requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const settings: NetSettings = {
    poolSize: whole("pool_size", DEFAULT_POOL_SIZE, 1, MAX_POOL_SIZE),
    connectTimeoutMs: whole("connect_timeout_ms", DEFAULT_CONNECT_TIMEOUT_MS, 1, MAX_MS),
    // Without it, a request waits for a connection as long as its deadline allows.
    acquireTimeoutMs: Math.min(whole("acquire_timeout_ms", requestMs, 1, MAX_MS), requestMs),
    queueLimit: whole("queue_limit", DEFAULT_QUEUE_LIMIT, 0, MAX_QUEUE_LIMIT),
    requestTimeoutMs: requestMs,
  };
  const schema = dialect === "postgres" ? take("schema") : null;
  if (dialect === "mysql" && url.searchParams.has("schema")) {
    throw new StartupError("SVC_ERR_DB_URL", `--db ${redactUrl(db)}: schema= is for postgres; a MySQL database is the URL's path`);
  }
  if (schema !== null && !/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(schema)) {
    throw new StartupError(
      "SVC_ERR_DB_URL",
      `--db ${redactUrl(db)}: schema=${schema} is not a plain identifier (letters, digits, _ and $)`,
    );
  }
  const params = new Map(url.searchParams.entries());
  return {
    driverUrl: url.toString(),
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port === "" ? null : Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
    schema,
    params,
    settings,
  };
}

/** Connection URLs carry passwords; messages and logs must not. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}

function example(dialect: "postgres" | "mysql"): string {
  return dialect === "postgres"
    ? "postgres://user:password@127.0.0.1:5432/app"
    : "mysql://user:password@127.0.0.1:3306/app";
}
