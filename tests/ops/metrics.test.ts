// GET /metrics (docs/operations.md, Metrics): counts scraped against the requests sent, in one
// process and across `--workers 2`; OpenMetrics on request; a scrape a proxy forwarded is
// refused without a token; `--metrics-listen` serves /metrics on its own address only.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { removeDir, startServer, type TestServer } from "../support/server.js";
import { buildServer, postJson, raw, request } from "./support.js";
import { Receiver } from "./otlp.js";

let dir: string;

beforeAll(async () => {
  dir = await buildServer();
});

afterAll(() => removeDir(dir));

/** Samples of the Prometheus text format: `name{labels} value` → value, by the line's name and labels. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

async function scrape(port: number, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

/** One request on its own connection (with workers, each may reach another worker). */
function oneShot(port: number, method: string, path: string, body?: string, extra: Record<string, string> = {}) {
  const bytes = body === undefined ? request(method, path, { Connection: "close", ...extra }) : postJson(path, body, { Connection: "close", ...extra });
  return raw(port, bytes, 5000);
}

const LIST = 'route="/api/task_tracker:list_tasks",method="GET",status_class="2xx"';

describe("one process", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(dir, ["--db", join(dir, "metrics.db"), "--metrics"]);
  });

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  test("counts each request by route template, method and status class", async () => {
    for (let i = 0; i < 5; i++) expect((await oneShot(server.port, "GET", "/api/task_tracker:list_tasks?limit=2")).status).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await oneShot(server.port, "POST", "/v1/tasks", JSON.stringify({ title: `t${i}` }));
      expect(created.status).toBe(200);
      ids.push((created.json as { data: { id: string } }).data.id);
    }
    // Three raw paths, one template.
    for (const id of ids) expect((await oneShot(server.port, "GET", `/v1/tasks/${id}`)).status).toBe(200);
    expect((await oneShot(server.port, "GET", "/no/such/path")).status).toBe(404);
    expect((await oneShot(server.port, "GET", "/another/missing")).status).toBe(404);
    expect((await oneShot(server.port, "POST", "/v1/tasks", "{}")).status).toBe(400);

    const { status, type, text } = await scrape(server.port);
    expect(status).toBe(200);
    expect(type).toBe("text/plain; version=0.0.4; charset=utf-8");
    const s = samples(text);
    expect(s.get(`svc_http_requests_total{${LIST}}`)).toBe(5);
    expect(s.get(`svc_http_request_duration_seconds_count{${LIST}}`)).toBe(5);
    expect(s.get(`svc_http_request_duration_seconds_bucket{${LIST},le="+Inf"}`)).toBe(5);
    expect(s.get('svc_http_requests_total{route="/v1/tasks",method="POST",status_class="2xx"}')).toBe(3);
    expect(s.get('svc_http_requests_total{route="/v1/tasks",method="POST",status_class="4xx"}')).toBe(1);
    expect(s.get('svc_http_requests_total{route="/v1/tasks/:id",method="GET",status_class="2xx"}')).toBe(3);
    expect(s.get('svc_http_requests_total{route="unmatched",method="GET",status_class="4xx"}')).toBe(2);
    // No raw path becomes a label.
    expect(text).not.toContain(ids[0]);
    expect(text).not.toContain("/no/such/path");
    // The scrape itself is the one request in flight.
    expect(s.get("svc_http_requests_in_flight")).toBe(1);
    // Statements by declared name: list_tasks ran 5 times; the inserts ran 3 times (the 400 never reached one).
    expect(s.get('svc_db_statement_duration_seconds_count{statement="task_tracker.list_tasks"}')).toBe(5);
    const inserts = [...s.entries()].filter(([k]) => k.startsWith("svc_db_statement_duration_seconds_count") && k.includes("insert"));
    expect(inserts.reduce((n, [, v]) => n + v, 0)).toBe(3);
    // Process metrics, from prom-client.
    expect(s.get("process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(s.has("nodejs_heap_size_used_bytes")).toBe(true);
  });

  test("idempotent replays and refused webhook deliveries are counted", async () => {
    const key = { "Idempotency-Key": "metrics-replay-1" };
    const first = await oneShot(server.port, "POST", "/api/task_tracker:create_task", JSON.stringify({ title: "once" }), key);
    const again = await oneShot(server.port, "POST", "/api/task_tracker:create_task", JSON.stringify({ title: "once" }), key);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    // A forged signature: refused (401).
    const forged = await oneShot(server.port, "POST", "/webhooks/github", '{"action":"opened"}', {
      "X-GitHub-Event": "issues",
      "X-GitHub-Delivery": "d-1",
      "X-Hub-Signature-256": `sha256=${"0".repeat(64)}`,
    });
    expect(forged.status).toBe(401);
    const s = samples((await scrape(server.port)).text);
    expect(s.get('svc_idempotent_replays_total{route="/api/task_tracker:create_task",method="POST"}')).toBe(1);
    expect(s.get('svc_webhook_deliveries_total{webhook="task_tracker.github_issues",provider="github",outcome="refused"}')).toBe(1);
  });

  test("OpenMetrics when the scraper asks for it", async () => {
    const { status, type, text } = await scrape(server.port, { Accept: "application/openmetrics-text; version=1.0.0,text/plain;version=0.0.4;q=0.5" });
    expect(status).toBe(200);
    expect(type).toBe("application/openmetrics-text; version=1.0.0; charset=utf-8");
    expect(text).toContain("# TYPE svc_http_requests counter\n");
    expect(text).toContain(`svc_http_requests_total{${LIST}} 5`);
    expect(text.endsWith("# EOF\n")).toBe(true);
  });

  test("a scrape a proxy forwarded is refused without a token, and so is any method but GET", async () => {
    const forwarded = await scrape(server.port, { "X-Forwarded-For": "203.0.113.9" });
    expect(forwarded.status).toBe(403);
    expect(forwarded.text).not.toContain("svc_http");
    expect((await scrape(server.port, { Forwarded: "for=203.0.113.9" })).status).toBe(403);
    const post = await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: "POST" });
    expect(post.status).toBe(405);
  });
});

