// OpenTelemetry traces (docs/operations.md, Traces): an OTLP/HTTP receiver (otlp.ts) on 127.0.0.1
// decodes what the server exports (OTLP's protobuf encoding) and the test checks span names,
// attributes, parent/child links, the caller's `traceparent` carried on, and the trace id in
// the request's log line; a page's render and jq loader, and a webhook's signature check, are
// spans below their request.

import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { EXAMPLE_ENV, removeDir, startServer, type TestServer } from "../support/server.js";
import { buildServer, logLines, postJson, raw, request, waitForLog } from "./support.js";
import { attrs, type OtlpSpan, Receiver } from "./otlp.js";

let dir: string;
let receiver: Receiver;
let server: TestServer;

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

beforeAll(async () => {
  dir = await buildServer();
  receiver = new Receiver();
  const port = await receiver.start();
  server = await startServer(dir, ["--db", join(dir, "traces.db")], {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_TRACES_SAMPLER: "always_on",
    OTEL_SERVICE_NAME: "tasks-under-test",
    OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test",
    // Export each batch soon after its spans end, not after the default 5 s.
    OTEL_BSP_SCHEDULE_DELAY: "20",
  });
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  receiver?.server.close();
  removeDir(dir);
});

test("a request, its query and its statement are spans, children of the caller's traceparent", async () => {
  const created = await raw(server.port, postJson("/v1/tasks", JSON.stringify({ title: "traced" }), { Connection: "close" }));
  expect(created.status).toBe(200);
  const id = (created.json as { data: { id: string } }).data.id;
  const mark = server.output.length;
  const answer = await raw(server.port, request("GET", `/v1/tasks/${id}`, { Connection: "close", traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: "vendor=abc" }));
  expect(answer.status).toBe(200);

  await receiver.until(() => receiver.spans.filter((s) => s.traceId === TRACE_ID).length >= 3);
  const spans = receiver.spans.filter((s) => s.traceId === TRACE_ID);
  const requestSpan = spans.find((s) => s.name === "GET /v1/tasks/:id")!;
  expect(requestSpan).toBeDefined();
  // The caller's span is the parent; SERVER kind (2); HTTP semantic conventions.
  expect(requestSpan.parentSpanId).toBe(PARENT_ID);
  expect(requestSpan.kind).toBe(2);
  expect(attrs(requestSpan.attributes)).toMatchObject({
    "http.request.method": "GET",
    "http.route": "/v1/tasks/:id",
    "http.response.status_code": 200,
    "url.path": `/v1/tasks/${id}`,
  });
  const query = spans.find((s) => s.name === "query task_tracker.get_task")!;
  expect(query.parentSpanId).toBe(requestSpan.spanId);
  const statement = spans.find((s) => s.parentSpanId === query.spanId)!;
  expect(statement).toBeDefined();
  const statementAttrs = attrs(statement.attributes);
  expect(statementAttrs["db.system"]).toBe("sqlite");
  expect(statementAttrs["db.system.name"]).toBe("sqlite");
  expect(statementAttrs["svc.statement"]).toBe(statement.name);
  expect(statement.name).toMatch(/^task_tracker\./);
  // Never an argument value: the id is in the request's path only.
  for (const span of [query, statement]) expect(JSON.stringify(span)).not.toContain(id);

  // The resource: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES over the project's name.
  expect(receiver.resources[0]).toMatchObject({ "service.name": "tasks-under-test", "service.version": "0.1.0", "deployment.environment.name": "test" });
  expect(receiver.paths[0]).toBe("POST /v1/traces application/x-protobuf");

  // The request's log line carries the trace id.
  const line = await waitForLog(server, (l) => l.msg === "request" && l.path === `/v1/tasks/${id}`, 5000, mark);
  expect(line.trace_id).toBe(TRACE_ID);
});

