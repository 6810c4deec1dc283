// Where features put spans of their own (runtime/traces implements both when OTEL_* turn
// tracing on; docs/operations.md, Traces), and the trace context stored for later work.

import type { Awaitable, Database } from "./server.js";
import type { CurrentSpan, TraceCarrier } from "../lang/trace-context.js";

export type { TraceCarrier } from "../lang/trace-context.js";

/**
 * Where a feature puts a span of its own (page render, jq loader, webhook verification): the
 * tracer of runtime/traces when OTEL_* turn tracing on, else null, which a feature checks
 * before making the closure it would run in the span (docs/operations.md, Traces).
 */
export interface Spans {
  /**
   * Runs `fn` in a child span of `db`'s (a traced request's view of the database, or a view
   * below it), given `db` with its statements children of the new span. A database in no
   * span (work outside a request) is given as it is, and no span is made.
   */
  within<T>(name: string, attributes: Record<string, string | number | boolean>, db: Database, fn: (db: Database) => Awaitable<T>): Awaitable<T>;
}

/**
 * The spans of work a request left for later (docs/operations.md, Traces): a job's run and an
 * event's delivery, each started from the trace context stored with its row.
 */
export interface LaterSpans {
  /**
   * A job run: a CONSUMER span of a trace of its own, linked to the span that enqueued it
   * (no link for a schedule's run); `fn` is given it, to run its statements under it
   * (Database.under). Failed when `fn` throws.
   */
  consumer<T>(name: string, attributes: Record<string, string | number | boolean>, enqueuedBy: TraceCarrier | null, fn: (span: CurrentSpan) => Promise<T>): Promise<T>;
  /**
   * An outgoing call: a CLIENT span, child of `parent` (the emitting span) when there is one;
   * `fn` sends the headers it is given (`traceparent` naming this span) and says what came back.
   */
  client<T extends { status: number | null; error: string | null }>(
    name: string,
    attributes: Record<string, string | number | boolean>,
    parent: TraceCarrier | null,
    fn: (headers: Record<string, string>) => Promise<T>,
  ): Promise<T>;
}
