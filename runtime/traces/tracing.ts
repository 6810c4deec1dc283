// The spans of a request (docs/operations.md, Traces): the request itself (HTTP semantic
// conventions, named `METHOD /route/template`), the action or query it calls, and each
// statement by its declared name. A span's children find it in the database they are handed:
// the server gives a traced request's code a view of the database whose `span` is the
// request's (spans.ts), and each span below makes a view of its own. An AsyncLocalStorage
// would carry it without that, at the price of a hook on every promise of the process, which
// cost more than the spans did; a server without tracing makes none of this.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
// Imported: the global `performance` is a getter, paid on every read.
import { performance } from "node:perf_hooks";
import { defaultTextMapGetter, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  ATTR_CLIENT_ADDRESS, ATTR_ERROR_TYPE, ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_URL_PATH,
  ATTR_URL_SCHEME,
} from "@opentelemetry/semantic-conventions";
import { HEALTH_PATH } from "../core/health.js";
import type { MatchResult, RouteMatch } from "../core/router.js";
import type { Awaitable, Database, LaterSpans, Spans, StatementSpec, TraceCarrier } from "../contract/index.js";
import { carrierOf, type CurrentSpan } from "../lang/trace-context.js";
import type { LeafSink, SpanSink } from "./export.js";
import { InFlight } from "./in-flight.js";
import {
  type Attributes, type AttributeValue, flat, type LeafShape, NO_LINKS, type ParentContext, type RecordedSpan, RepeatedLater, SpanKind, StatusCode, type Tracer,
} from "./span.js";

/**
 * A request span's attributes at its start that every request of its method shares: one object
 * per method, so the exporter encodes them once (otlp.ts). A method outside HTTP's own gets
 * its own object, never kept.
 */
const BY_METHOD = new Map<string, Attributes>(
  ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map((method) => [method, methodAttributes(method)]),
);

function methodAttributes(method: string): Attributes {
  return Object.freeze({ [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_SCHEME]: "http" });
}

/** A request span's name and attributes once its route is known; null attributes: keep the start's. */
interface Routed {
  name: string;
  attributes: Attributes | null;
  /** The later attributes of the route's answers at its template (Repeats). */
  repeats: Repeats;
}

/**
 * The later attributes of a request span whose path is its route's template (or /health): its
 * client's address, the path and the status, by status and address. Each list is encoded once
 * (RepeatedLater), where three attributes cost three lookups and three copies a span. Bounded:
 * a status's addresses are forgotten once there are MAX_ADDRESSES of them.
 */
type Repeats = Map<number, Map<AttributeValue, RepeatedLater>>;
const MAX_ADDRESSES = 256;
const MAX_STATUSES = 64;

/** Each statement's duration series (metrics/statements.ts), which a statement's span times when both are on. */
export interface StatementTimer {
  observe(stmt: StatementSpec, seconds: number): void;
  /** `result` passed through, observed from `started` (performance.now()) once it is there. */
  timed<T>(stmt: StatementSpec, started: number, result: Awaitable<T>): Awaitable<T>;
}

export class Tracing implements Spans, LaterSpans {
  /** The span of each request being answered, by its request id: its log lines carry the trace id (log.ts). */
  private readonly inFlight = new InFlight();
  private readonly propagator = new W3CTraceContextPropagator();
  private readonly routes = new WeakMap<object, Map<Attributes, Routed>>();
  private readonly healthRepeats: Repeats = new Map();
  private readonly addresses = new WeakMap<Socket, string>();

  /**
   * `leaves`: where a statement's span goes without a span object made for it, when the
   * exporter is the only sink; null when another sink (svc dev's trace view) needs the object.
   */
  constructor(
    private readonly tracer: Tracer,
    private readonly sinks: SpanSink,
    private readonly leaves: LeafSink | null = null,
  ) {}

  /**
   * Hot path when on: the request's span, child of the caller's `traceparent` when it sent one.
   * Its start and end are the handler's own readings of the clock (its log line's duration):
   * a reading costs about a hundred instructions, most of them Node's checks of the receiver.
   */
  started(req: IncomingMessage, path: string, requestId: string, startMs: number): RecordedSpan {
    const parent = req.headers.traceparent === undefined ? null : this.extract(req.headers);
    const method = req.method ?? "GET";
    const span = this.tracer.start(method, SpanKind.SERVER, BY_METHOD.get(method) ?? methodAttributes(method), parent, NO_LINKS, startMs);
    span.setAttribute(ATTR_CLIENT_ADDRESS, this.clientAddress(req.socket));
    this.inFlight.add(requestId, span);
    return span;
  }

  /**
   * The address of a connection's peer, read once a connection: Node's `remoteAddress` asks the
   * socket's handle each time through megamorphic loads, some 500 instructions a request.
   */
  private clientAddress(socket: Socket): string {
    let address = this.addresses.get(socket);
    if (address === undefined) {
      address = socket.remoteAddress ?? "";
      this.addresses.set(socket, address);
    }
    return address;
  }

