// The one hook of the request handler (server.ts) for metrics and traces: called as a request
// starts and once it is answered, and asked whether a path is /metrics. The handler holds
// null instead when neither is on, so a request then pays one null check at each place.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Metrics } from "../metrics/index.js";
import type { MatchResult } from "../core/router.js";
import type { RecordedSpan, Tracing } from "../traces/index.js";

export class Observer {
  constructor(
    readonly metrics: Metrics | null,
    readonly tracing: Tracing | null,
  ) {}

  /** Hot path when on: the request counts as in flight; its span starts at `startMs`, the handler's reading (null when not traced). */
  started(req: IncomingMessage, path: string, requestId: string, startMs: number): RecordedSpan | null {
    if (this.metrics !== null) this.metrics.http.inFlight++;
    return this.tracing === null ? null : this.tracing.started(req, path, requestId, startMs);
  }

  /**
   * Hot path when on: `method` is the request's with HEAD read as GET; `match` what the route
   * table said; `exact` that the path is the route's template, as the handler found it.
   */
  answered(span: RecordedSpan | null, match: MatchResult, path: string, exact: boolean, method: string, res: ServerResponse, durationMs: number): void {
    if (this.metrics !== null) this.metrics.http.answered(match, path, method, res, durationMs / 1000);
    if (span !== null) this.tracing!.answered(span, match, path, exact, method, res, span.startMs + durationMs);
  }

  /** Whether `path` is /metrics on the server's own address. */
  serves(path: string): boolean {
    return this.metrics !== null && this.metrics.onServerAddress && path === this.metrics.path;
  }

  scrape(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.metrics!.scrape(req, res);
  }
}
