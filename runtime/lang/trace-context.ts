// The span current while a request (or a job run) is being answered, and its W3C trace
// context for work it leaves to later: `enqueue` stores it with the job, `emit` with the
// event (docs/operations.md, Traces). It lives here, beside the helpers generated code calls,
// because those two read it and must not load OpenTelemetry to do so: runtime/traces sets
// the span; a server without tracing never does, and each read is then one check of an empty
// store.

import { AsyncLocalStorage } from "node:async_hooks";

/** What of an OpenTelemetry span this needs (its `spanContext()`), without importing the API. */
export interface CurrentSpan {
  spanContext(): { traceId: string; spanId: string; traceFlags: number; traceState?: { serialize(): string } };
}

/** Shared by every tracer of the process: a request's async work sees its own span only. */
export const currentSpan = new AsyncLocalStorage<CurrentSpan>();

const INVALID_TRACE_ID = "0".repeat(32);

/** W3C trace context (https://www.w3.org/TR/trace-context/), as stored with a job or an event. */
export interface TraceCarrier {
  traceparent: string;
  tracestate: string | null;
}

/** The current span's trace context; null outside a traced request or job run. */
export function traceCarrier(): TraceCarrier | null {
  const span = currentSpan.getStore();
  return span === undefined ? null : carrierOf(span);
}

/** A span's W3C trace context, as a `traceparent` and `tracestate` name it; null for the invalid span. */
export function carrierOf(span: CurrentSpan): TraceCarrier | null {
  const c = span.spanContext();
  // The API's invalid context (all zeros) is no trace to join.
  if (c.traceId === INVALID_TRACE_ID) return null;
  const state = c.traceState?.serialize() ?? "";
  return { traceparent: `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 0xff).toString(16).padStart(2, "0")}`, tracestate: state === "" ? null : state };
}
