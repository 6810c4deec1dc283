// Prometheus metrics (docs/operations.md, Metrics): `GET /metrics` when `--metrics`, SVC_METRICS
// or `[server] metrics` turns it on. Loaded with a dynamic import by serve.ts only then, so a
// server without metrics loads neither this folder nor prom-client. prom-client gives the
// registry, the process metrics (CPU, memory, event loop lag, handles), the exposition formats
// and the aggregation across workers; svc's own series keep their numbers themselves
// (family.ts says why).

import type { IncomingMessage, ServerResponse } from "node:http";
import * as prom from "prom-client";
import { resolveCredentials } from "../core/credentials.js";
import { HttpError } from "../core/errors.js";
import { HEALTH_PATH } from "../core/health.js";
import type { Database, ServerOptions, ServerSpec } from "../contract/index.js";
import { ScrapeAccess } from "./access.js";
import { WorkerMetrics } from "./cluster.js";
import { expose, wantsOpenMetrics } from "./exposition.js";
import type { MetricJson } from "./family.js";
import { Figures } from "./figures.js";
import { HttpSeries } from "./http-series.js";
import { poolFigures } from "./pools.js";
import { MeasuredDatabase, StatementSeries } from "./statements.js";

export { Figures, type Figure, type FigureGauge } from "./figures.js";
export { MetricsGatherer } from "./cluster.js";

export const METRICS_PATH = "/metrics";

export class Metrics {
  /** The hook of server.ts: `http.inFlight++` as a request starts, `http.answered(…)` once it is answered. */
  readonly http: HttpSeries;
  /** Where features register gauges of their own (job queue figures). */
  readonly figures = new Figures();
  /** Whether the server's own address answers /metrics (not when `--metrics-listen` gives another). */
  readonly onServerAddress: boolean;
  readonly path = METRICS_PATH;
  private readonly statements = new StatementSeries();
  private readonly registry = new prom.Registry();
  private readonly access: ScrapeAccess;
  private readonly workers: WorkerMetrics | null;

  constructor(spec: ServerSpec, options: ServerOptions, env: Readonly<Record<string, string | undefined>>, inWorker: boolean) {
    const separate = options.metricsListen !== undefined && options.metricsListen !== null;
    this.onServerAddress = !separate;
    const tokenName = options.metricsToken ?? null;
    // Read at start like every credential: a missing one is a StartupError naming where it was looked for.
    const token = tokenName === null ? null : resolveCredentials((spec.credentials ?? []).filter((c) => c.name === tokenName), env).get(tokenName);
    this.access = new ScrapeAccess(token, separate);
    const own = new Set([HEALTH_PATH, METRICS_PATH, ...(options.openapi === true ? ["/openapi.json", "/_svc/docs"] : [])]);
    const webhooks = new Map((spec.webhooks ?? []).map((w) => [w.name, { webhook: w.name, provider: w.provider }]));
    this.http = new HttpSeries(own, webhooks);
    prom.collectDefaultMetrics({ register: this.registry });
    for (const family of [...this.http.families(), ...this.statements.families()]) this.register(family);
    this.workers = inWorker ? new WorkerMetrics(() => this.own()) : null;
  }

  /**
   * The database the handler runs statements on: `db`, each statement timed. `pools`: the
   * adapter's own database, whose connection pools are measured (a wrapper has none).
   */
  measure(db: Database, pools: Database = db): Database {
    return new MeasuredDatabase(db, this.timer(pools));
  }

  /**
   * The statements' duration series, for a database that times its statements itself (a traced
   * one: traces/spans.ts, with the readings of each statement's span); `pools` measured as
   * `measure` measures them.
   */
  timer(pools: Database): StatementSeries {
    poolFigures(this.figures, pools.pools ?? []);
    return this.statements;
  }

  /** Answers GET /metrics (HEAD too); throws the HttpError of a refused or wrong request. */
  async scrape(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") throw new HttpError(405, "method not allowed", { code: "SVC_ERR_METHOD_NOT_ALLOWED", headers: { Allow: "GET" } });
    this.access.check(req);
    const processes = this.workers === null ? [await this.own()] : await this.workers.gather();
    const { contentType, body } = await expose(prom, processes, wantsOpenMetrics(req.headers.accept));
    if (res.headersSent) return;
    res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(body) });
    res.end(req.method === "HEAD" ? undefined : body);
  }

  close(): void {
    this.workers?.close();
  }

  private own(): Promise<MetricJson[]> {
    // The families registered by features since the start (figures.ts).
    for (const family of this.figures.families()) this.register(family);
    return this.registry.getMetricsAsJSON() as unknown as Promise<MetricJson[]>;
  }

  private register(family: { name: string }): void {
    if ((this.registry.getSingleMetric(family.name) as unknown) === family) return;
    this.registry.registerMetric(family as unknown as prom.Metric);
  }
}

/** Metrics for one serving process, made by serve.ts when they are on. */
/** `inWorker`: this process is a worker of `--workers N`, whose primary answers scrapes for all (start/cluster). */
export function createMetrics(spec: ServerSpec, options: ServerOptions, env: Readonly<Record<string, string | undefined>> = process.env, inWorker = false): Metrics {
  return new Metrics(spec, options, env, inWorker);
}
