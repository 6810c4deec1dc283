// svc's OTLP protobuf encoder (runtime/traces/otlp.ts) against the official one: the same spans
// given to both (the official serializer takes the SDK's span shape, built here by hand) decode
// to the same request, field by field, with the test receiver's own decoder (tests/ops/otlp-proto.ts).
// Times, ids, every attribute type, links, trace state, status and lengths past one byte are covered.

import { expect, test } from "../../support/jest.js";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { TraceState } from "@opentelemetry/core";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { OtlpEncoder } from "../../../runtime/traces/otlp.js";
import { knownPaths } from "../../../runtime/traces/otlp-keyvalues.js";
import { type Attributes, LeafShape, RecordedSpan, RepeatedLater, type SpanKind, SpanKind as Kind } from "../../../runtime/traces/span.js";
import { decodeExport } from "../../ops/otlp-proto.js";

const RESOURCE = { "service.name": "tasks", "service.version": "1.2.0", "deployment.environment.name": "test" };
const SCOPE = { name: "svc", version: "1.2.0" };
/** One object: the official serializer groups spans by their resource's identity. */
const OFFICIAL_RESOURCE = resourceFromAttributes(RESOURCE);

/**
 * A monotonic-clock reading as nanoseconds since the epoch, in BigInt: what the encoder must
 * write. The time origin and the reading are each taken to the nanosecond, then added, as the
 * official SDK's hrTime adds them.
 */
function nanos(ms: number): bigint {
  const origin = performance.timeOrigin;
  const whole = Math.floor(origin);
  return BigInt(whole) * 1_000_000n + BigInt(Math.round((origin - whole) * 1e6)) + BigInt(Math.round(ms * 1e6));
}

interface Case {
  traceId: string;
  spanId: string;
  parent: string | null;
  name: string;
  kind: SpanKind;
  attributes: Attributes;
  later: [string, string | number | boolean][];
  startMs: number;
  endMs: number;
  status: [number, string?];
  state?: string;
  links?: { traceId: string; spanId: string; state?: string }[];
}

function ours(c: Case): RecordedSpan {
  const state = c.state === undefined ? undefined : new TraceState(c.state);
  const links = (c.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId, ...(l.state !== undefined && { traceState: new TraceState(l.state) }) }));
  const w = (hex: string, at: number) => parseInt(hex.slice(at, at + 8), 16);
  const parent = c.parent ?? "0".repeat(16);
  const span = new RecordedSpan(
    w(c.traceId, 0), w(c.traceId, 8), w(c.traceId, 16), w(c.traceId, 24), w(c.spanId, 0), w(c.spanId, 8),
    c.parent !== null, w(parent, 0), w(parent, 8), c.name, c.kind, c.attributes, true, state, links, c.startMs, null,
  );
  // The ids as given, read back through the words they were split into.
  expect([span.traceId, span.spanId, span.parentSpanId]).toEqual([c.traceId, c.spanId, c.parent]);
  for (const [key, value] of c.later) span.setAttribute(key, value);
  span.setStatus(...c.status);
  span.endMs = c.endMs;
  return span;
}

