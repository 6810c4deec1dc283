// Lists built in code (docs/language.md §2.3, Lists built in code): `range(n)` to count, and
// the bounded list a collecting `for` builds with `yield`.

import { ValidationError } from "../core/errors.js";

/** The most items `range` gives: the largest `max` a list may declare. */
export const RANGE_MAX = 10_000;

/**
 * `range(n)`: 0 … n-1; `range(a, b)`: a … b-1. Empty when the end is not past the start.
 * More than 10000 items is a 400 (the bounds usually come from the request), before any is made.
 */
export function range(start: number, end: number): number[] {
  const count = end - start;
  if (count <= 0) return [];
  if (count > RANGE_MAX) {
    throw new ValidationError("SVC_ERR_VALIDATION", `range(${start}, ${end}) has ${count} items; at most ${RANGE_MAX} are allowed`);
  }
  const out = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = start + i;
  return out;
}

/** `yield value` into the list `name`, which holds at most `max` items: one more is a 400. */
export function collect<T>(list: T[], value: T, max: number, name: string): void {
  if (list.length >= max) throw new ValidationError("SVC_ERR_VALIDATION", `${name} has more than ${max} items; at most ${max} are allowed`);
  list.push(value);
}