  /** The request's answer at `endMs`: the name becomes `METHOD /route/template`, never the raw path. */
  answered(span: RecordedSpan, match: MatchResult, path: string, exact: boolean, method: string, res: ServerResponse, endMs: number): void {
    const status = res.statusCode;
    this.inFlight.remove(span);
    // Where the answer's later attributes repeat (a path that is no data): its route's template or /health.
    let repeats: Repeats | null = null;
    let urlPath: string;
    if (match !== null && "path" in match) {
      const routed = this.routed(match, method, span.attributes);
      span.updateName(routed.name);
      if (routed.attributes !== null) span.attributes = routed.attributes;
      else span.setAttribute(ATTR_HTTP_ROUTE, match.path);
      // A path without parameters is its route's template (`exact`: the handler compared them):
      // that string's encoding is kept (otlp.ts). Compared again here, a sliced path costs a runtime call.
      urlPath = exact ? match.path : path;
      if (exact && routed.attributes !== null) repeats = routed.repeats;
    } else {
      // The handler's own /health: a path that short is a flat copy, not a slice, and compares cheaply.
      const health = exact && path === HEALTH_PATH;
      urlPath = health ? HEALTH_PATH : path;
      if (health) repeats = this.healthRepeats;
    }
    if (repeats !== null && status < 500 && repeatedAnswer(span, repeats, urlPath, status)) {
      span.end(endMs);
      return;
    }
    span.setAttribute(ATTR_URL_PATH, urlPath);
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    // A 4xx is the client's doing; only a 5xx marks the server's span as failed (HTTP semconv).
    if (status >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(status));
      span.setStatus(StatusCode.ERROR);
    }
    span.end(endMs);
  }

  /**
   * The name `METHOD /route/template` and the start's attributes with `http.route`, made once per
   * route target and method: one object per route, which the exporter encodes once (otlp.ts).
   * A method outside HTTP's own keeps its attributes, `http.route` set on the span.
   */
  private routed(match: RouteMatch, method: string, started: Attributes): Routed {
    // By the start's attributes alone: one object per method of HTTP's own, and the method
    // named (a HEAD's is GET's) follows from it.
    let byStart = this.routes.get(match.target);
    if (byStart === undefined) {
      byStart = new Map();
      this.routes.set(match.target, byStart);
    }
    let routed = byStart.get(started);
    if (routed === undefined) {
      const name = flat(`${method} ${match.path}`);
      if (BY_METHOD.get(started[ATTR_HTTP_REQUEST_METHOD] as string) !== started) return { name, attributes: null, repeats: new Map() };
      routed = { name, attributes: Object.freeze({ ...started, [ATTR_HTTP_ROUTE]: match.path }), repeats: new Map() };
      byStart.set(started, routed);
    }
    return routed;
  }

  /** Runs `fn` in a child span of `db`'s, given `db` under the new span (Spans); with no span, just runs it. */
  within<T>(name: string, attributes: Attributes, db: Database, fn: (db: Database) => Awaitable<T>): Awaitable<T> {
    const parent = db.span;
    if (parent === undefined || db.under === undefined) return fn(db);
    const span = this.tracer.start(name, SpanKind.INTERNAL, attributes, parent as RecordedSpan);
    return this.ended(span, () => fn(db.under!(span)));
  }

  /**
   * The start of a span below `parent` that no span will be made below (a statement's), or -1
   * when there is none to record: no parent (work outside a request), or a trace not sampled.
   * A child of a span of this process is sampled as its parent is, whatever the sampler: a
   * parent-based one follows the parent, and the others decide by the trace id, which they
   * share. Nothing else is made until it ends (leafSettled): no code sees a leaf's ids.
   */
  leafStart(parent: CurrentSpan | undefined): number {
    return parent === undefined || !(parent as RecordedSpan).sampled ? -1 : performance.now();
  }

  /**
   * `result`, the leaf started at `startMs` ended once it is there (a promise's once it settles),
   * failed if it rejects. `timer`: the statement's duration series when metrics are on, given
   * the span's own readings of the clock (a statement read twice, not four times).
   */
  leafSettled<T>(parent: CurrentSpan, stmt: StatementSpec, shape: LeafShape, startMs: number, result: Awaitable<T>, timer: StatementTimer | null): Awaitable<T> {
    if (!(result instanceof Promise)) {
      this.leafEnded(parent as RecordedSpan, stmt, shape, startMs, timer);
      return result;
    }
    return result.then(
      (value) => {
        this.leafEnded(parent as RecordedSpan, stmt, shape, startMs, timer);
        return value;
      },
      (err: unknown) => {
        this.leafFailed(parent, stmt, shape, startMs, err, timer);
        throw err;
      },
    );
  }

  /** A leaf that threw or rejected: a span marked failed, as `ended` marks one; timed when `timer` is given. */
  leafFailed(parent: CurrentSpan, stmt: StatementSpec, shape: LeafShape, startMs: number, err: unknown, timer: StatementTimer | null): void {
    const span = this.tracer.start(shape.name, SpanKind.INTERNAL, shape.attributes, parent as RecordedSpan, NO_LINKS, startMs);
    failed(span, err);
    if (timer !== null) timer.observe(stmt, (span.endMs - startMs) / 1000);
  }

  /** A leaf that ended plainly, now: its ids drawn and it encoded at once, or, for other sinks, a span started at `startMs`. */
  private leafEnded(parent: RecordedSpan, stmt: StatementSpec, shape: LeafShape, startMs: number, timer: StatementTimer | null): void {
    const endMs = performance.now();
    if (timer !== null) timer.observe(stmt, (endMs - startMs) / 1000);
    const leaves = this.leaves;
    if (leaves === null) {
      this.tracer.start(shape.name, SpanKind.INTERNAL, shape.attributes, parent, NO_LINKS, startMs).end(endMs);
      return;
    }
    const at = this.tracer.drawSpanId();
    const ids = this.tracer.ids;
    leaves.leaf(parent, ids[at]!, ids[at + 1]!, shape, startMs, endMs);
  }

  /** `fn`'s result, `span` ended once it is there (a promise's once it settles), failed if `fn` throws or rejects. */
  ended<T>(span: RecordedSpan, fn: () => Awaitable<T>): Awaitable<T> {
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
  consumer<T>(name: string, attributes: Attributes, enqueuedBy: TraceCarrier | null, fn: (span: CurrentSpan) => Promise<T>): Promise<T> {
    const creator = enqueuedBy === null ? null : this.extract(carrierHeaders(enqueuedBy));
    const span = this.tracer.start(name, SpanKind.CONSUMER, attributes, null, creator === null ? [] : [creator]);
    return fn(span).then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        span.setStatus(StatusCode.ERROR, err instanceof Error ? err.message : String(err));
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
    const span = this.tracer.start(name, SpanKind.CLIENT, attributes, parent === null ? null : this.extract(carrierHeaders(parent)));
    const headers: Record<string, string> = {};
    const carrier = carrierOf(span);
    if (carrier !== null) {
      headers.traceparent = carrier.traceparent;
      if (carrier.tracestate !== null) headers.tracestate = carrier.tracestate;
    }
    try {
      const outcome = await fn(headers);
      if (outcome.status !== null) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.status);
      if (outcome.status === null || outcome.status >= 400) {
        // `_OTHER`: the conventions' value for a failure that is no status (timeout, refused connection).
        span.setAttribute(ATTR_ERROR_TYPE, outcome.status === null ? "_OTHER" : String(outcome.status));
        span.setStatus(StatusCode.ERROR, outcome.error ?? undefined);
      }
      return outcome;
    } finally {
      span.end();
    }
  }

  /** A valid `traceparent` (and its `tracestate`) as a parent; null when there is none or it is malformed. */
  private extract(headers: Readonly<Record<string, string | string[] | undefined>>): ParentContext | null {
    const context = trace.getSpanContext(this.propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter));
    return context === undefined ? null : context;
  }

  /** The trace id of the request being answered under `requestId`, for its log lines. */
  traceIdOf(requestId: string): string | undefined {
    return this.inFlight.find(requestId)?.traceId;
  }

  /** Sends what is still buffered, then stops (a graceful shutdown). */
  async close(): Promise<void> {
    await this.sinks.forceFlush().catch(() => undefined);
    await this.sinks.shutdown().catch(() => undefined);
  }
}