test("with traces on too, each statement is timed once: by its span when its trace is sampled, on its own when not", async () => {
  const receiver = new Receiver();
  const port = await receiver.start();
  const server = await startServer(dir, ["--db", join(dir, "traced-metrics.db"), "--metrics"], {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_BSP_SCHEDULE_DELAY: "20",
  });
  try {
    // parentbased_always_on (the default): three traces of their own, two a caller did not sample.
    for (let i = 0; i < 3; i++) expect((await oneShot(server.port, "GET", "/api/task_tracker:list_tasks?limit=2")).status).toBe(200);
    const unsampled = { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00" };
    for (let i = 0; i < 2; i++) expect((await oneShot(server.port, "GET", "/api/task_tracker:list_tasks?limit=2", undefined, unsampled)).status).toBe(200);
    const s = samples((await scrape(server.port)).text);
    expect(s.get('svc_db_statement_duration_seconds_count{statement="task_tracker.list_tasks"}')).toBe(5);
    await receiver.until(() => receiver.spans.filter((span) => span.name === "GET /api/task_tracker:list_tasks").length === 3);
    await receiver.until(() => receiver.spans.filter((span) => span.name === "task_tracker.list_tasks").length >= 3);
    const requests = new Set(receiver.spans.filter((span) => span.name === "GET /api/task_tracker:list_tasks").map((span) => span.traceId));
    const statements = receiver.spans.filter((span) => span.name === "task_tracker.list_tasks");
    expect(statements).toHaveLength(3);
    expect(statements.every((span) => requests.has(span.traceId))).toBe(true);
    expect(requests.has("4bf92f3577b34da6a3ce929d0e0e4736")).toBe(false);
  } finally {
    expect(await server.stop()).toBe(0);
    receiver.server.close();
  }
});

test("without --metrics there is no /metrics", async () => {
  const server = await startServer(dir, ["--db", join(dir, "off.db")]);
  try {
    expect((await scrape(server.port)).status).toBe(404);
  } finally {
    expect(await server.stop()).toBe(0);
  }
});

test("SVC_METRICS=true turns it on", async () => {
  const server = await startServer(dir, ["--db", join(dir, "env.db")], { SVC_METRICS: "true" });
  try {
    expect((await scrape(server.port)).status).toBe(200);
  } finally {
    expect(await server.stop()).toBe(0);
  }
});

test("--metrics-listen serves /metrics there, open to every caller, and nowhere else", async () => {
  const server = await startServer(dir, ["--db", join(dir, "separate.db"), "--metrics", "--metrics-listen", "127.0.0.1:0"]);
  try {
    const line = server.output.find((l) => l.includes('"msg":"listening"'))!;
    const metricsPort = (JSON.parse(line) as { metrics_port: number }).metrics_port;
    expect(metricsPort).toBeGreaterThan(0);
    expect((await oneShot(server.port, "GET", "/api/task_tracker:list_tasks")).status).toBe(200);
    // The app's address has no /metrics; the metrics address has nothing else.
    expect((await scrape(server.port)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/task_tracker:list_tasks`)).status).toBe(404);
    const separate = await scrape(metricsPort, { "X-Forwarded-For": "203.0.113.9" });
    expect(separate.status).toBe(200);
    expect(samples(separate.text).get(`svc_http_requests_total{${LIST}}`)).toBe(1);
  } finally {
    expect(await server.stop()).toBe(0);
  }
});

describe("two workers", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(dir, ["--db", join(dir, "workers-metrics.db"), "--workers", "2", "--metrics"]);
  });

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  test("one scrape answers for both: the counts add up to the requests sent", async () => {
    const prefixes = new Set<string>();
    for (let i = 0; i < 24; i++) {
      const answer = await oneShot(server.port, "GET", "/api/task_tracker:list_tasks?limit=1");
      expect(answer.status).toBe(200);
      prefixes.add(answer.headers["x-request-id"].split("-")[0]);
    }
    // Both workers served some: the sum below is an aggregation, not one worker's count.
    expect(prefixes.size).toBe(2);
    // Whichever worker each scrape reaches, it answers for both.
    for (let i = 0; i < 4; i++) {
      const s = samples((await scrape(server.port)).text);
      expect(s.get(`svc_http_requests_total{${LIST}}`)).toBe(24);
      expect(s.get('svc_db_statement_duration_seconds_count{statement="task_tracker.list_tasks"}')).toBe(24);
    }
  });
});
