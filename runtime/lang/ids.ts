// Time-ordered unique text ids: ULIDs (https://github.com/ulid/spec). 26 characters of
// Crockford base32: 10 for the 48-bit millisecond time, 16 for 80 random bits from
// node:crypto. Monotonic: within one millisecond (or if the clock steps back) the next
// id is the previous one's random part plus one, so ids made in a row sort in the order
// they were made.

import { randomFillSync } from "node:crypto";
import { OutOfRangeError } from "../core/errors.js";

// Crockford base32: no I, L, O, U.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** The character codes of Crockford base32's digits, 0 to 31 (request ids use them too). */
export const CROCKFORD_CODES = Uint8Array.from(ALPHABET, (ch) => ch.charCodeAt(0));
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;
const MAX_TIME = 2 ** 48 - 1;
// Random bytes are drawn in batches: one crypto call per 256 ids instead of one per id.
const POOL_IDS = 256;

export type IdGenerator = () => string;

/** A ULID generator with its own monotonic state; `clock` is injectable for tests. */
export function createIdGenerator(clock: () => number = Date.now): IdGenerator {
  const pool = new Uint8Array(RANDOM_CHARS * POOL_IDS);
  let poolOffset = pool.length;
  let lastTime = -1;
  let timePart = "";
  // The random part as base32 digit values (0..31), most significant first.
  const digits = new Uint8Array(RANDOM_CHARS);

  const freshRandom = (): void => {
    if (poolOffset === pool.length) {
      randomFillSync(pool);
      poolOffset = 0;
    }
    // Each byte gives 5 uniform bits: 16 × 5 = 80 bits.
    for (let i = 0; i < RANDOM_CHARS; i++) digits[i] = pool[poolOffset + i] & 31;
    poolOffset += RANDOM_CHARS;
  };

  /** Adds one to the random part; false when it was all ones (2^80 ids in one ms). */
  const increment = (): boolean => {
    for (let i = RANDOM_CHARS - 1; i >= 0; i--) {
      if (digits[i] < 31) {
        digits[i]++;
        return true;
      }
      digits[i] = 0;
    }
    return false;
  };

  return () => {
    const now = clock();
    // The first id always takes the clock's time (and so validates it).
    if (now > lastTime || timePart === "") {
      setTime(now);
      freshRandom();
    } else if (!increment()) {
      // Overflow: borrow the next millisecond rather than repeat or go backwards.
      setTime(lastTime + 1);
      freshRandom();
    }
    // One string made at once: 16 concatenations of one-character strings cost about
    // 2,200 instructions an id, this about 560 (callgrind; spread or apply: 1,100-2,000).
    const d = digits;
    const c = CROCKFORD_CODES;
    const tail = String.fromCharCode(
      c[d[0]], c[d[1]], c[d[2]], c[d[3]], c[d[4]], c[d[5]], c[d[6]], c[d[7]],
      c[d[8]], c[d[9]], c[d[10]], c[d[11]], c[d[12]], c[d[13]], c[d[14]], c[d[15]],
    );
    return timePart + tail;
  };

  function setTime(time: number): void {
    if (!Number.isInteger(time) || time < 0 || time > MAX_TIME) {
      throw new OutOfRangeError("SVC_ERR_CLOCK_RANGE", `ulid: time ${time} is outside 0..2^48-1 milliseconds`);
    }
    lastTime = time;
    timePart = encodeTime(time);
  }
}

function encodeTime(time: number): string {
  let out = "";
  let rest = time;
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** The process-wide generator that generated servers use for `id` fields. */
export const newId: IdGenerator = createIdGenerator();

/** True for a well-formed ULID (26 Crockford base32 characters, time within 48 bits). */
export function isUlid(text: string): boolean {
  if (text.length !== TIME_CHARS + RANDOM_CHARS) return false;
  // The first character carries only 3 time bits (48 = 3 + 9 × 5).
  if (ALPHABET.indexOf(text[0]) > 7) return false;
  for (let i = 0; i < text.length; i++) {
    if (ALPHABET.indexOf(text[i]) === -1) return false;
  }
  return true;
}

/** The millisecond time encoded in a ULID. */
export function ulidTime(text: string): number {
  let time = 0;
  for (let i = 0; i < TIME_CHARS; i++) time = time * 32 + ALPHABET.indexOf(text[i]);
  return time;
}
