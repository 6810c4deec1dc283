import { describe, test, expect } from "../../support/jest.js";
import { createIdGenerator, isUlid, newId, ulidTime } from "../../../runtime/lang/ids.js";
import { now } from "../../../runtime/core/time.js";

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe("ULID ids", () => {
  test("26 Crockford base32 characters carrying the current time", () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(id).toMatch(CROCKFORD);
    expect(isUlid(id)).toBe(true);
    expect(ulidTime(id)).toBeGreaterThanOrEqual(before);
    expect(ulidTime(id)).toBeLessThanOrEqual(after);
  });

  test("10k ids made quickly are unique and sort in creation order", () => {
    const ids = Array.from({ length: 10_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
  });

  test("within one millisecond the random part counts up by one", () => {
    const gen = createIdGenerator(() => 1_714_564_800_000);
    const a = gen();
    const b = gen();
    expect(a.slice(0, 10)).toBe(b.slice(0, 10));
    expect(b > a).toBe(true);
    expect(randomPart(b) - randomPart(a)).toBe(1n);
  });

  test("a clock that steps back still gives increasing ids", () => {
    const times = [2_000_000, 1_999_000, 2_000_001];
    const gen = createIdGenerator(() => times.shift() ?? 0);
    const [a, b, c] = [gen(), gen(), gen()];
    expect(b > a).toBe(true);
    expect(ulidTime(b)).toBe(2_000_000);
    expect(c > b).toBe(true);
    expect(ulidTime(c)).toBe(2_000_001);
  });

  test("the time part encodes known values", () => {
    expect(createIdGenerator(() => 0)().slice(0, 10)).toBe("0000000000");
    expect(createIdGenerator(() => 2 ** 48 - 1)().slice(0, 10)).toBe("7ZZZZZZZZZ");
    expect(ulidTime(createIdGenerator(() => 1_469_918_176_385)())).toBe(1_469_918_176_385);
  });

  test("a time outside 48 bits is a RangeError", () => {
    expect(() => createIdGenerator(() => 2 ** 48)()).toThrow(RangeError);
    expect(() => createIdGenerator(() => -1)()).toThrow(RangeError);
  });

  test("isUlid refuses wrong lengths, letters outside the alphabet and overflowing times", () => {
    expect(isUlid("01ARZ3NDEKTSV4RRFFQ69G5FAV")).toBe(true);
    expect(isUlid("01ARZ3NDEKTSV4RRFFQ69G5FA")).toBe(false);
    expect(isUlid("01ARZ3NDEKTSV4RRFFQ69G5FAU")).toBe(false);
    expect(isUlid("81ARZ3NDEKTSV4RRFFQ69G5FAV")).toBe(false);
  });
});

describe("now", () => {
  test("ISO-8601 UTC with milliseconds", () => {
    expect(now()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Math.abs(Date.parse(now()) - Date.now())).toBeLessThan(1000);
  });
});

/** The 80-bit random part of a ULID as a number. */
function randomPart(id: string): bigint {
  let value = 0n;
  for (const ch of id.slice(10)) value = value * 32n + BigInt("0123456789ABCDEFGHJKMNPQRSTVWXYZ".indexOf(ch));
  return value;
}
