// The wait between a job's attempts (runtime/jobs/backoff.ts): exponential, capped, jittered.

import { describe, expect, test } from "../../support/jest.js";
import { BACKOFF_CAP_MS, backoffBound, backoffDelay } from "../../../runtime/jobs/backoff.js";

describe("backoff", () => {
  test("the bound doubles with each failed attempt, from 1 s, up to the cap", () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffBound(a))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(backoffBound(13)).toBe(BACKOFF_CAP_MS);
    expect(backoffBound(1000)).toBe(BACKOFF_CAP_MS);
  });

  test("the wait lies in the upper half of the bound, spread by the random draw", () => {
    expect(backoffDelay(3, () => 0)).toBe(2000);
    expect(backoffDelay(3, () => 0.5)).toBe(3000);
    expect(backoffDelay(3, () => 0.999999)).toBe(3999);
    const waits = new Set(Array.from({ length: 50 }, () => backoffDelay(4)));
    for (const w of waits) expect(w >= 4000 && w < 8000).toBe(true);
    // Jobs failing together come back apart.
    expect(waits.size).toBeGreaterThan(10);
  });
});
