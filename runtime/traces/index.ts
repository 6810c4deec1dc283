// OpenTelemetry traces (docs/operations.md, Traces), configured by the standard OTEL_*
// variables and exported as OTLP over HTTP by the official packages. serve.ts imports this
// module only when config.ts finds tracing configured, so a server without it loads none of
// the SDK and runs none of its code.

import { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type { Logger } from "../core/log.js";
import type { Database, ServerSpec } from "../contract/index.js";
import { TracedDatabase, tracedSpec } from "./spans.js";
import { Tracing } from "./tracing.js";

export { Tracing } from "./tracing.js";

/**
 * The tracer of one serving process. The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT
 * and _HEADERS, the provider OTEL_TRACES_SAMPLER(_ARG), the resource OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES, which win over the project's name and version. `extra`: more
 * processors (svc dev's trace view); `exporting` false: none over OTLP; `sampleAll`: every
 * request, whatever OTEL_TRACES_SAMPLER says (svc dev).
 */
export function createTracing(spec: ServerSpec, log: Logger, extra: SpanProcessor[] = [], exporting = true, sampleAll = false): Tracing {
  const project = resourceFromAttributes({ [ATTR_SERVICE_NAME]: spec.name, [ATTR_SERVICE_VERSION]: spec.version });
  const resource = project.merge(detectResources({ detectors: [envDetector] }));
  const processors = exporting ? [new BatchSpanProcessor(new OTLPTraceExporter()), ...extra] : extra;
  const provider = new BasicTracerProvider({ resource, spanProcessors: processors, ...(sampleAll && { sampler: new AlwaysOnSampler() }) });
  const tracing = new Tracing(provider.getTracer("svc", spec.version), provider);
  // The trace id joins every log line written while a request is answered (log.ts).
  log.traceIdOf = () => tracing.traceId();
  return tracing;
}

/** The spec and database a traced server runs: endpoints and statements in spans of their own. */
export function traced(spec: ServerSpec, db: Database, tracing: Tracing): { spec: ServerSpec; db: Database } {
  return { spec: tracedSpec(spec, tracing), db: new TracedDatabase(db, tracing, spec.statements) };
}
