// The requests in flight by request id (runtime/traces/in-flight.ts), which log lines take their
// trace id from: found while answered, gone after, the others kept whatever order they leave in;
// two requests a client gave one id are both found until both are answered.

import { expect, test } from "../../support/jest.js";
import { InFlight } from "../../../runtime/traces/in-flight.js";
import { type RecordedSpan, SpanKind, Tracer } from "../../../runtime/traces/span.js";
import { samplerFromEnv } from "../../../runtime/traces/sampler.js";

const tracer = new Tracer(samplerFromEnv({}), () => undefined);
const span = (): RecordedSpan => tracer.start("GET", SpanKind.SERVER, {}, null);

test("each request is found by its id while in flight, and not after; the rest stay found as others leave", () => {
  const inFlight = new InFlight();
  const spans = ["a", "b", "c", "d"].map((id) => [id, span()] as const);
  for (const [id, s] of spans) inFlight.add(id, s);
  for (const [id, s] of spans) expect(inFlight.find(id)).toBe(s);
  // Out of order: the first, then the last, then one in the middle.
  for (const leaving of [0, 3, 1]) {
    const [id, s] = spans[leaving]!;
    inFlight.remove(s);
    expect(inFlight.find(id)).toBeUndefined();
    expect(s.slot).toBe(-1);
  }
  expect(inFlight.find("c")).toBe(spans[2]![1]);
  // Removing twice, or a span never added, changes nothing.
  inFlight.remove(spans[0]![1]);
  inFlight.remove(span());
  expect(inFlight.find("c")).toBe(spans[2]![1]);
});

test("one id on two concurrent requests: one of theirs is found until both are answered", () => {
  const inFlight = new InFlight();
  const [first, second] = [span(), span()];
  inFlight.add("same", first);
  inFlight.add("same", second);
  expect([first, second]).toContain(inFlight.find("same"));
  inFlight.remove(first);
  expect(inFlight.find("same")).toBe(second);
  inFlight.remove(second);
  expect(inFlight.find("same")).toBeUndefined();
});
