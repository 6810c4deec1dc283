// The trace context enqueue and emit store (runtime/lang/trace-context.ts): the current span's
// W3C `traceparent` and `tracestate`, and nothing outside a span or for the invalid context.

import { expect, test } from "../../support/jest.js";
import { currentSpan, traceCarrier, type CurrentSpan } from "../../../runtime/lang/trace-context.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN_ID = "00f067aa0ba902b7";

function span(traceId: string, traceFlags: number, state?: string): CurrentSpan {
  return { spanContext: () => ({ traceId, spanId: SPAN_ID, traceFlags, ...(state !== undefined && { traceState: { serialize: () => state } }) }) };
}

test("outside a span there is nothing to store", () => {
  expect(traceCarrier()).toBeNull();
});

test("a sampled span with a tracestate: both, the flags as two hex digits", () => {
  expect(currentSpan.run(span(TRACE_ID, 1, "vendor=abc,other=1"), traceCarrier)).toEqual({
    traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`,
    tracestate: "vendor=abc,other=1",
  });
});

test("a span not sampled is still carried (flags 00), an empty tracestate as none", () => {
  expect(currentSpan.run(span(TRACE_ID, 0, ""), traceCarrier)).toEqual({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-00`, tracestate: null });
  expect(currentSpan.run(span(TRACE_ID, 0), traceCarrier)).toEqual({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-00`, tracestate: null });
});

test("the invalid context (all zeros) is no trace to join", () => {
  expect(currentSpan.run(span("0".repeat(32), 0), traceCarrier)).toBeNull();
});

test("each async path sees its own span", async () => {
  const other = "a".repeat(32);
  const [a, b] = await Promise.all([
    currentSpan.run(span(TRACE_ID, 1), async () => (await Promise.resolve(), traceCarrier())),
    currentSpan.run(span(other, 1), async () => (await Promise.resolve(), traceCarrier())),
  ]);
  expect(a?.traceparent).toContain(TRACE_ID);
  expect(b?.traceparent).toContain(other);
});
