import { randomFillSync } from "node:crypto";

// Crockford base32, as in the ULID spec (https://github.com/ulid/spec): no I, L, O, U.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

/** Fills `bytes` with random values; the seed uses a deterministic source, servers use crypto. */
export type RandomSource = (bytes: Uint8Array) => void;

const cryptoSource: RandomSource = (bytes) => {
  randomFillSync(bytes);
};

// One buffer reused across calls: the servers call this on their hot path.
const scratch = new Uint8Array(RANDOM_CHARS);

/**
 * A 26-character ULID: 10 characters of millisecond time, then 80 bits of randomness,
 * so ids sort by creation time. Each random character takes 5 bits of one random byte.
 */
export function ulid(timeMs: number, random: RandomSource = cryptoSource): string {
  if (!Number.isInteger(timeMs) || timeMs < 0 || timeMs > 2 ** 48 - 1) {
    throw new RangeError(`ulid: time ${timeMs} is outside 0..2^48-1 milliseconds`);
  }
  let time = "";
  let rest = timeMs;
  for (let i = 0; i < TIME_CHARS; i++) {
    time = ALPHABET[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  random(scratch);
  let tail = "";
  for (let i = 0; i < RANDOM_CHARS; i++) tail += ALPHABET[scratch[i] & 31];
  return time + tail;
}

/** mulberry32: a tiny seeded PRNG, so every bench run seeds the same rows. */
export function seededRandom(seed: number): { next(): number; source: RandomSource } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const source: RandomSource = (bytes) => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
  };
  return { next, source };
}
