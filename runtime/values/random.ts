// random() and random_int(lo, hi) (docs/language.md §2.3, Built-in functions). Both draw from
// node:crypto, not Math.random: values an app makes this way end up as codes, tokens of a
// game, sampled ids, and a guessable generator would make those guessable. crypto.randomInt
// is uniform (it rejects, never takes a modulo) and reads from a buffered pool, so one call
// costs well under a microsecond.

import { randomInt as cryptoInt } from "node:crypto";
import { ValidationError } from "../errors.js";

/** 2^48: crypto.randomInt's widest span, and the steps of random() in [0, 1). */
const SPAN = 2 ** 48;

/** A float in [0, 1): one of 2^48 evenly spaced values, each as likely. */
export function random(): number {
  return cryptoInt(SPAN) / SPAN;
}

/**
 * A whole number from `lo` to `hi`, both included, each as likely. `lo` above `hi`, or a span
 * of more than 2^48 values, is a 400: the bounds usually come from the request.
 */
export function randomInt(lo: number, hi: number): number {
  if (lo > hi) throw new ValidationError(`random_int(${lo}, ${hi}): the low bound is above the high one`);
  if (hi - lo >= SPAN) throw new ValidationError(`random_int(${lo}, ${hi}): at most 2^48 values apart`);
  return cryptoInt(lo, hi + 1);
}
