// The spans of the requests being answered, by request id, for their log lines' trace id
// (log.ts). Two arrays, each span knowing its slot: adding and removing write a few slots and
// allocate nothing once the arrays have grown to the requests in flight. A Map did the same
// with a set and a delete per request, and its table, rebuilt again and again, was promoted
// to the old generation and collected there: major collections a traced server did not
// otherwise need (bench:observability, get_task).

import type { RecordedSpan } from "./span.js";

export class InFlight {
  private readonly ids: string[] = [];
  private readonly spans: RecordedSpan[] = [];

  add(requestId: string, span: RecordedSpan): void {
    span.slot = this.spans.length;
    this.ids.push(requestId);
    this.spans.push(span);
  }

  /** The span leaves; the last one takes its slot. */
  remove(span: RecordedSpan): void {
    const at = span.slot;
    if (at < 0 || this.spans[at] !== span) return;
    const last = this.spans.length - 1;
    const moved = this.spans[last]!;
    this.spans[at] = moved;
    this.ids[at] = this.ids[last]!;
    moved.slot = at;
    this.spans.pop();
    this.ids.pop();
    span.slot = -1;
  }

  /** A span answering under `requestId` (a client may give concurrent requests one id: any of theirs). */
  find(requestId: string): RecordedSpan | undefined {
    const ids = this.ids;
    for (let i = 0; i < ids.length; i++) if (ids[i] === requestId) return this.spans[i];
    return undefined;
  }
}
