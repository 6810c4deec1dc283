// What a serving process observes of itself, set up in one place for serve.ts: metrics when
// `--metrics` asks (runtime/metrics) and traces when the OTEL_* variables configure them
// (runtime/traces). Each is loaded with a dynamic import only then: a server with neither
// loads no prom-client and no OpenTelemetry, and its handler finds both hooks null.

import type { Server } from "node:http";
import { StartupError } from "../core/errors.js";
import type { Logger } from "../core/log.js";
import type { Metrics } from "../metrics/index.js";
import { tracingConfigured } from "../traces/config.js";
import { Observer } from "../observe/index.js";
import { isWorkerProcess } from "./cluster/worker.js";
import type { Database, LaterSpans, ServerOptions, ServerSpec } from "../contract/index.js";

export interface Observing {
  /** What the handler serves: the spec and database, with spans around endpoints and statements when traced. */
  spec: ServerSpec;
  db: Database;
  /** For createServer; null when neither is on. */
  observer: Observer | null;
  /** Spans of job runs, when traced (deliveries take theirs from the observer). */
  later: LaterSpans | null;
  /** `--metrics-listen`: listens there once the server does; the port, or undefined without it. */
  listen(): Promise<number | undefined>;
  /** Stops the metrics address and sends the last spans. */
  close(): Promise<void>;
}

export async function observe(
  spec: ServerSpec,
  db: Database,
  options: ServerOptions,
  env: Readonly<Record<string, string | undefined>>,
  log: Logger,
): Promise<Observing> {
  const metrics = options.metrics === true ? (await import("../metrics/index.js")).createMetrics(spec, options, env, isWorkerProcess()) : null;
  if (metrics !== null && metrics.onServerAddress && spec.routes.some((r) => r.path === metrics.path)) {
    throw new StartupError("SVC_ERR_OPTION", `the route table has ${metrics.path}, which --metrics serves; serve metrics elsewhere with --metrics-listen`);
  }
  const traces = tracingConfigured(env) ? await import("../traces/index.js") : null;
  const tracing = traces === null ? null : traces.createTracing(spec, log);
  // Traced, the statements' spans time them for metrics too (one pair of clock readings a
  // statement, not two); the server hands a traced request's code a view of that database (Database.under).
  const served =
    traces === null || tracing === null
      ? { spec, db: metrics === null ? db : metrics.measure(db) }
      : traces.traced(spec, db, tracing, metrics === null ? null : metrics.timer(db));
  let separate: Server | null = null;
  return {
    spec: served.spec,
    db: served.db,
    observer: metrics === null && tracing === null ? null : new Observer(metrics, tracing),
    later: tracing,
    async listen() {
      if (metrics === null || !options.metricsListen) return undefined;
      const listening = await (await import("./metrics-listen.js")).listenMetrics(metrics, options.metricsListen, log);
      separate = listening.server;
      return listening.port;
    },
    async close() {
      metrics?.close();
      separate?.closeAllConnections();
      separate?.close();
      await tracing?.close();
    },
  };
}