test("without a traceparent a request starts its own trace; an action's statements are its children", async () => {
  const mark = server.output.length;
  const created = await raw(server.port, postJson("/api/task_tracker:create_task", JSON.stringify({ title: "root" }), { Connection: "close" }));
  expect(created.status).toBe(200);
  const line = await waitForLog(server, (l) => l.msg === "request" && l.path === "/api/task_tracker:create_task", 5000, mark);
  const traceId = line.trace_id as string;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  await receiver.until(() => receiver.spans.some((s) => s.traceId === traceId && s.name.startsWith("action ")));
  const spans = receiver.spans.filter((s) => s.traceId === traceId);
  const root = spans.find((s) => s.name === "POST /api/task_tracker:create_task")!;
  expect(root.parentSpanId ?? "").toBe("");
  // A path that is its route's template: the same attributes as any other request's.
  expect(attrs(root.attributes)).toMatchObject({ "http.route": "/api/task_tracker:create_task", "url.path": "/api/task_tracker:create_task", "http.request.method": "POST" });
  const action = spans.find((s) => s.name === "action task_tracker.create_task")!;
  expect(action.parentSpanId).toBe(root.spanId);
  await receiver.until(() => receiver.spans.some((s) => s.traceId === traceId && s.parentSpanId === action.spanId));
  const insert = receiver.spans.find((s) => s.traceId === traceId && s.parentSpanId === action.spanId)!;
  expect(attrs(insert.attributes)["db.operation.name"]).toBe("INSERT");
  expect(logLines(server, mark).filter((l) => l.msg === "request").every((l) => typeof l.trace_id === "string")).toBe(true);
});

test("a 404 is named by its method alone: no raw path becomes a span name", async () => {
  const mark = server.output.length;
  expect((await raw(server.port, request("GET", "/no/such/thing", { Connection: "close" }))).status).toBe(404);
  const line = await waitForLog(server, (l) => l.msg === "request" && l.path === "/no/such/thing", 5000, mark);
  await receiver.until(() => receiver.spans.some((s) => s.traceId === line.trace_id));
  const span = receiver.spans.find((s) => s.traceId === line.trace_id)!;
  expect(span.name).toBe("GET");
  expect(attrs(span.attributes)["http.response.status_code"]).toBe(404);
  expect(attrs(span.attributes)["url.path"]).toBe("/no/such/thing");
  expect(attrs(span.attributes)["http.route"]).toBeUndefined();
});

test("/health is a request span of its own, its path as asked, with or without a query", async () => {
  const mark = server.output.length;
  for (const target of ["/health", "/health?probe=1"]) expect((await raw(server.port, request("GET", target, { Connection: "close" }))).status).toBe(200);
  const healthLines = () => logLines(server, mark).filter((l) => l.msg === "request" && l.path === "/health");
  await receiver.until(() => healthLines().length === 2);
  const lines = healthLines();
  await receiver.until(() => lines.every((line) => receiver.spans.some((s) => s.traceId === line.trace_id)));
  for (const line of lines) {
    const span = receiver.spans.find((s) => s.traceId === line.trace_id)!;
    expect(span.name).toBe("GET");
    expect(attrs(span.attributes)).toMatchObject({ "url.path": "/health", "http.response.status_code": 200 });
  }
});

