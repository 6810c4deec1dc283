// Spans leaving in batches (runtime/traces/export.ts): encoded as they end, a full batch cut at
// once and never above its size, a partial one after the delay, past the queue's limit spans
// dropped and counted, close sending what is left, OTEL_BSP_* setting the sizes; a refusing
// collector logged once. Another OTLP protocol than http/protobuf stops the start.

import { expect, test } from "../../support/jest.js";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { BatchExport, batchOptions, threadSend } from "../../../runtime/traces/export.js";
import { otlpHttpSend } from "../../../runtime/traces/transport.js";
import { createTracing } from "../../../runtime/traces/index.js";
import { type RecordedSpan, SpanKind, Tracer } from "../../../runtime/traces/span.js";
import { samplerFromEnv } from "../../../runtime/traces/sampler.js";
import { OtlpEncoder } from "../../../runtime/traces/otlp.js";
import { decodeExport } from "../../ops/otlp-proto.js";
import { Logger } from "../../../runtime/core/log.js";
import type { ServerSpec } from "../../../runtime/contract/index.js";

function spans(n: number): RecordedSpan[] {
  const out: RecordedSpan[] = [];
  const tracer = new Tracer(samplerFromEnv({}), (span) => void out.push(span));
  for (let i = 0; i < n; i++) tracer.start("s", SpanKind.INTERNAL, {}, null).end();
  return out;
}

const encoder = () => new OtlpEncoder({ "service.name": "t" }, { name: "svc", version: "1.0.0" });
const spansIn = (request: Uint8Array) => decodeExport(Buffer.from(request)).resourceSpans[0]!.scopeSpans[0]!.spans.length;

test("OTEL_BSP_* set the delay and sizes; nonsense keeps the defaults; a batch is never above the queue", () => {
  expect(batchOptions({})).toEqual({ delayMs: 5000, maxQueue: 2048, maxBatch: 512 });
  expect(batchOptions({ OTEL_BSP_SCHEDULE_DELAY: "20", OTEL_BSP_MAX_QUEUE_SIZE: "100", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "300" })).toEqual({
    delayMs: 20,
    maxQueue: 100,
    maxBatch: 100,
  });
  expect(batchOptions({ OTEL_BSP_SCHEDULE_DELAY: "-1", OTEL_BSP_MAX_QUEUE_SIZE: "lots" })).toEqual({ delayMs: 5000, maxQueue: 2048, maxBatch: 512 });
});

test("a full batch goes without waiting for the delay; the rest after it; beyond the queue spans are dropped", async () => {
  const sent: number[] = [];
  let release: () => void = () => undefined;
  const blocked = new Promise<void>((resolve) => (release = resolve));
  const send = Object.assign(
    async (request: Uint8Array, count: number) => {
      sent.push(count);
      expect(spansIn(request)).toBe(count);
      await blocked;
    },
    { shutdown: async () => void sent.push(-1) },
  );
  const batch = new BatchExport(encoder(), send, { delayMs: 60_000, maxQueue: 10, maxBatch: 4 });
  for (const span of spans(4)) batch.ended(span);
  await new Promise((resolve) => setImmediate(resolve));
  expect(sent).toEqual([4]);
  // The collector has not answered: the queue fills to its limit, then drops.
  for (const span of spans(13)) batch.ended(span);
  expect(batch.dropped).toBe(3);
  release();
  await batch.shutdown();
  // The transport is released once, after the last batch went (-1 marks it).
  expect(sent).toEqual([4, 4, 4, 2, -1]);
});

test("a partial batch leaves after the delay", async () => {
  const sent: number[] = [];
  const batch = new BatchExport(encoder(), async (request) => void sent.push(spansIn(request)), { delayMs: 10, maxQueue: 100, maxBatch: 50 });
  for (const span of spans(3)) batch.ended(span);
  expect(sent).toEqual([]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(sent).toEqual([3]);
});

test("OTLP over gRPC or JSON is refused at start: svc sends http/protobuf", () => {
  const spec = { name: "t", version: "1.0.0", routes: [] } as unknown as ServerSpec;
  const log = new Logger("error", () => undefined);
  expect(() => createTracing(spec, log, [], true, false, { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL "grpc"/);
  expect(() => createTracing(spec, log, [], true, false, { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" })).toThrow(
    /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL "http\/json"/,
  );
  // The traces variable wins over the general one.
  expect(() => createTracing(spec, log, [], true, false, { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).not.toThrow();
});

test("a collector that refuses is logged once, again only after an export went through", () => refusedOnce(otlpHttpSend));

test("on its own thread: the same requests go out, the thread's warnings are logged here, shutdown ends it", () =>
  refusedOnce(threadSend, async (send, bodies) => {
    // The encoder's request is moved to the thread, its memory with it, not copied; the copy
    // the test keeps is what arrives.
    const moved = encoder().encode(spans(1));
    const kept = Buffer.from(moved);
    const sent = send(moved, 1);
    expect(moved.byteLength).toBe(0);
    await sent;
    expect(bodies.pop()!.equals(kept)).toBe(true);
    await send.shutdown!();
    // Ended: a batch after it settles at once, unsent, rather than waiting for a thread that is gone.
    await send(encoder().encode(spans(1)), 1);
  }));

async function refusedOnce(
  make: (log: Logger) => ReturnType<typeof otlpHttpSend>,
  after: (send: ReturnType<typeof otlpHttpSend>, bodies: Buffer[]) => Promise<void> = async () => undefined,
): Promise<void> {
  let answer = 400;
  const bodies: Buffer[] = [];
  const collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push(Buffer.concat(chunks));
      res.writeHead(answer, { "Content-Type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const lines: string[] = [];
  const log = new Logger("warn", (chunk) => void lines.push(String(chunk)));
  const saved = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
  try {
    const send = make(log);
    // A request of its own for each send: a sender may take its memory (the thread's does).
    const encoded = encoder().encode(spans(2));
    const request = () => encoded.slice();
    // 400 is not retried: each send is one request, answered at once.
    await send(request(), 2);
    await send(request(), 2);
    log.flush();
    expect(lines.join("").match(/trace export failed/g)).toHaveLength(1);
    answer = 200;
    await send(request(), 2);
    answer = 400;
    await send(request(), 2);
    log.flush();
    expect(lines.join("").match(/trace export failed/g)).toHaveLength(2);
    // What went over the wire is the encoder's request, as it was given.
    expect(bodies).toHaveLength(4);
    expect(spansIn(bodies[0]!)).toBe(2);
    expect(Buffer.compare(bodies[3]!, Buffer.from(encoded))).toBe(0);
    await after(send, bodies);
    expect(bodies).toHaveLength(4);
  } finally {
    if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = saved;
    collector.close();
  }
}

test("the serving thread's tracing loads neither the OTLP transport nor the transformer: only the export thread does", () => {
  const traces = new URL("../../../runtime/traces/index.js", import.meta.url).href;
  const script = `import(${JSON.stringify(traces)}).then(() => {
    const loaded = Object.keys(require("node:module")._cache);
    process.stdout.write(JSON.stringify(["@opentelemetry/core", "@opentelemetry/otlp-exporter-base", "@opentelemetry/otlp-transformer"].map((name) => loaded.some((path) => path.includes("/" + name + "/")))));
  });`;
  const out = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
  // @opentelemetry/core is loaded (the traceparent parser), which shows the check sees what is loaded.
  expect(JSON.parse(out)).toEqual([true, false, false]);
});