function official(c: Case): ReadableSpan {
  const hr = (ms: number): [number, number] => {
    const ns = nanos(ms);
    return [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];
  };
  const attributes: Record<string, string | number | boolean> = { ...c.attributes };
  for (const [key, value] of c.later) attributes[key] = value;
  const state = c.state === undefined ? undefined : new TraceState(c.state);
  return {
    name: c.name,
    kind: c.kind,
    spanContext: () => ({ traceId: c.traceId, spanId: c.spanId, traceFlags: 1, ...(state !== undefined && { traceState: state }) }),
    ...(c.parent !== null && { parentSpanContext: { traceId: c.traceId, spanId: c.parent, traceFlags: 1 } }),
    startTime: hr(c.startMs),
    endTime: hr(c.endMs),
    duration: [0, 0],
    status: { code: c.status[0], ...(c.status[1] !== undefined && { message: c.status[1] }) },
    attributes,
    links: (c.links ?? []).map((l) => ({ context: { traceId: l.traceId, spanId: l.spanId, traceFlags: 1, ...(l.state !== undefined && { traceState: new TraceState(l.state) }) } })),
    events: [],
    ended: true,
    resource: OFFICIAL_RESOURCE,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

const statement = { "db.system": "sqlite", "db.system.name": "sqlite", "db.operation.name": "SELECT", "svc.statement": "task.get", "db.query.text": "SELECT id, title FROM task WHERE id = ?" };

const CASES: Case[] = [
  {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    parent: null,
    name: "GET /v1/tasks/:id",
    kind: Kind.SERVER,
    attributes: {},
    later: [
      ["http.request.method", "GET"],
      ["url.path", "/v1/tasks/ünïcødé \"quoted\""],
      ["http.response.status_code", 200],
      ["svc.retried", false],
      ["svc.ratio", 0.25],
      ["svc.delta", -3],
      ["svc.big", 2 ** 40 + 7],
    ],
    startMs: 1234.5678,
    endMs: 1236.0001,
    status: [0],
    state: "vendor=abc,other=1",
  },
  {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "a1b2c3d4e5f60718",
    parent: "00f067aa0ba902b7",
    name: "task.get",
    kind: Kind.INTERNAL,
    attributes: statement,
    later: [["error.type", "SqliteError"]],
    startMs: 0.000001,
    endMs: 987654.321987,
    status: [2, "x".repeat(300)],
  },
  {
    traceId: "ffffffffffffffffffffffffffffffff",
    spanId: "0000000000000001",
    parent: null,
    name: "job mail.send_digest",
    kind: Kind.CONSUMER,
    attributes: { "messaging.system": "svc", "query.text": "q".repeat(20_000) },
    later: [],
    startMs: 5,
    endMs: 6,
    status: [1],
    links: [{ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", state: "vendor=abc" }],
  },
];

function decodedSpans(bytes: Uint8Array) {
  return decodeExport(Buffer.from(bytes)).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

test("the same spans encode to what the official protobuf serializer encodes", () => {
  const encoder = new OtlpEncoder(RESOURCE, SCOPE);
  const mine = decodeExport(Buffer.from(encoder.encode(CASES.map(ours))));
  const theirs = decodeExport(Buffer.from(ProtobufTraceSerializer.serializeRequest(CASES.map(official))!));
  expect(mine).toEqual(theirs);
  // Not merely equal, but as meant: the times, the ids, the long string's length.
  const spans = decodedSpans(encoder.encode(CASES.map(ours)));
  expect(spans.map((s) => s.startTimeUnixNano)).toEqual(CASES.map((c) => nanos(c.startMs).toString()));
  expect(spans[1]!.parentSpanId).toBe("00f067aa0ba902b7");
  expect(spans[1]!.status).toEqual({ code: 2, message: "x".repeat(300) });
  expect(spans[2]!.attributes[1]!.value.stringValue).toHaveLength(20_000);
  expect(mine.resourceSpans[0]!.resource.attributes.map((a) => a.key)).toEqual(Object.keys(RESOURCE));
});

test("a shared attributes object is encoded once and reused: a second batch is the same", () => {
  const encoder = new OtlpEncoder(RESOURCE, SCOPE);
  const first = encoder.encode(CASES.map(ours));
  const second = encoder.encode(CASES.map(ours));
  expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  // A batch past the writer's first 64 KiB grows it rather than overrunning it.
  const many = Array.from({ length: 400 }, () => ours(CASES[1]!));
  expect(decodedSpans(encoder.encode(many))).toHaveLength(400);
});

test("an empty batch is a valid request with its resource and no span", () => {
  const decoded = decodeExport(Buffer.from(new OtlpEncoder(RESOURCE, SCOPE).encode([])));
  expect(decoded.resourceSpans).toHaveLength(1);
  expect(decoded.resourceSpans[0]!.scopeSpans[0]!.spans).toEqual([]);
});

test("a status, client address or template path met again is copied whole and decodes as the official encoding; a path with parameters is written each time", () => {
  knownPaths(["/v1/tasks"]);
  const request = (path: string, status: number, address: string): Case => ({
    ...CASES[0]!,
    state: undefined,
    later: [
      ["client.address", address],
      ["url.path", path],
      ["http.response.status_code", status],
    ],
  });
  const cases = [
    request("/v1/tasks", 200, "10.0.0.1"),
    request("/v1/tasks", 200, "10.0.0.1"),
    request("/v1/tasks/7", 404, "10.0.0.2"),
    request("/v1/tasks/7", 200, "10.0.0.1"),
    request("/v1/tasks", 404, "10.0.0.2"),
  ];
  const encoder = new OtlpEncoder(RESOURCE, SCOPE);
  const mine = decodeExport(Buffer.from(encoder.encode(cases.map(ours))));
  const theirs = decodeExport(Buffer.from(ProtobufTraceSerializer.serializeRequest(cases.map(official))!));
  expect(mine).toEqual(theirs);
  const paths = decodedSpans(encoder.encode(cases.map(ours))).map((s) => s.attributes.find((a) => a.key === "url.path")!.value.stringValue);
  expect(paths).toEqual(["/v1/tasks", "/v1/tasks", "/v1/tasks/7", "/v1/tasks/7", "/v1/tasks"]);
});

test("later attributes given as a repeated list are encoded once and decode as the official encoding; a span that adds one copies the list first", () => {
  const repeated = new RepeatedLater(Object.freeze(["client.address", "10.0.0.1", "url.path", "/v1/tasks", "http.response.status_code", 200]));
  const later = repeated.later.map((v, i, all) => (i % 2 === 0 ? [v, all[i + 1]] : null)).filter((kv) => kv !== null) as Case["later"];
  const base: Case = { ...CASES[0]!, state: undefined, later: [] };
  const given = (extra: Case["later"] = []): RecordedSpan => {
    const span = ours(base);
    span.setAttribute("client.address", "10.0.0.1");
    span.repeat(repeated);
    for (const [key, value] of extra) span.setAttribute(key, value);
    return span;
  };
  const encoder = new OtlpEncoder(RESOURCE, SCOPE);
  const spans = [given(), given(), given([["error.type", "Timeout"]]), given()];
  const mine = decodeExport(Buffer.from(encoder.encode(spans)));
  const theirs = decodeExport(
    Buffer.from(ProtobufTraceSerializer.serializeRequest([official({ ...base, later }), official({ ...base, later }), official({ ...base, later: [...later, ["error.type", "Timeout"]] }), official({ ...base, later })])!),
  );
  expect(mine).toEqual(theirs);
  // Encoded once, at the first span; the shared list never saw the third span's attribute.
  expect(repeated.encoded).not.toBeNull();
  expect(repeated.later).toHaveLength(6);
  expect([spans[0]!.repeated, spans[2]!.repeated]).toEqual([repeated, null]);
  expect(spans[2]!.attribute("error.type")).toBe("Timeout");
  expect(spans[3]!.allAttributes()["http.response.status_code"]).toBe(200);
});

test("one attributes object given with several names keeps each name's encoding apart", () => {
  const shared = { "svc.endpoint.kind": "query" };
  const named = (name: string): Case => ({ ...CASES[0]!, state: undefined, name, attributes: shared, later: [] });
  const cases = ["query a", "query b", "query a", "query c", "query b"].map(named);
  const encoder = new OtlpEncoder(RESOURCE, SCOPE);
  for (let batch = 0; batch < 2; batch++) {
    const mine = decodeExport(Buffer.from(encoder.encode(cases.map(ours))));
    expect(mine).toEqual(decodeExport(Buffer.from(ProtobufTraceSerializer.serializeRequest(cases.map(official))!)));
    expect(mine.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name)).toEqual(["query a", "query b", "query a", "query c", "query b"]);
  }
});

test("spans of one shape, the first written field by field and the rest from its template, each keep their own ids and times; a shape too short for a template is written each time", () => {
  const id = (n: number, length: number) => (n.toString(16).repeat(length)).slice(0, length);
  const shaped = (n: number, parent: string | null, attributes: Attributes, name: string): Case => ({
    traceId: id(n + 1, 32).replace(/^./, "f"),
    spanId: id(n + 3, 16).replace(/^./, "e"),
    parent,
    name,
    kind: parent === null ? Kind.SERVER : Kind.INTERNAL,
    attributes,
    later: [],
    startMs: 1000 + n * 7.123456,
    endMs: 1001 + n * 9.654321,
    status: [0],
  });
  const cases = [
    ...[1, 2, 3].map((n) => shaped(n, id(n + 5, 16), statement, "task.get")),
    ...[4, 5].map((n) => shaped(n, null, statement, "task.get")),
    ...[6, 7].map((n) => shaped(n, null, {}, "x")),
  ];
  const encoder = new OtlpEncoder(RESOURCE, SCOPE);
  for (let batch = 0; batch < 2; batch++) {
    const mine = decodeExport(Buffer.from(encoder.encode(cases.map(ours))));
    expect(mine).toEqual(decodeExport(Buffer.from(ProtobufTraceSerializer.serializeRequest(cases.map(official))!)));
    const spans = mine.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(spans.map((s) => [s.traceId, s.spanId, s.parentSpanId ?? ""])).toEqual(cases.map((c) => [c.traceId, c.spanId, c.parent ?? ""]));
    expect(spans.map((s) => s.endTimeUnixNano)).toEqual(cases.map((c) => nanos(c.endMs).toString()));
  }
});

test("a leaf span given by its fields (addLeaf), as a statement's reaches the encoder, encodes as the official encoder does: the first of its shape field by field, the rest from the template, one below a parent with a trace state field by field", () => {
  const word = (hex: string, at: number) => parseInt(hex.slice(at, at + 8), 16);
  const plain: Case = { ...CASES[0]!, traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", state: undefined, later: [] };
  const stated: Case = { ...CASES[0]!, later: [] };
  const leaf = (parent: Case, spanId: string, n: number): Case => ({
    traceId: parent.traceId,
    spanId,
    parent: parent.spanId,
    name: "task.get",
    kind: Kind.INTERNAL,
    attributes: statement,
    later: [],
    startMs: 2000 + n * 3.25,
    endMs: 2000.5 + n * 4.125,
    status: [0],
    state: parent.state,
  });
  const below: [Case, Case][] = [
    [plain, leaf(plain, "1111111111111111", 1)],
    [plain, leaf(plain, "fedcba9876543210", 2)],
    [stated, leaf(stated, "0123456789abcdef", 3)],
    [plain, leaf(plain, "8000000000000001", 4)],
  ];
  // One shape, as a statement has: the first encoder keeps its encoding on it, and a second one finds it there.
  const shape = new LeafShape("task.get", statement);
  const expected = decodeExport(Buffer.from(ProtobufTraceSerializer.serializeRequest(below.map(([, c]) => official(c)))!));
  for (const encoder of [new OtlpEncoder(RESOURCE, SCOPE), new OtlpEncoder(RESOURCE, SCOPE)]) {
    for (let batch = 0; batch < 2; batch++) {
      for (const [parent, c] of below) encoder.addLeaf(ours(parent), word(c.spanId, 0), word(c.spanId, 8), shape, c.startMs, c.endMs);
      expect(decodeExport(Buffer.from(encoder.take()))).toEqual(expected);
      expect(decodedSpans(encoder.encode([])).length).toBe(0);
    }
    expect(shape.encoded).not.toBeNull();
  }
});
