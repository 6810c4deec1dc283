// The spans of the requests being answered, by request id, for their log lines' trace id
// (log.ts). One array, each span knowing its slot and its request's id: adding and removing
// write a slot or two and allocate nothing once the array has grown to the requests in flight.
// A Map did the same with a set and a delete per request, and its table, rebuilt again and
// again, was promoted to the old generation and collected there: major collections a traced
// server did not otherwise need (bench:observability, get_task). The array is old and the
// spans young, so each slot written costs a write barrier's slow path: the ids live on the
// spans, not in an array of their own that doubled them.

import type { RecordedSpan } from "./span.js";

export class InFlight {
  private readonly spans: RecordedSpan[] = [];

  add(requestId: string, span: RecordedSpan): void {
    span.slot = this.spans.length;
    span.requestId = requestId;
    this.spans.push(span);
  }

  /** The span leaves; the last one takes its slot. */
  remove(span: RecordedSpan): void {
    const at = span.slot;
    if (at < 0 || this.spans[at] !== span) return;
    const last = this.spans.length - 1;
    const moved = this.spans[last]!;
    this.spans[at] = moved;
    moved.slot = at;
    this.spans.pop();
    span.slot = -1;
  }

  /** A span answering under `requestId` (a client may give concurrent requests one id: any of theirs). */
  find(requestId: string): RecordedSpan | undefined {
    const spans = this.spans;
    for (let i = 0; i < spans.length; i++) if (spans[i]!.requestId === requestId) return spans[i];
    return undefined;
  }
}
