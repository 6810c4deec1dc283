// Which spans are recorded (runtime/traces/sampler.ts, span.ts): the six samplers
// OTEL_TRACES_SAMPLER names, a child following its parent's `sampled` flag, a ratio decided by
// the trace id alone, and a sampler or ratio svc does not know stopping the start.

import { expect, test } from "../../support/jest.js";
import { ratioSampler, samplerFromEnv } from "../../../runtime/traces/sampler.js";
import { randomness, type RecordedSpan, SpanKind, Tracer } from "../../../runtime/traces/span.js";
import { carrierOf } from "../../../runtime/lang/trace-context.js";

const REMOTE_SAMPLED = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1 };
const REMOTE_NOT_SAMPLED = { ...REMOTE_SAMPLED, traceFlags: 0 };

/** What a sampler is given of a trace id (hex here). */
const random = (traceId: string) => randomness(parseInt(traceId.slice(16, 24), 16), parseInt(traceId.slice(24), 16));

function tracer(env: Record<string, string>): { tracer: Tracer; recorded: RecordedSpan[] } {
  const recorded: RecordedSpan[] = [];
  return { tracer: new Tracer(samplerFromEnv(env), (span) => void recorded.push(span)), recorded };
}

test("by default a root is recorded and a child follows its parent, recorded or not", () => {
  const { tracer: t, recorded } = tracer({});
  const root = t.start("GET", SpanKind.SERVER, {}, null);
  const child = t.start("query q", SpanKind.INTERNAL, {}, root);
  const remoteOff = t.start("GET", SpanKind.SERVER, {}, REMOTE_NOT_SAMPLED);
  const below = t.start("task.get", SpanKind.INTERNAL, {}, remoteOff);
  for (const span of [below, remoteOff, child, root]) span.end();
  expect(recorded).toEqual([child, root]);
  // Not recorded, still carried on: a call it makes says flags 00 in the caller's trace.
  expect(carrierOf(below)?.traceparent).toBe(`00-${REMOTE_SAMPLED.traceId}-${below.spanId}-00`);
  expect(below.parentSpanId).toBe(remoteOff.spanId);
});

test("always_off records nothing, always_on everything, even below a parent that was not sampled", () => {
  const off = tracer({ OTEL_TRACES_SAMPLER: "always_off" });
  off.tracer.start("GET", SpanKind.SERVER, {}, REMOTE_SAMPLED).end();
  off.tracer.start("GET", SpanKind.SERVER, {}, null).end();
  expect(off.recorded).toHaveLength(0);
  const on = tracer({ OTEL_TRACES_SAMPLER: "ALWAYS_ON" });
  on.tracer.start("GET", SpanKind.SERVER, {}, REMOTE_NOT_SAMPLED).end();
  expect(on.recorded).toHaveLength(1);
});

test("a ratio samples about its share of traces, the same trace id always alike", () => {
  const { tracer: t, recorded } = tracer({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.25" });
  for (let i = 0; i < 4000; i++) t.start("GET", SpanKind.SERVER, {}, null).end();
  expect(recorded.length).toBeGreaterThan(800);
  expect(recorded.length).toBeLessThan(1200);
  const sampler = ratioSampler(0.25);
  for (const span of recorded) expect(sampler.sampled(random(span.traceId), null)).toBe(true);
  expect(ratioSampler(0).sampled(random("ffffffffffffffffffffffffffffffff"), null)).toBe(false);
  expect(ratioSampler(1).sampled(random("00000000000000000000000000000001"), null)).toBe(true);
  // parentbased_traceidratio: a sampled parent decides, whatever its trace id.
  const parentBased = samplerFromEnv({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" });
  expect(parentBased.sampled(random(REMOTE_SAMPLED.traceId), REMOTE_SAMPLED)).toBe(true);
  expect(parentBased.sampled(random(REMOTE_SAMPLED.traceId), null)).toBe(false);
});

test("an unknown sampler or a ratio outside 0..1 stops the start, naming the variable", () => {
  expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: "jaeger_remote" })).toThrow(/OTEL_TRACES_SAMPLER "jaeger_remote"/);
  expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "half" })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  // svc dev records every request whatever the variables say.
  expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: "always_off" }, true).sampled(random("a".repeat(32)), null)).toBe(true);
});

test("ids are random, of W3C's lengths, and a span ends once", () => {
  const { tracer: t, recorded } = tracer({});
  const ids = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const span = t.start("GET", SpanKind.SERVER, {}, null);
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    ids.add(span.traceId).add(span.spanId);
    span.end();
    span.end();
  }
  expect(ids.size).toBe(4000);
  expect(recorded).toHaveLength(2000);
});
