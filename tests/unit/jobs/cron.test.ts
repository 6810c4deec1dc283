// The cron parser and tick finder of schedules (runtime/jobs/cron.ts), which the compiler
// also uses to refuse a bad expression at build time.

import { describe, expect, test } from "../../support/jest.js";
import { type Cron, isTimeZone, nextTick, parseCron } from "../../../runtime/jobs/cron.js";

function cron(text: string): Cron {
  const c = parseCron(text);
  if ("error" in c) throw new Error(c.error);
  return c;
}

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

describe("parseCron", () => {
  test("fields: *, numbers, ranges, steps, lists and names", () => {
    const c = cron("*/15 9-17 1,15 JAN-MAR mon-fri");
    expect([...c.minutes]).toEqual([0, 15, 30, 45]);
    expect([...c.hours]).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect([...c.days]).toEqual([1, 15]);
    expect([...c.months]).toEqual([1, 2, 3]);
    expect([...c.weekdays]).toEqual([1, 2, 3, 4, 5]);
    expect(c.anyDay).toBe(false);
  });

  test("a step from a start runs to the end of the field; 7 is Sunday", () => {
    expect([...cron("5/20 * * * *").minutes]).toEqual([5, 25, 45]);
    expect([...cron("10-30/10 * * * *").minutes]).toEqual([10, 20, 30]);
    expect([...cron("0 0 * * 7").weekdays]).toEqual([0]);
  });

  test.each([
    ["0 3 * *", /5 fields.*found 4/],
    ["0 3 * * * *", /found 6/],
    ["60 * * * *", /minute 60 is out of range/],
    ["* 24 * * *", /hour 24 is out of range/],
    ["* * 0 * *", /day of month 0 is out of range/],
    ["* * * 13 *", /month 13 is out of range/],
    ["* * * * 8", /day of week 8 is out of range/],
    ["30-10 * * * *", /runs backwards/],
    ["*/0 * * * *", /step \/0/],
    ["a * * * *", /"a" is not a valid minute/],
    ["1-2-3 * * * *", /not a valid minute/],
    ["* * * FOO *", /"FOO" is not a valid month/],
    ["", /found 0/],
  ])("%j is refused", (text, message) => {
    const c = parseCron(text);
    expect("error" in c && c.error).toMatch(message);
  });
});

describe("nextTick", () => {
  test("the next matching minute, strictly after the given time", () => {
    const c = cron("0 3 * * *");
    expect(iso(nextTick(c, "UTC", at("2026-01-10T02:59:59Z")))).toBe("2026-01-10T03:00:00.000Z");
    expect(iso(nextTick(c, "UTC", at("2026-01-10T03:00:00Z")))).toBe("2026-01-11T03:00:00.000Z");
  });

  test("in a time zone: 03:00 in Paris is 02:00 UTC in winter and 01:00 UTC in summer", () => {
    const c = cron("0 3 * * *");
    expect(iso(nextTick(c, "Europe/Paris", at("2026-01-10T00:00:00Z")))).toBe("2026-01-10T02:00:00.000Z");
    expect(iso(nextTick(c, "Europe/Paris", at("2026-07-10T00:00:00Z")))).toBe("2026-07-10T01:00:00.000Z");
  });

  test("a local time the spring change skips does not fire that day", () => {
    // 2026-03-29: Paris goes from 02:00 to 03:00; 02:30 does not exist.
    const c = cron("30 2 * * *");
    expect(iso(nextTick(c, "Europe/Paris", at("2026-03-28T12:00:00Z")))).toBe("2026-03-30T00:30:00.000Z");
  });

  test("a local time the autumn change repeats fires once", () => {
    // 2026-10-25: Paris goes from 03:00 back to 02:00; 02:30 happens twice (00:30 and 01:30 UTC).
    const c = cron("30 2 * * *");
    const first = nextTick(c, "Europe/Paris", at("2026-10-24T12:00:00Z"));
    expect(iso(first)).toBe("2026-10-25T00:30:00.000Z");
    expect(iso(nextTick(c, "Europe/Paris", first!))).toBe("2026-10-26T01:30:00.000Z");
  });

  test("a midnight tick after a day of 23 hours is not skipped", () => {
    const c = cron("15 0 * * *");
    expect(iso(nextTick(c, "Europe/Paris", at("2026-03-28T23:20:00Z")))).toBe("2026-03-29T22:15:00.000Z");
  });

  test("both day fields restricted: either one matches; one restricted: it alone", () => {
    // The 13th, or any Friday. 2026-02-06 is a Friday.
    expect(iso(nextTick(cron("0 12 13 * 5"), "UTC", at("2026-02-01T00:00:00Z")))).toBe("2026-02-06T12:00:00.000Z");
    expect(iso(nextTick(cron("0 12 13 * *"), "UTC", at("2026-02-01T00:00:00Z")))).toBe("2026-02-13T12:00:00.000Z");
    expect(iso(nextTick(cron("0 12 * * 5"), "UTC", at("2026-02-07T00:00:00Z")))).toBe("2026-02-13T12:00:00.000Z");
  });

  test("February 29th waits for a leap year; February 31st never comes", () => {
    expect(iso(nextTick(cron("0 0 29 2 *"), "UTC", at("2026-03-01T00:00:00Z")))).toBe("2028-02-29T00:00:00.000Z");
    expect(nextTick(cron("0 0 31 2 *"), "UTC", at("2026-03-01T00:00:00Z"))).toBeNull();
  });

  test("time zones are IANA names", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
  });
});
