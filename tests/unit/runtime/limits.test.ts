// The arithmetic of runtime/limits on its own: GCRA decisions, the RateLimit fields, and keys.

import { describe, expect, test } from "../../support/jest.js";
import { decide, rateOf, remaining, waitMs } from "../../../runtime/limits/gcra.js";
import { policyField, retryAfterSeconds, stateField } from "../../../runtime/limits/headers.js";
import { counterId, valueKey } from "../../../runtime/limits/keys.js";
import { MemoryCounters } from "../../../runtime/limits/counters.js";

describe("GCRA", () => {
  const rate = rateOf(3, 60, 3);

  test("burst requests pass at once, the next waits one interval", () => {
    let tat: number | null = null;
    for (let i = 0; i < 3; i++) {
      const d = decide(tat, 1000, rate);
      expect(d.allowed).toBe(true);
      tat = d.tat;
    }
    const refused = decide(tat, 1000, rate);
    expect(refused.allowed).toBe(false);
    expect(refused.tat).toBe(tat);
    expect(waitMs(tat!, 1000, rate)).toBe(20_000);
    expect(decide(tat, 21_000, rate).allowed).toBe(true);
  });

  test("a refused request does not push the wait further", () => {
    const counters = new MemoryCounters();
    return (async () => {
      for (let i = 0; i < 3; i++) expect((await counters.take("k", 0, rate)).allowed).toBe(true);
      for (let i = 0; i < 50; i++) expect((await counters.take("k", 0, rate)).allowed).toBe(false);
      expect((await counters.take("k", 20_000, rate)).allowed).toBe(true);
    })();
  });

  test("remaining counts what still fits", () => {
    expect(remaining(1000 + 20_000, 1000, rate)).toBe(2);
    expect(remaining(1000 + 60_000, 1000, rate)).toBe(0);
  });
});

describe("RateLimit fields", () => {
  test("structured-field lists as draft-ietf-httpapi-ratelimit-headers writes them", () => {
    const rate = rateOf(5, 60, 5);
    const state = { name: 'a "quoted" name', count: 5, windowS: 60, rate, tat: 12_000 };
    expect(policyField([state])).toBe('"a \\"quoted\\" name";q=5;w=60');
    expect(stateField([state], 0)).toBe('"a \\"quoted\\" name";r=4;t=12');
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(0)).toBe(1);
  });
});

describe("keys", () => {
  test("argument values are compared as a person reads them", () => {
    expect(valueKey(" Victim@Example.COM ")).toBe("victim@example.com");
    expect(valueKey("victim\uFF20example.com")).toBe("victim@example.com");
    expect(valueKey(42)).toBe("42");
    expect(valueKey(undefined)).toBe("");
  });

  test("stored ids are hashes of the policy and the key", () => {
    expect(counterId("p", "k")).toMatch(/^[0-9a-f]{64}$/);
    expect(counterId("p", "k")).not.toBe(counterId("q", "k"));
  });
});
