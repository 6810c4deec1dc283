// The trace context enqueue and emit store (runtime/lang/trace-context.ts): the W3C
// `traceparent` and `tracestate` of the span their executor runs in, and nothing for an
// executor in no span or for the invalid context; and viewUnder, which gives work holding the
// database itself a view under a span.

import { expect, test } from "../../support/jest.js";
import { traceCarrier, viewUnder, type CurrentSpan } from "../../../runtime/lang/trace-context.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN_ID = "00f067aa0ba902b7";

function span(traceId: string, traceFlags: number, state?: string): CurrentSpan {
  return { spanContext: () => ({ traceId, spanId: SPAN_ID, traceFlags, ...(state !== undefined && { traceState: { serialize: () => state } }) }) };
}

test("an executor in no span has nothing to store", () => {
  expect(traceCarrier({})).toBeNull();
  expect(traceCarrier({ span: undefined })).toBeNull();
});

test("a sampled span with a tracestate: both, the flags as two hex digits", () => {
  expect(traceCarrier({ span: span(TRACE_ID, 1, "vendor=abc,other=1") })).toEqual({
    traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`,
    tracestate: "vendor=abc,other=1",
  });
});

test("a span not sampled is still carried (flags 00), an empty tracestate as none", () => {
  expect(traceCarrier({ span: span(TRACE_ID, 0, "") })).toEqual({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-00`, tracestate: null });
  expect(traceCarrier({ span: span(TRACE_ID, 0) })).toEqual({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-00`, tracestate: null });
});

test("the invalid context (all zeros) is no trace to join", () => {
  expect(traceCarrier({ span: span("0".repeat(32), 0) })).toBeNull();
});

test("viewUnder: a traced database's view under the span; an untraced one, or no span, the database itself", () => {
  interface Db {
    span?: CurrentSpan;
    under?(span: CurrentSpan): Db;
  }
  const a = span(TRACE_ID, 1);
  const traced: Db = { under: (s) => ({ span: s }) };
  expect(viewUnder(traced, a).span).toBe(a);
  expect(viewUnder(traced, undefined)).toBe(traced);
  const plain: Db = {};
  expect(viewUnder(plain, a)).toBe(plain);
});
