// The official OTLP/HTTP transport (@opentelemetry/otlp-exporter-base): the endpoint and
// headers of OTEL_EXPORTER_OTLP_*, timeouts, gzip, retries with backoff, given the requests
// svc's encoder made (otlp.ts). Only the export thread loads it (export-thread.ts): the
// serving thread's heap holds neither it nor the transformer it answers with.

import { ExportResultCode } from "@opentelemetry/core";
import { OTLPExporterBase } from "@opentelemetry/otlp-exporter-base";
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from "@opentelemetry/otlp-exporter-base/node-http";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { Logger } from "../core/log.js";
import type { Send } from "./export.js";

/** The official OTLP/HTTP transport, given requests svc's encoder made (otlp.ts). */
export function otlpHttpSend(log: Pick<Logger, "warn">): Send {
  interface Batch {
    request: Uint8Array;
    spans: number;
  }
  const serializer = {
    serializeRequest: (batch: Batch) => batch.request,
    deserializeResponse: ProtobufTraceSerializer.deserializeResponse,
  };
  const options = convertLegacyHttpOptions({}, "TRACES", "v1/traces", { "Content-Type": "application/x-protobuf" });
  const metrics = { name: "span" as const, countItems: (batch: Batch) => batch.spans };
  const exporter = new OTLPExporterBase(createOtlpHttpExportDelegate(options, serializer, "otlp_http_span_exporter", metrics, undefined));
  let warned = false;
  const send: Send = (request, spans) =>
    new Promise((resolve) =>
      exporter.export({ request, spans }, (result) => {
        // A collector that is down must not fill the log: said once, until an export succeeds again.
        if (result.code !== ExportResultCode.SUCCESS && !warned) {
          warned = true;
          log.warn("trace export failed", { error: result.error?.message ?? "unknown", spans });
        } else if (result.code === ExportResultCode.SUCCESS) warned = false;
        resolve();
      }),
    );
  send.shutdown = () => exporter.shutdown();
  return send;
}