test("concurrent requests keep their own spans: each action and statement is in its own request's trace", async () => {
  const mark = server.output.length;
  const traceIds = Array.from({ length: 16 }, (_, i) => (i + 1).toString(16).padStart(2, "0").repeat(16));
  const answers = await Promise.all(
    traceIds.map((traceId, i) =>
      raw(server.port, postJson("/api/task_tracker:create_task", JSON.stringify({ title: `concurrent ${i}` }), { Connection: "close", traceparent: `00-${traceId}-${PARENT_ID}-01` })),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(traceIds.map(() => 200));
  const ofTrace = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);
  await receiver.until(() => traceIds.every((t) => ofTrace(t).length >= 3));
  for (const traceId of traceIds) {
    const spans = ofTrace(traceId);
    // The request, its action and the action's INSERT: no span of another request strayed in, none of these out.
    expect(spans).toHaveLength(3);
    const root = spans.find((s) => s.parentSpanId === PARENT_ID)!;
    const action = spans.find((s) => s.name === "action task_tracker.create_task")!;
    expect(action.parentSpanId).toBe(root.spanId);
    const insert = spans.find((s) => s.parentSpanId === action.spanId)!;
    expect(attrs(insert.attributes)["db.operation.name"]).toBe("INSERT");
  }
  // Each request line names its own trace.
  const lines = logLines(server, mark).filter((l) => l.msg === "request" && l.path === "/api/task_tracker:create_task");
  expect(lines.map((l) => l.trace_id).sort()).toEqual([...traceIds].sort());
});

/** The spans of the one request whose log line is the next at `path` after `mark`, once `ready` holds for them. */
async function spansOf(path: string, mark: number, ready: (spans: OtlpSpan[]) => boolean): Promise<OtlpSpan[]> {
  const line = await waitForLog(server, (l) => l.msg === "request" && l.path === path, 5000, mark);
  const ofTrace = () => receiver.spans.filter((s) => s.traceId === line.trace_id);
  await receiver.until(() => ready(ofTrace()));
  return ofTrace();
}

test("a page is a span below its request, with its route data's statement and its jq loader below it", async () => {
  const mark = server.output.length;
  const answer = await raw(server.port, request("GET", "/tasks", { Connection: "close", Accept: "text/html" }));
  expect(answer.status).toBe(200);
  const spans = await spansOf("/tasks", mark, (got) => got.some((s) => s.name === "GET /tasks") && got.some((s) => s.name === "jq /tasks"));
  const root = spans.find((s) => s.name === "GET /tasks")!;
  const page = spans.find((s) => s.name === "page /tasks")!;
  expect(page.parentSpanId).toBe(root.spanId);
  expect(attrs(page.attributes)).toMatchObject({ "svc.page": "/tasks", "svc.page.source": "app/tasks/page.html" });
  const loader = spans.find((s) => s.name === "jq /tasks")!;
  expect(loader.parentSpanId).toBe(page.spanId);
  expect(["compiled", "jq-web"]).toContain(attrs(loader.attributes)["svc.jq.engine"]);
  // The route data's statements run inside the page's span.
  expect(spans.some((s) => s.parentSpanId === page.spanId && attrs(s.attributes)["svc.statement"] !== undefined)).toBe(true);
});

test("a webhook's signature check is a span: a good signature passes, a forged one marks it failed", async () => {
  const body = JSON.stringify({ zen: "traced" });
  const signature = `sha256=${createHmac("sha256", "dev-secret").update(body).digest("hex")}`;
  const headers = { Connection: "close", "X-GitHub-Event": "ping", "X-GitHub-Delivery": "traced-1" };
  const verify = "webhook verify task_tracker.github_issues";
  for (const [sig, status, code] of [
    [signature, 200, 0],
    [`sha256=${"0".repeat(64)}`, 401, 2],
  ] as const) {
    const mark = server.output.length;
    expect((await raw(server.port, postJson("/webhooks/github", body, { ...headers, "X-Hub-Signature-256": sig }))).status).toBe(status);
    const spans = await spansOf("/webhooks/github", mark, (got) => got.some((s) => s.name === verify) && got.some((s) => s.kind === 2));
    const root = spans.find((s) => s.kind === 2)!;
    const check = spans.find((s) => s.name === verify)!;
    expect(check.parentSpanId).not.toBe(undefined);
    // Below the request (through the webhook's action span).
    const parents = new Map(spans.map((s) => [s.spanId, s.parentSpanId]));
    let up = check.parentSpanId;
    while (up !== undefined && up !== root.spanId) up = parents.get(up);
    expect(up).toBe(root.spanId);
    expect(attrs(check.attributes)).toMatchObject({ "svc.webhook": "task_tracker.github_issues", "svc.webhook.provider": "github" });
    // OTLP status: 0 unset, 2 error.
    expect(check.status?.code ?? 0).toBe(code);
    // Every line of the request carries its trace id: the refusal's warning too.
    if (status === 401) {
      const refused = await waitForLog(server, (l) => l.msg === "webhook delivery rejected", 5000, mark);
      expect(refused.trace_id).toBe(check.traceId);
    }
  }
});

test("a protocol other than http/protobuf, or an unknown sampler, stops the start with the variable named and no stack", () => {
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [join(dir, "server.js"), "--listen", "127.0.0.1:0", "--workers", "1", "--db", join(dir, "refused.db")], {
      env: { ...EXAMPLE_ENV, ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", ...env },
      encoding: "utf8",
      timeout: 30_000,
    });
  for (const [env, said] of [
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, 'OTEL_EXPORTER_OTLP_PROTOCOL "grpc"'],
    [{ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" }, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL "http/json"'],
    [{ OTEL_TRACES_SAMPLER: "sometimes" }, 'OTEL_TRACES_SAMPLER "sometimes"'],
  ] as const) {
    const run = start(env);
    expect(run.status).not.toBe(0);
    const output = run.stdout + run.stderr;
    expect(output).toContain(said);
    expect(output).not.toMatch(/\n\s+at /);
  }
});
