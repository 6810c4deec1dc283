import { describe, expect, test } from "../../support/jest.js";
import { isoTime, now } from "../../../runtime/core/time.js";

describe("isoTime: toISOString without formatting every second again", () => {
  test("the same text as Date.prototype.toISOString, around every kind of boundary", () => {
    const samples = [
      0,
      1,
      999,
      1000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2024, 2, 1, 0, 0, 0, 0),
      Date.UTC(2026, 11, 31, 23, 59, 59, 5),
      Date.UTC(2027, 0, 1, 0, 0, 0, 50),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1, 0, 0, 0, 7),
      -1,
      -1500,
    ];
    for (const ms of samples) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  test("milliseconds within one second, in and out of order, keep the right second", () => {
    const base = Date.UTC(2026, 10, 27, 4, 5, 6);
    for (const ms of [base + 7, base + 70, base + 700, base - 1, base + 1, base + 1999, base]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  test("now() is the current time in that form", () => {
    const before = Date.now();
    const text = now();
    const after = Date.now();
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const at = Date.parse(text);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  });
});
