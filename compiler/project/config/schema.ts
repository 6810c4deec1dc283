// The shape of svc.toml once read: every key docs/language.md §1 lists, with its defaults.
// Keys keep the spelling users write in svc.toml so a reader can map one to the other.

import type { RateModel } from "./rate.js";
import type { EventsConfig } from "./events.js";
import type { LogLevel } from "../../../runtime/contract/index.js";

export type { LogLevel };

/** `[database] backend`: the database a project runs on (the model carries it too). */
export type Backend = "sqlite" | "postgres" | "mysql" | "tidb";
export type { EventsConfig };

export const BACKENDS = ["sqlite", "postgres", "mysql", "tidb"] as const satisfies readonly Backend[];
export const LOG_LEVELS = ["error", "warn", "info", "debug", "trace"] as const satisfies readonly LogLevel[];

/** Where a credential's value comes from: an environment variable or a file. */
export type CredentialSource = { env: string } | { file: string };

/** A reference to a credential declared under [credentials]. */
export interface CredentialRef {
  credential: string;
}

export interface ServerConfig {
  listen?: string;
  cors_origin?: string;
  read_timeout_ms?: number;
  write_timeout_ms?: number;
  max_body_size?: number;
  workers?: number;
  log_level?: LogLevel;
  /** The external base URL (scheme://host[:port][/path]) routes answer links with. */
  public_url?: string;
  /** Believe X-Forwarded-Proto and X-Forwarded-Host (only behind a proxy that sets them). */
  trust_proxy?: boolean;
  /** Serve /openapi.json and the API reference at /_svc/docs (docs/openapi.md). */
  openapi?: boolean;
  /** The Server header every answer carries (docs/operations.md); none when absent. */
  header?: string;
  /** Serve Prometheus metrics at GET /metrics (docs/operations.md, Metrics). */
  metrics?: boolean;
  /** Serve /metrics on this address instead of the server's own. */
  metrics_listen?: string;
  /** The credential a scrape from off the machine must bear (`Authorization: Bearer …`). */
  metrics_token?: string;
}

/** `[errors]`: how the error bodies of routes that shape their answer look. */
export interface ErrorsConfig {
  /** A JSON value; its strings may hold {message} and {status}. */
  body?: unknown;
  validation_status?: number;
}

export interface ProjectConfig {
  /** `name` is filled by discovery with the project folder's name when svc.toml leaves it out. */
  project: { name?: string; version: string };
  /** Globs of module folders, relative to the project root. */
  modules: { dirs: string[] };
  /** Folder of pages and route files, relative to the project root. */
  app: { dir: string };
  database: { backend?: Backend; url?: string };
  server: ServerConfig;
  credentials: Record<string, CredentialSource>;
  auth: AuthConfig;
  deploy: { url?: string; token?: CredentialRef };
  errors: ErrorsConfig;
  /** `[uploads]`: defaults in compiler/analyze/config/uploads.ts. */
  uploads: { store?: "disk" | "database"; dir?: string; max_file_size?: number; max_files?: number; max_request_size?: number };
  /** `[events]`: subscribers and retries (compiler/project/config/events.ts). */
  events: EventsConfig;
}

/** The type a JWT claim is checked against and `auth.claims.<name>` has. */
export type ClaimType = "text" | "int" | "float" | "bool" | "json" | "list<text>";

/** svc.toml `[auth]` as written (compiler/project/config/auth.ts reads it). */
export interface AuthConfig {
  bearer?: CredentialRef;
  schemes?: string[];
  jwt?: {
    secret?: CredentialRef;
    private_key?: CredentialRef;
    jwks_url?: string;
    /** Seconds. */
    jwks_cooldown?: number;
    issuer?: string;
    /** `false`: a provider's tokens are taken whatever their `aud` (written out, never the default). */
    audience?: string | false;
    /** Seconds of clock difference forgiven on exp, nbf and iat. */
    leeway?: number;
    /** Seconds. */
    lifetime?: number;
    roles_claim?: string;
    claims?: Record<string, ClaimType>;
  };
  sessions?: {
    /** Seconds. */
    lifetime?: number;
    /** Seconds: a session unused this long ends. */
    idle?: number;
    cookie?: string;
  };
  /** The sign-in throttle; defaults in compiler/analyze/config/limits.ts (docs/auth.md). */
  throttle?: {
    enabled?: boolean;
    account?: RateModel;
    address?: RateModel;
  };
}

export const DEFAULT_VERSION = "0.1.0";
export const DEFAULT_MODULE_DIRS: readonly string[] = ["modules/*"];
export const DEFAULT_APP_DIR = "app";

/** The configuration of a project whose svc.toml is empty (or which has none: --module, --app). */
export function defaultConfig(): ProjectConfig {
  return {
    project: { version: DEFAULT_VERSION },
    modules: { dirs: [...DEFAULT_MODULE_DIRS] },
    app: { dir: DEFAULT_APP_DIR },
    database: {},
    server: {},
    credentials: {},
    auth: {},
    deploy: {},
    errors: {},
    uploads: {},
    events: {},
  };
}
