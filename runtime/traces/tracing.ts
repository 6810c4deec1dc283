// The spans of a request (docs/operations.md, Traces): the request itself (HTTP semantic
// conventions, named `METHOD /route/template`), the action or query it calls, and each
// statement by its declared name. The current span travels with the request's async work in an
// AsyncLocalStorage, so a statement run deep inside an action finds its parent without any
// argument carrying it; a server without tracing makes none of this.

import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type Attributes, type Context, defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode,
  trace, type Tracer,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import type { AsyncLocalStorage } from "node:async_hooks";
import {
  ATTR_CLIENT_ADDRESS, ATTR_ERROR_TYPE, ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_URL_PATH,
  ATTR_URL_SCHEME,
} from "@opentelemetry/semantic-conventions";
import type { MatchResult } from "../core/router.js";
import type { Awaitable, LaterSpans, TraceCarrier } from "../contract/index.js";
import { currentSpan } from "../lang/trace-context.js";

/** Where finished spans go besides the exporter: `svc dev`'s trace view keeps them. */
export interface SpanSink {
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

export class Tracing implements LaterSpans {
  /** The process's one store of the current span (lang/trace-context.ts: enqueue and emit read it). */
  private readonly current = currentSpan as AsyncLocalStorage<Span>;
  private readonly propagator = new W3CTraceContextPropagator();

  constructor(
    private readonly tracer: Tracer,
    private readonly provider: SpanSink,
  ) {}

  /** Hot path when on: the request's span, child of the caller's `traceparent` when it sent one. */
  started(req: IncomingMessage, path: string): Span {
    const parent = req.headers.traceparent === undefined ? ROOT_CONTEXT : this.propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    const method = req.method ?? "GET";
    const span = this.tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: method,
          [ATTR_URL_PATH]: path,
          [ATTR_URL_SCHEME]: "http",
          [ATTR_CLIENT_ADDRESS]: req.socket.remoteAddress ?? "",
        },
      },
      parent,
    );
    // The rest of this request's work, awaited continuations included, sees it as current.
    this.current.enterWith(span);
    return span;
  }

  /** The request's answer: the name becomes `METHOD /route/template`, never the raw path. */
  answered(span: Span, match: MatchResult, method: string, res: ServerResponse): void {
    const status = res.statusCode;
    if (match !== null && "path" in match) {
      span.updateName(`${method} ${match.path}`);
      span.setAttribute(ATTR_HTTP_ROUTE, match.path);
    }
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    // A 4xx is the client's doing; only a 5xx marks the server's span as failed (HTTP semconv).
    if (status >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }

  /** Runs `fn` in a child span of the current one, current while `fn` runs; none is made outside a request. */
  within<T>(name: string, attributes: Attributes, fn: () => Awaitable<T>): Awaitable<T> {
    const parent = this.current.getStore();
    if (parent === undefined) return fn();
    const span = this.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, trace.setSpan(ROOT_CONTEXT, parent));
    return this.ended(span, () => this.current.run(span, fn));
  }

  /**
   * A child span of the current one that no span will be made below (a statement), so it is
   * not made current: entering it would cost an AsyncLocalStorage run for nothing. Null
   * outside a request; the caller ends it with `ended`.
   */
  leaf(name: string, attributes: Attributes): Span | null {
    const parent = this.current.getStore();
    return parent === undefined ? null : this.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, trace.setSpan(ROOT_CONTEXT, parent));
  }

  /** `fn`'s result, `span` ended once it is there (a promise's once it settles), failed if `fn` throws or rejects. */
  ended<T>(span: Span, fn: () => Awaitable<T>): Awaitable<T> {
    let result: Awaitable<T>;
    try {
      result = fn();
    } catch (err) {
      failed(span, err);
      throw err;
    }
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        failed(span, err);
        throw err;
      },
    );
  }

  /**
   * A job run (LaterSpans): a root span, as OpenTelemetry's messaging conventions have a
   * message's processing start a trace of its own linked to the context that created it, so
   * a job run later, retried or fanned out, is not folded into the request's timing.
   */
  consumer<T>(name: string, attributes: Attributes, enqueuedBy: TraceCarrier | null, fn: () => Promise<T>): Promise<T> {
    const creator = enqueuedBy === null ? undefined : trace.getSpanContext(this.extract(enqueuedBy));
    const links = creator === undefined ? [] : [{ context: creator }];
    const span = this.tracer.startSpan(name, { kind: SpanKind.CONSUMER, attributes, links }, ROOT_CONTEXT);
    return this.current.run(span, fn).then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
        span.setAttribute(ATTR_ERROR_TYPE, err instanceof Error ? err.name : "Error");
        span.end();
        throw err;
      },
    );
  }

  /**
   * An outgoing call (LaterSpans): a CLIENT span, child of the stored context when there is
   * one, and the `traceparent` naming it for the call to send. Failed, by HTTP client
   * conventions, on no answer or a 4xx/5xx.
   */
  async client<T extends { status: number | null; error: string | null }>(
    name: string,
    attributes: Attributes,
    parent: TraceCarrier | null,
    fn: (headers: Record<string, string>) => Promise<T>,
  ): Promise<T> {
    const span = this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent === null ? ROOT_CONTEXT : this.extract(parent));
    const headers: Record<string, string> = {};
    this.propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
    try {
      const outcome = await fn(headers);
      if (outcome.status !== null) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.status);
      if (outcome.status === null || outcome.status >= 400) {
        // `_OTHER`: the conventions' value for a failure that is no status (timeout, refused connection).
        span.setAttribute(ATTR_ERROR_TYPE, outcome.status === null ? "_OTHER" : String(outcome.status));
        span.setStatus({ code: SpanStatusCode.ERROR, ...(outcome.error !== null && { message: outcome.error }) });
      }
      return outcome;
    } finally {
      span.end();
    }
  }

  private extract(carrier: TraceCarrier): Context {
    const headers: Record<string, string> = { traceparent: carrier.traceparent };
    if (carrier.tracestate !== null) headers.tracestate = carrier.tracestate;
    return this.propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
  }

  /** The trace id of the request being answered, for its log lines. */
  traceId(): string | undefined {
    return this.current.getStore()?.spanContext().traceId;
  }

  /** Sends what is still buffered, then stops (a graceful shutdown). */
  async close(): Promise<void> {
    await this.provider.forceFlush().catch(() => undefined);
    await this.provider.shutdown().catch(() => undefined);
  }
}

function failed(span: Span, err: unknown): void {
  const status = (err as { status?: unknown }).status;
  // An HttpError below 500 (a validation error, a `fail 404`) is an answer, not a failure.
  if (!(typeof status === "number" && status < 500)) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    if (err instanceof Error) span.setAttribute(ATTR_ERROR_TYPE, err.name);
  }
  span.end();
}
