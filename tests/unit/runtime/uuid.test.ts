// UUIDs for `id(uuid)` and `id(uuid7)` keys (runtime/keys/uuid.ts), checked against RFC 9562:
// the version and variant bits, the timestamp field of v7, and the order of v7 ids made in a row.

import { describe, expect, test } from "../../support/jest.js";
import { createUuid7, uuid4, uuid7 } from "../../../runtime/keys/uuid.js";

const SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const hex = (id: string) => id.replaceAll("-", "");
/** RFC 9562 §4.2: the version is the high nibble of octet 6. */
const version = (id: string) => parseInt(hex(id)[12], 16);
/** RFC 9562 §4.1: the variant is the top bits of octet 8; `10` for these UUIDs. */
const variant = (id: string) => parseInt(hex(id).slice(16, 18), 16) >> 6;
/** RFC 9562 §5.7: unix_ts_ms, the first 48 bits. */
const time = (id: string) => parseInt(hex(id).slice(0, 12), 16);

describe("uuid4", () => {
  test("is a version 4, variant 10 UUID, a new one each call", () => {
    const ids = Array.from({ length: 100 }, uuid4);
    for (const id of ids) {
      expect(id).toMatch(SHAPE);
      expect(version(id)).toBe(4);
      expect(variant(id)).toBe(0b10);
    }
    expect(new Set(ids).size).toBe(100);
  });
});

describe("uuid7", () => {
  test("is a version 7, variant 10 UUID carrying the clock's milliseconds", () => {
    const at = Date.UTC(2026, 10, 28, 18, 0, 0, 123);
    const id = createUuid7(() => at)();
    expect(id).toMatch(SHAPE);
    expect(version(id)).toBe(7);
    expect(variant(id)).toBe(0b10);
    expect(time(id)).toBe(at);
    expect(version(uuid7())).toBe(7);
  });

  test("ids made in a row sort in the order they were made, within one millisecond too", () => {
    let now = 1_700_000_000_000;
    const make = createUuid7(() => now);
    const ids: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      if (i % 1000 === 999) now++;
      ids.push(make());
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect([version(id), variant(id)]).toEqual([7, 0b10]);
  });

  test("a clock that steps back, or 4096 ids in one millisecond, never breaks the order", () => {
    let now = 1_700_000_000_000;
    const make = createUuid7(() => now);
    const ids = [make()];
    now -= 5_000;
    for (let i = 0; i < 5_000; i++) ids.push(make());
    expect([...ids].sort()).toEqual(ids);
    // The counter ran out in the first millisecond, so the time borrowed the next ones.
    expect(time(ids[ids.length - 1])).toBeGreaterThan(1_700_000_000_000);
  });

  test("refuses a time outside 48 bits", () => {
    expect(() => createUuid7(() => -1)()).toThrow(RangeError);
    expect(() => createUuid7(() => 2 ** 48)()).toThrow(RangeError);
  });
});
