// svc dev's waterfall (compiler/dev/traces.ts): every bar lies inside its lane, even when a child
// span ends after its root (a statement settling after the answer was written), which once drew
// a bar past the lane's end (tests/browser/dev-traces failed on it).

import { describe, expect, test } from "../../support/jest.js";
import type { ServerResponse } from "node:http";
import { answerTraces } from "../../../compiler/dev/traces.js";
import type { RecentTrace, RecentTraces } from "../../../runtime/traces/recent.js";

const TRACE_ID = "ab".repeat(16);

function trace(spans: { startMs: number; durationMs: number }[], durationMs: number): RecentTrace {
  return {
    traceId: TRACE_ID,
    name: "GET /api/task_tracker:list_tasks",
    status: 200,
    startedAt: 0,
    durationMs,
    spans: spans.map((s, i) => ({
      spanId: `s${i}`,
      parentId: i === 0 ? null : `s${i - 1}`,
      name: `span ${i}`,
      startMs: s.startMs,
      durationMs: s.durationMs,
      attributes: {},
      failed: false,
    })),
  };
}

function bars(t: RecentTrace): { left: number; width: number }[] {
  const recent = { limit: 300, list: () => [t], get: (id: string) => (id === t.traceId ? t : undefined) } as unknown as RecentTraces;
  let html = "";
  const res = { writeHead: () => res, end: (body: string) => (html = body) } as unknown as ServerResponse;
  expect(answerTraces(res, `/_svc/traces/${TRACE_ID}`, recent)).toBe(true);
  return [...html.matchAll(/style="left:([\d.]+)%;width:([\d.]+)%"/g)].map((m) => ({ left: Number(m[1]), width: Number(m[2]) }));
}

describe("svc dev waterfall", () => {
  test("a child ending after its root stays inside the lane, and the root is scaled to match", () => {
    const drawn = bars(trace([{ startMs: 0, durationMs: 2 }, { startMs: 0.5, durationMs: 1.4 }, { startMs: 1.2, durationMs: 1.3 }], 2));
    expect(drawn).toHaveLength(3);
    for (const b of drawn) expect(b.left + b.width).toBeLessThanOrEqual(100);
    // The lane is the whole trace (2.5 ms): the root's bar covers 2 of it.
    expect(drawn[0]).toEqual({ left: 0, width: 80 });
    expect(drawn[2]!.left + drawn[2]!.width).toBeCloseTo(100, 5);
  });

  test("a span too short to see gets a visible width, pulled back from the lane's end", () => {
    const drawn = bars(trace([{ startMs: 0, durationMs: 10 }, { startMs: 9.999, durationMs: 0.0001 }], 10));
    expect(drawn[1]!.width).toBeCloseTo(0.3, 5);
    expect(drawn[1]!.left + drawn[1]!.width).toBeLessThanOrEqual(100);
  });
});
