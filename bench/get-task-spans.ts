// A traced get_task request's spans as runtime/traces makes them for the task tracker (the
// request's, its query's, the query's statement's), for the benches that count spans without
// a server around them: bench/traces-encoder.ts and bench/trace-export.ts. Each goes to the
// encoder as the server hands it over with the exporter its only sink: the request's and the
// query's as span objects, the statement's by its fields (Tracing.leafSettled).

import type { StatementSpec } from "../runtime/contract/index.js";
import type { OtlpEncoder } from "../runtime/traces/otlp.js";
import { samplerFromEnv } from "../runtime/traces/sampler.js";
import { LeafShape, RepeatedLater, SpanKind, Tracer } from "../runtime/traces/span.js";
import { Tracing } from "../runtime/traces/tracing.js";

const request = Object.freeze({ "http.request.method": "GET", "url.scheme": "http" });
// The route's attributes, which the request's span is given once routed (tracing.ts).
const routed = Object.freeze({ ...request, "http.route": "/api/task_tracker:get_task" });
const query = { "svc.endpoint": "task_tracker.get_task", "svc.endpoint.kind": "query" };
const statement = new LeafShape("task_tracker.get_task", {
  "db.system": "sqlite",
  "db.system.name": "sqlite",
  "db.operation.name": "SELECT",
  "svc.statement": "task_tracker.get_task",
  "db.query.text": "SELECT id, title, description, status, priority, assignee, created_at, completed_at FROM task WHERE id = ?",
});

/** The statement, by name: all a span takes of it. */
const statementSpec = { name: "task_tracker.get_task" } as StatementSpec;

/** The later attributes of the route's answers to one client, kept by the server (tracing.ts: repeatedAnswer). */
const answers = new RepeatedLater(
  Object.freeze(["client.address", "127.0.0.1", "url.path", routed["http.route"], "http.response.status_code", 200]),
);

/** Makes one request's three spans a call, in the server's order, into `encoder`; `added` after each span. */
export function getTaskSpans(encoder: OtlpEncoder, added: () => void = () => undefined): () => void {
  const tracer = new Tracer(samplerFromEnv({}), (span) => {
    encoder.add(span);
    added();
  });
  const sinks = { ended: () => undefined, forceFlush: async () => undefined, shutdown: async () => undefined };
  const leaves = {
    leaf: (...leaf: Parameters<OtlpEncoder["addLeaf"]>) => {
      encoder.addLeaf(...leaf);
      added();
    },
  };
  const tracing = new Tracing(tracer, sinks, leaves);
  return () => {
    const r = tracer.start("GET", SpanKind.SERVER, request, null);
    r.setAttribute("client.address", "127.0.0.1");
    const q = tracer.start("query task_tracker.get_task", SpanKind.INTERNAL, query, r);
    tracing.leafSettled(q, statementSpec, statement, tracing.leafStart(q), undefined, null);
    q.end();
    r.updateName("GET /api/task_tracker:get_task");
    r.attributes = routed;
    r.repeat(answers);
    r.end();
  };
}
