// The last few hundred requests' and job runs' spans, in memory, for `svc dev`'s trace view
// (compiler/dev/traces.ts): a sink of ended spans that groups finished spans by trace and keeps a
// trace once its request span (or job run span) has ended, dropping the oldest past the limit.

import type { SpanSink } from "./export.js";
import { type RecordedSpan, SpanKind, StatusCode } from "./span.js";

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

export class RecentTraces implements SpanSink {
  /** Spans of requests not yet answered, by trace id. */
  private readonly open = new Map<string, RecordedSpan[]>();
  private readonly done: RecentTrace[] = [];

  constructor(readonly limit = 300) {}

  ended(span: RecordedSpan): void {
    const traceId = span.traceId;
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

function view(traceId: string, root: RecordedSpan, spans: readonly RecordedSpan[]): RecentTrace {
  const ordered = treeOrder(root, spans);
  const status = root.attribute("http.response.status_code");
  return {
    traceId,
    name: root.name,
    status: typeof status === "number" ? status : null,
    startedAt: performance.timeOrigin + root.startMs,
    durationMs: root.endMs - root.startMs,
    spans: ordered.map((s) => ({
      spanId: s.spanId,
      parentId: s === root ? null : s.parentSpanId,
      name: s.name,
      startMs: s.startMs - root.startMs,
      durationMs: s.endMs - s.startMs,
      attributes: s.allAttributes(),
      failed: s.statusCode === StatusCode.ERROR,
    })),
  };
}

/**
 * Each span followed by its children, these in the order they started: a child can read the
 * same clock tick as its parent, so start times alone do not put a parent first.
 */
function treeOrder(root: RecordedSpan, spans: readonly RecordedSpan[]): RecordedSpan[] {
  const children = new Map<string, RecordedSpan[]>();
  for (const span of spans) {
    if (span === root) continue;
    const parent = span.parentSpanId ?? "";
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [span]);
    else list.push(span);
  }
  const out: RecordedSpan[] = [];
  const visit = (span: RecordedSpan): void => {
    out.push(span);
    const below = children.get(span.spanId) ?? [];
    below.sort((a, b) => a.startMs - b.startMs);
    for (const child of below) visit(child);
  };
  visit(root);
  return out;
}
