// A traced get_task request's spans as runtime/traces makes them for the task tracker (the
// request's, its query's, the query's statement's), for the benches that count spans without
// a server around them: bench/traces-encoder.ts and bench/trace-export.ts.

import { RepeatedLater, SpanKind, type Tracer } from "../runtime/traces/span.js";

const request = Object.freeze({ "http.request.method": "GET", "url.scheme": "http" });
// The route's attributes, which the request's span is given once routed (tracing.ts).
const routed = Object.freeze({ ...request, "http.route": "/api/task_tracker:get_task" });
const query = { "svc.endpoint": "task_tracker.get_task", "svc.endpoint.kind": "query" };
const statement = {
  "db.system": "sqlite",
  "db.system.name": "sqlite",
  "db.operation.name": "SELECT",
  "svc.statement": "task_tracker.get_task",
  "db.query.text": "SELECT id, title, description, status, priority, assignee, created_at, completed_at FROM task WHERE id = ?",
};

/** The later attributes of the route's answers to one client, kept by the server (tracing.ts: repeatedAnswer). */
const answers = new RepeatedLater(
  Object.freeze(["client.address", "127.0.0.1", "url.path", routed["http.route"], "http.response.status_code", 200]),
);

/** One request's three spans, started, given their later attributes and ended, in the server's order. */
export function getTaskSpans(tracer: Tracer): void {
  const r = tracer.start("GET", SpanKind.SERVER, request, null);
  r.setAttribute("client.address", "127.0.0.1");
  const q = tracer.start("query task_tracker.get_task", SpanKind.INTERNAL, query, r);
  const s = tracer.start("task_tracker.get_task", SpanKind.INTERNAL, statement, q);
  s.end();
  q.end();
  r.updateName("GET /api/task_tracker:get_task");
  r.attributes = routed;
  r.repeat(answers);
  r.end();
}
