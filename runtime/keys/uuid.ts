// UUIDs for `id(uuid)` and `id(uuid7)` keys (docs/language.md §2.1, Keys), RFC 9562.
//
// v4 (§5.4) is node:crypto's randomUUID. v7 (§5.7) is time-ordered: 48 bits of Unix time in
// milliseconds, the version (0111), 12 bits `rand_a`, the variant (10), 62 bits `rand_b`.
// Within one millisecond `rand_a` is a counter (§6.2, method 1, "fixed bit-length dedicated
// counter"): it starts at a random value below 2^11 each millisecond, leaving at least 2^11
// steps, and goes up by one per id; when it runs out, or the clock steps back, the time
// borrows the next millisecond (§6.2: "monotonicity"). So ids made in a row sort, as text
// and as bytes, in the order they were made.

import { randomFillSync, randomUUID } from "node:crypto";
import { OutOfRangeError } from "../core/errors.js";

export const uuid4: () => string = () => randomUUID();

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const MAX_TIME = 2 ** 48 - 1;
const POOL_IDS = 256;

/** A v7 generator with its own monotonic state; `clock` is injectable for tests. */
export function createUuid7(clock: () => number = Date.now): () => string {
  // 10 random bytes per id (2 for the counter's start, 8 for rand_b), drawn in batches.
  const pool = new Uint8Array(10 * POOL_IDS);
  let offset = pool.length;
  let lastTime = -1;
  let counter = 0;
  const bytes = new Uint8Array(16);

  return () => {
    if (offset === pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    let time = clock();
    if (!Number.isInteger(time) || time < 0 || time > MAX_TIME) throw new OutOfRangeError("SVC_ERR_CLOCK_RANGE", `uuid7: time ${time} is outside 0..2^48-1 ms`);
    if (time > lastTime) {
      counter = ((pool[offset] << 8) | pool[offset + 1]) & 0x7ff;
    } else if (counter < 0xfff) {
      time = lastTime;
      counter++;
    } else {
      time = lastTime + 1;
      counter = ((pool[offset] << 8) | pool[offset + 1]) & 0x7ff;
    }
    lastTime = time;
    // unix_ts_ms, big-endian: the top 16 bits, then the low 32 (2^48 is past 32-bit shifts).
    const high = Math.floor(time / 2 ** 32);
    const low = time >>> 0;
    bytes[0] = high >>> 8;
    bytes[1] = high & 0xff;
    bytes[2] = low >>> 24;
    bytes[3] = (low >>> 16) & 0xff;
    bytes[4] = (low >>> 8) & 0xff;
    bytes[5] = low & 0xff;
    bytes[6] = 0x70 | (counter >>> 8); // version 7, then rand_a's top 4 bits
    bytes[7] = counter & 0xff;
    for (let i = 8; i < 16; i++) bytes[i] = pool[offset + i - 6];
    bytes[8] = 0x80 | (bytes[8] & 0x3f); // variant 10
    offset += 10;
    let s = "";
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) s += "-";
      s += HEX[bytes[i]];
    }
    return s;
  };
}

export const uuid7: () => string = createUuid7();
