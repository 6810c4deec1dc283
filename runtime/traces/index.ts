// OpenTelemetry traces (docs/operations.md, Traces), configured by the standard OTEL_*
// variables and exported as OTLP/HTTP in protobuf: svc's own spans and encoder (span.ts,
// otlp.ts), the official packages for the resource, trace-context parsing and the transport.
// serve.ts imports this module only when config.ts finds tracing configured, so a server
// without it loads none of it and runs none of its code.

import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { StartupError } from "../core/errors.js";
import { HEALTH_PATH } from "../core/health.js";
import type { Logger } from "../core/log.js";
import type { Database, ServerSpec } from "../contract/index.js";
import type { Env } from "./config.js";
import { BatchExport, batchOptions, type SpanSink, threadSend } from "./export.js";
import { OtlpEncoder } from "./otlp.js";
import { knownPaths } from "./otlp-keyvalues.js";
import { samplerFromEnv } from "./sampler.js";
import { type Attributes, type AttributeValue, type RecordedSpan, Tracer } from "./span.js";
import { TracedDatabase, tracedSpec } from "./spans.js";
import { type StatementTimer, Tracing } from "./tracing.js";

export { type StatementTimer, Tracing } from "./tracing.js";
export type { SpanSink } from "./export.js";
export type { RecordedSpan } from "./span.js";

/**
 * The tracer of one serving process. The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT,
 * _HEADERS, _TIMEOUT and _COMPRESSION, the batching OTEL_BSP_*, the sampler OTEL_TRACES_SAMPLER(_ARG),
 * the resource OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, which win over the project's name
 * and version. `extra`: more sinks (svc dev's trace view); `exporting` false: none over OTLP;
 * `sampleAll`: every request, whatever OTEL_TRACES_SAMPLER says (svc dev).
 */
export function createTracing(spec: ServerSpec, log: Logger, extra: SpanSink[] = [], exporting = true, sampleAll = false, env: Env = process.env): Tracing {
  const exported = exporting ? exporter(spec, log, env) : null;
  const sinks = exported === null ? extra : [exported, ...extra];
  const ended = sinks.length === 1 ? (span: RecordedSpan) => sinks[0]!.ended(span) : (span: RecordedSpan) => sinks.forEach((sink) => sink.ended(span));
  const all: SpanSink = {
    ended,
    forceFlush: () => Promise.all(sinks.map((sink) => sink.forceFlush())).then(() => undefined),
    shutdown: () => Promise.all(sinks.map((sink) => sink.shutdown())).then(() => undefined),
  };
  // A statement's span goes straight to the encoder when nothing else wants its span object.
  const tracing = new Tracing(new Tracer(samplerFromEnv(env, sampleAll), ended), all, extra.length === 0 ? exported : null);
  // The trace id joins every log line of a request being answered (log.ts).
  log.traceIdOf = (requestId) => tracing.traceIdOf(requestId);
  return tracing;
}

/** OTLP/HTTP in protobuf, the one encoding svc sends: another asked for stops the start rather than being ignored. */
function exporter(spec: ServerSpec, log: Logger, env: Env): BatchExport {
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"]) {
    const protocol = env[name]?.trim();
    if (protocol) {
      if (protocol !== "http/protobuf") throw new StartupError("SVC_ERR_OPTION", `${name} "${protocol}": svc exports traces as http/protobuf only`);
      break;
    }
  }
  const project = resourceFromAttributes({ [ATTR_SERVICE_NAME]: spec.name, [ATTR_SERVICE_VERSION]: spec.version });
  const resource: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(project.merge(detectResources({ detectors: [envDetector] })).attributes)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") resource[key] = value;
  }
  knownPaths([HEALTH_PATH, ...spec.routes.map((route) => route.path)]);
  const encoder = new OtlpEncoder(resource as Attributes, { name: "svc", version: spec.version });
  return new BatchExport(encoder, threadSend(log), batchOptions(env));
}

/**
 * The spec and database a traced server runs: endpoints and statements in spans of their own.
 * `timer`: each statement's duration series when metrics are on, timed by the statement's
 * span where there is one (`db` is then not wrapped by metrics: one pair of clock readings a
 * statement, not two).
 */
export function traced(spec: ServerSpec, db: Database, tracing: Tracing, timer: StatementTimer | null = null): { spec: ServerSpec; db: Database } {
  return { spec: tracedSpec(spec, tracing), db: new TracedDatabase(db, tracing, spec.statements, timer) };
}
