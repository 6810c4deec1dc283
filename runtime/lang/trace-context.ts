// The trace context of work a request (or a job run) leaves for later: `enqueue` stores it
// with the job, `emit` with the event (docs/operations.md, Traces). It lives here, beside the
// helpers generated code calls, because those two read it and must not load OpenTelemetry to
// do so. The span travels in the executor they are given: runtime/traces hands a traced
// request's code a view of the database whose `span` is the one its statements are children
// of; a server without tracing has none, and each read is then one property check.

/** What of an OpenTelemetry span this needs (its `spanContext()`), without importing the API. */
export interface CurrentSpan {
  spanContext(): { traceId: string; spanId: string; traceFlags: number; traceState?: { serialize(): string } };
}

const INVALID_TRACE_ID = "0".repeat(32);

/** W3C trace context (https://www.w3.org/TR/trace-context/), as stored with a job or an event. */
export interface TraceCarrier {
  traceparent: string;
  tracestate: string | null;
}

/** The trace context of the span `tx` runs in; null outside a traced request or job run. */
export function traceCarrier(tx: { readonly span?: CurrentSpan }): TraceCarrier | null {
  const span = tx.span;
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

/** What `viewUnder` needs of a database: a traced one's views (runtime/traces: TracedExecutor.under). */
interface Viewable<D> {
  under?(span: CurrentSpan): D;
}

/**
 * `db` with its statements children of `span` when traced; `db` itself otherwise (no span, or
 * no tracing). For work that holds the database itself rather than being handed a view: a
 * job run, and pages, route files and limits under the request's span (CallContext.span).
 */
export function viewUnder<D extends Viewable<D>>(db: D, span: CurrentSpan | undefined): D {
  return span === undefined || db.under === undefined ? db : db.under(span);
}
