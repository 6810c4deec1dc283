// random() and random_int(lo, hi) (docs/language.md §2.3, Built-in functions). Both draw from
// node:crypto, not Math.random: values an app makes this way end up as codes, tokens of a
// game, sampled ids, and a guessable generator would make those guessable. crypto.randomInt
// is uniform (it rejects, never takes a modulo) and reads from a buffered pool, so one call
// costs well under a microsecond.

import { randomInt as cryptoInt } from "node:crypto";
import { ValidationError } from "../core/errors.js";

/** crypto.randomInt's widest span: max - min below 2^48 - 1. */
const WIDEST = 2 ** 48 - 1;
const HIGH = 2 ** 26;
const LOW = 2 ** 27;

/** A float in [0, 1): one of 2^53 evenly spaced values (every double's precision), each as likely. */
export function random(): number {
  return (cryptoInt(HIGH) * LOW + cryptoInt(LOW)) / (HIGH * LOW);
}

/**
 * A whole number from `lo` to `hi`, both included, each as likely. `lo` above `hi`, or bounds
 * more than 2^48 - 2 apart, is a 400: the bounds usually come from the request.
 */
export function randomInt(lo: number, hi: number): number {
  if (lo > hi) throw new ValidationError("SVC_ERR_VALIDATION", `random_int(${lo}, ${hi}): the low bound is above the high one`);
  if (hi - lo >= WIDEST - 1) throw new ValidationError("SVC_ERR_VALIDATION", `random_int(${lo}, ${hi}): the bounds may be at most 2^48 - 2 apart`);
  // An offset from lo: hi + 1 may be past 2^53 - 1, which crypto.randomInt refuses.
  return lo + cryptoInt(hi - lo + 1);
}