/**
 * Gives a request span answered `status` at `urlPath`, a path that is no data, the kept list of
 * its later attributes (its client's address, set at start, the path and the status); false,
 * and nothing done, when the span has other later attributes or the bounds are reached.
 */
function repeatedAnswer(span: RecordedSpan, repeats: Repeats, urlPath: string, status: number): boolean {
  const later = span.later;
  if (later === null || later.length !== 2 || later[0] !== ATTR_CLIENT_ADDRESS) return false;
  const address = later[1]!;
  let byAddress = repeats.get(status);
  if (byAddress === undefined) {
    if (repeats.size >= MAX_STATUSES) return false;
    byAddress = new Map();
    repeats.set(status, byAddress);
  }
  let repeated = byAddress.get(address);
  if (repeated === undefined) {
    if (byAddress.size >= MAX_ADDRESSES) byAddress.clear();
    repeated = new RepeatedLater(Object.freeze([ATTR_CLIENT_ADDRESS, address, ATTR_URL_PATH, urlPath, ATTR_HTTP_RESPONSE_STATUS_CODE, status]));
    byAddress.set(address, repeated);
  }
  span.repeat(repeated);
  return true;
}

function carrierHeaders(carrier: TraceCarrier): Record<string, string> {
  return carrier.tracestate === null ? { traceparent: carrier.traceparent } : { traceparent: carrier.traceparent, tracestate: carrier.tracestate };
}

function failed(span: RecordedSpan, err: unknown): void {
  const status = (err as { status?: unknown }).status;
  // An HttpError below 500 (a validation error, a `fail 404`) is an answer, not a failure.
  if (!(typeof status === "number" && status < 500)) {
    span.setStatus(StatusCode.ERROR, err instanceof Error ? err.message : String(err));
    if (err instanceof Error) span.setAttribute(ATTR_ERROR_TYPE, err.name);
  }
  span.end();
}
