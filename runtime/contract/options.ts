// The server's settings once its flags, environment and svc.toml are read (runtime/start/options.ts).

export type LogLevel = "error" | "warn" | "info" | "debug" | "trace";

/** Server flags after parsing (runtime/start/options.ts); docs/service.md §8 lists them. */
export interface ServerOptions {
  listen: string;
  backend: "sqlite" | "postgres" | "mysql" | "tidb";
  db: string;
  /** `--cors-origin`: one exact origin, `*`, or null for no CORS headers at all. */
  corsOrigin: string | null;
  /** `--read-timeout`: request headers and body must arrive within this many ms of the request's start. */
  readTimeoutMs: number;
  /** `--write-timeout`: a response must be complete within this many ms of the request's headers. */
  writeTimeoutMs: number;
  maxBodySize: number;
  /** `--workers`: processes sharing the port; 1 serves from the starting process. */
  workers: number;
  logLevel: LogLevel;
  /** `--public-url`: the external base URL `input.base_url` answers; null or absent to derive it from the request. */
  publicUrl?: string | null;
  /** `--trust-proxy`: believe X-Forwarded-Proto and X-Forwarded-Host; absent means false. */
  trustProxy?: boolean;
  /** `--openapi`: serve /openapi.json and the API reference at /_svc/docs (runtime/api-docs.ts). */
  openapi?: boolean;
  /** `--server-header`: the Server header of every answer; null or absent for none (runtime/core/answer/server-header.ts). */
  serverHeader?: string | null;
  /** `--jobs`: run jobs beside serving (`on`, the default), not at all (`off`), or only jobs, serving /health alone (`only`). */
  jobs?: "on" | "off" | "only";
  /** `--jobs-concurrency`: jobs one process runs at once. */
  jobsConcurrency?: number;
  /** `--metrics` (env SVC_METRICS): serve `GET /metrics` (runtime/metrics); absent means false. */
  metrics?: boolean;
  /** `--metrics-listen`: serve /metrics on this address instead of the server's own; null or absent for none. */
  metricsListen?: string | null;
  /** svc.toml `[server] metrics_token`: the credential a scrape from off the machine must bear; null or absent for none. */
  metricsToken?: string | null;
}
