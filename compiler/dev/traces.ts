// `svc dev`'s trace view (docs/dev.md): `/_svc/traces` lists the last few hundred requests, and
// `/_svc/traces/<trace id>` draws one as a waterfall: the request, its action or query, each
// statement with its time, and the answer's status. The spans come from the same tracing a
// built server exports (runtime/traces), kept in memory by RecentTraces.

import type { ServerResponse } from "node:http";
import type { RecentTrace, RecentTraces } from "../../runtime/traces/recent.js";
import { renderTemplate } from "../templates.js";

export const TRACES_PATH = "/_svc/traces";

const round = (n: number): string => (n >= 10 ? n.toFixed(1) : n.toFixed(2));

/** Answers a GET under /_svc/traces; false for any other path. */
export function answerTraces(res: ServerResponse, path: string, recent: RecentTraces): boolean {
  if (path !== TRACES_PATH && !path.startsWith(`${TRACES_PATH}/`)) return false;
  const id = path.slice(TRACES_PATH.length + 1);
  if (id === "") return send(res, 200, renderTemplate("dev/traces.html", { traces: recent.list().map(row), limit: recent.limit }));
  const trace = /^[0-9a-f]{32}$/.test(id) ? recent.get(id) : undefined;
  if (trace === undefined) return send(res, 404, renderTemplate("dev/traces.html", { traces: [], limit: recent.limit }));
  return send(res, 200, renderTemplate("dev/traces.html", { trace: waterfall(trace) }));
}

function row(trace: RecentTrace) {
  // A job run has no HTTP status: its outcome instead.
  const failed = trace.spans[0]?.failed === true;
  return {
    traceId: trace.traceId,
    name: trace.name,
    status: trace.status ?? (failed ? "failed" : "done"),
    statusClass: trace.status === null ? (failed ? 5 : 2) : Math.floor(trace.status / 100),
    duration: round(trace.durationMs),
    spanCount: trace.spans.length,
    at: new Date(trace.startedAt).toISOString().slice(11, 23),
  };
}

function waterfall(trace: RecentTrace) {
  // The lane spans the whole trace, not the root alone: a child can end after its root (a
  // statement span settles after the answer was written), and its bar must still fit.
  const total = Math.max(trace.durationMs, ...trace.spans.map((s) => s.startMs + s.durationMs), 0.001);
  const depth = new Map<string, number>();
  return {
    ...row(trace),
    spans: trace.spans.map((span) => {
      const level = span.parentId === null ? 0 : (depth.get(span.parentId) ?? 0) + 1;
      depth.set(span.spanId, level);
      const kind = span.parentId === null ? "root" : "svc.statement" in span.attributes ? "statement" : "call";
      return {
        name: span.name,
        kind,
        failed: span.failed,
        indent: 0.6 + level * 1.2,
        start: round(span.startMs),
        duration: round(span.durationMs),
        ...bar(span.startMs, span.durationMs, total),
      };
    }),
  };
}

/** A bar's place in its lane, in percent: at least visible, and never past the lane's end. */
function bar(startMs: number, durationMs: number, total: number): { left: string; width: string } {
  const width = Math.min(100, Math.max(0.3, (durationMs / total) * 100));
  const left = Math.min(Math.max(0, (startMs / total) * 100), 100 - width);
  return { left: left.toFixed(2), width: width.toFixed(2) };
}

function send(res: ServerResponse, status: number, html: string): true {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(html) });
  res.end(html);
  return true;
}
