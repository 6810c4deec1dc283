// The last few hundred requests' and job runs' spans, in memory, for `svc dev`'s trace view
// (compiler/dev/traces.ts): a span processor that groups finished spans by trace and keeps a
// trace once its request span (or job run span) has ended, dropping the oldest past the limit.

import { type Context, SpanKind } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base";

/** One span as the view draws it: times in ms from the request's start. */
export interface ViewSpan {
  spanId: string;
  parentId: string | null;
  name: string;
  startMs: number;
  durationMs: number;
  attributes: Record<string, unknown>;
  failed: boolean;
}

/** One request's trace, or one job run's. */
export interface RecentTrace {
  traceId: string;
  /** The root span's name: `GET /v1/tasks/:id`, `job mail.send_digest`. */
  name: string;
  /** The HTTP status; null for a job run. */
  status: number | null;
  /** Wall-clock start, ms since the epoch. */
  startedAt: number;
  durationMs: number;
  /** In start order, the request span first. */
  spans: ViewSpan[];
}

const ms = (time: [number, number]): number => time[0] * 1000 + time[1] / 1e6;

export class RecentTraces implements SpanProcessor {
  /** Spans of requests not yet answered, by trace id. */
  private readonly open = new Map<string, ReadableSpan[]>();
  private readonly done: RecentTrace[] = [];

  constructor(readonly limit = 300) {}

  onStart(_span: Span, _context: Context): void {}

  onEnd(span: ReadableSpan): void {
    const traceId = span.spanContext().traceId;
    let spans = this.open.get(traceId);
    if (spans === undefined) {
      spans = [];
      this.open.set(traceId, spans);
      // A trace whose request never ends (a crash) must not grow without bound either.
      if (this.open.size > this.limit) this.open.delete(this.open.keys().next().value!);
    }
    spans.push(span);
    // The request span (SERVER kind) or a job run's (CONSUMER) ends last: the trace is whole.
    if (span.kind === SpanKind.SERVER || span.kind === SpanKind.CONSUMER) {
      this.open.delete(traceId);
      this.done.push(view(traceId, span, spans));
      if (this.done.length > this.limit) this.done.shift();
    }
  }

  /** Newest first. */
  list(): readonly RecentTrace[] {
    return [...this.done].reverse();
  }

  get(traceId: string): RecentTrace | undefined {
    return this.done.find((t) => t.traceId === traceId);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function view(traceId: string, root: ReadableSpan, spans: readonly ReadableSpan[]): RecentTrace {
  const origin = ms(root.startTime);
  const ordered = treeOrder(root, spans);
  const status = root.attributes["http.response.status_code"];
  return {
    traceId,
    name: root.name,
    status: typeof status === "number" ? status : null,
    startedAt: origin,
    durationMs: ms(root.duration),
    spans: ordered.map((s) => ({
      spanId: s.spanContext().spanId,
      parentId: s === root ? null : (s.parentSpanContext?.spanId ?? null),
      name: s.name,
      startMs: ms(s.startTime) - origin,
      durationMs: ms(s.duration),
      attributes: { ...s.attributes },
      failed: s.status.code === 2,
    })),
  };
}

/**
 * Each span followed by its children, these in the order they started: a child can read the
 * same clock tick as its parent, so start times alone do not put a parent first.
 */
function treeOrder(root: ReadableSpan, spans: readonly ReadableSpan[]): ReadableSpan[] {
  const children = new Map<string, ReadableSpan[]>();
  for (const span of spans) {
    if (span === root) continue;
    const parent = span.parentSpanContext?.spanId ?? "";
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [span]);
    else list.push(span);
  }
  const out: ReadableSpan[] = [];
  const visit = (span: ReadableSpan): void => {
    out.push(span);
    const below = children.get(span.spanContext().spanId) ?? [];
    below.sort((a, b) => ms(a.startTime) - ms(b.startTime));
    for (const child of below) visit(child);
  };
  visit(root);
  return out;
}
