// Trace context carried to work a request leaves for later (docs/operations.md, Traces), end
// to end on SQLite, PostgreSQL and MariaDB: a job's run is a CONSUMER span of its own trace, linked to the span that
// enqueued it; a schedule's run is a root with no link; an event's delivery is a CLIENT span
// in the emitting trace, and the subscriber receives a `traceparent` naming that span. The
// OTLP receiver (otlp.ts) decodes the exported spans; the subscriber is tests/events' receiver.

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { Receiver as Subscriber } from "../events/support.js";
import { EVENTS_ENV } from "../events/support.js";
import { repoRoot } from "../support/paths.js";
import { buildTo, removeDir, startServer, tmpDir, type TestServer } from "../support/server.js";
import { attrs, type OtlpSpan, Receiver } from "./otlp.js";
import { postJson, raw } from "./support.js";
import { backendAvailable, createNamespace, type Namespace } from "../backends/support/databases.js";

const PROJECT = join(repoRoot, "tests", "ops", "projects", "traced");
/** The caller's trace: every span of the call joins it. */
const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const CALLER_SPAN = "b7ad6b7169203331";
/** OTLP span kinds. */
const CLIENT = 3;
const CONSUMER = 5;

/** The suite on one backend; `database` gives the server's flags and what to drop after. */
function defineSuite(backend: string, database: (dir: string) => Promise<{ args: string[]; drop(): Promise<void> }>): void {
  describe(`trace propagation on ${backend}`, () => {
    let dir: string;
    let receiver: Receiver;
    let subscriber: Subscriber;
    let server: TestServer;
    let db: { args: string[]; drop(): Promise<void> } | undefined;

    beforeAll(async () => {
      receiver = new Receiver();
      const otlpPort = await receiver.start();
      // The first delivery is refused: the retry is a second client span in the same trace.
      subscriber = new Subscriber((n) => (n === 1 ? 500 : 200));
      await subscriber.start();
      const project = tmpDir("traced-project-");
      cpSync(PROJECT, project, { recursive: true });
      const toml = join(project, "svc.toml");
      writeFileSync(toml, readFileSync(toml, "utf8").replaceAll("RECEIVER", String(subscriber.port)));
      dir = await buildTo({ mode: "project", dir: project });
      removeDir(project);
      db = await database(dir);
      server = await startServer(dir, db.args, {
        ...EVENTS_ENV,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
        OTEL_TRACES_SAMPLER: "always_on",
        OTEL_BSP_SCHEDULE_DELAY: "20",
      });
      const answer = await raw(
        server.port,
        postJson("/api/traced:add", JSON.stringify({ title: "later" }), { Connection: "close", traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`, tracestate: "vendor=abc" }),
      );
      expect(answer.status).toBe(200);
    });

    afterAll(async () => {
      expect(await server?.stop()).toBe(0);
      await subscriber?.stop();
      receiver?.server.close();
      await db?.drop();
      removeDir(dir);
    });

    /** The action span of the call: the span that enqueued the job and emitted the event. */
    async function actionSpan(): Promise<OtlpSpan> {
      await receiver.until(() => receiver.spans.some((s) => s.traceId === TRACE_ID && s.name === "action traced.add"));
      const action = receiver.spans.find((s) => s.traceId === TRACE_ID && s.name === "action traced.add")!;
      const request = receiver.spans.find((s) => s.spanId === action.parentSpanId)!;
      expect(request.parentSpanId).toBe(CALLER_SPAN);
      return action;
    }

    test("a job's run is a span of its own trace, linked to the span that enqueued it; its statements are its children", async () => {
      const action = await actionSpan();
      const linked = (s: OtlpSpan) => s.name === "job traced.record" && (s.links ?? []).some((l) => l.traceId === TRACE_ID);
      await receiver.until(() => receiver.spans.some(linked));
      const run = receiver.spans.find(linked)!;
      expect(run.kind).toBe(CONSUMER);
      // A trace of its own (messaging conventions: processing links to its creation context).
      expect(run.traceId).not.toBe(TRACE_ID);
      expect(run.parentSpanId ?? "").toBe("");
      expect(run.links).toHaveLength(1);
      expect(run.links![0]).toMatchObject({ traceId: TRACE_ID, spanId: action.spanId, traceState: "vendor=abc" });
      expect(attrs(run.attributes)).toMatchObject({
        "messaging.system": "svc",
        "messaging.operation.type": "process",
        "messaging.destination.name": "default",
        "svc.job": "traced.record",
        "svc.job.attempt": 1,
      });
      expect(run.status?.code ?? 0).toBe(0);
      await receiver.until(() => receiver.spans.some((s) => s.parentSpanId === run.spanId));
      const statement = receiver.spans.find((s) => s.parentSpanId === run.spanId)!;
      expect(statement.traceId).toBe(run.traceId);
      expect(attrs(statement.attributes)["db.operation.name"]).toBe("INSERT");
      // The run's log line names its trace, though it is written once the span has ended.
      const logged = () =>
        server.output.flatMap((l) => (l.startsWith("{") ? [JSON.parse(l) as Record<string, unknown>] : [])).find((l) => l.msg === "job run" && l.job === "traced.record");
      await receiver.until(() => logged() !== undefined);
      expect(logged()!.trace_id).toBe(run.traceId);
    });

    test("a schedule's run has no request: a root span without a link", async () => {
      await receiver.until(() => receiver.spans.some((s) => s.name === "job traced.beat"));
      const beat = receiver.spans.find((s) => s.name === "job traced.beat")!;
      expect(beat.kind).toBe(CONSUMER);
      expect(beat.parentSpanId ?? "").toBe("");
      expect(beat.links ?? []).toEqual([]);
    });

    test("a delivery is a client span in the emitting trace, and the subscriber receives its traceparent", async () => {
      const action = await actionSpan();
      const first = await subscriber.nth(0);
      const second = await subscriber.nth(1);
      const delivery = (s: OtlpSpan) => s.traceId === TRACE_ID && s.kind === CLIENT;
      await receiver.until(() => receiver.spans.filter(delivery).length >= 2);
      const spans = receiver.spans.filter(delivery);
      for (const [received, span] of [
        [first, spans.find((s) => attrs(s.attributes)["http.response.status_code"] === 500)!],
        [second, spans.find((s) => attrs(s.attributes)["http.response.status_code"] === 200)!],
      ] as const) {
        expect(span.name).toBe("POST crm");
        // The emitting span is the parent; the header names the delivery's own span.
        expect(span.parentSpanId).toBe(action.spanId);
        expect(received.headers.traceparent).toBe(`00-${TRACE_ID}-${span.spanId}-01`);
        expect(received.headers.tracestate).toBe("vendor=abc");
      }
      const [refused, delivered] = [spans.find((s) => attrs(s.attributes)["http.response.status_code"] === 500)!, spans.find((s) => attrs(s.attributes)["http.response.status_code"] === 200)!];
      // HTTP client conventions: a 5xx marks the client span failed, with error.type its status.
      expect(refused.status?.code).toBe(2);
      expect(attrs(refused.attributes)["error.type"]).toBe("500");
      expect(delivered.status?.code ?? 0).toBe(0);
      expect(attrs(delivered.attributes)).toMatchObject({
        "http.request.method": "POST",
        "server.address": "127.0.0.1",
        "server.port": subscriber.port,
        "url.full": `http://127.0.0.1:${subscriber.port}/hooks/svc`,
        "http.request.resend_count": 1,
        "svc.subscriber": "crm",
        "svc.event": "entry_added",
      });
      // The query string of the subscriber's URL (a token, here) is in no span.
      for (const span of spans) expect(JSON.stringify(span)).not.toContain("not-in-spans");
    });
  });
}

defineSuite("sqlite", async (dir) => ({ args: ["--db", join(dir, "traced.db")], drop: async () => undefined }));
for (const backend of ["postgres", "mysql"] as const) {
  if (await backendAvailable(backend)) {
    defineSuite(backend, async () => {
      const ns: Namespace = await createNamespace(backend, `traced_${backend}`);
      return { args: ["--backend", backend, "--db", ns.url], drop: () => ns.drop() };
    });
  } else test.skip(`trace propagation on ${backend} (no server)`, () => undefined);
}
