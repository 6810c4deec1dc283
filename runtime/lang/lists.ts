// The list builtins of the svc language (docs/language.md §2.3, Lists), null-safe like the
// others: a null list is empty. contains, for lists and text alike, is in builtins.ts.

import { ValidationError } from "../errors.js";

/** The list without repeated items, the first of each kept, in order. */
export function unique<T>(list: readonly T[] | null): T[] {
  return list === null ? [] : [...new Set(list)];
}

/**
 * The items joined by `sep` (a null `sep` is empty, a null item ""). Items of a typed list
 * are text already; `path` is given for a list read from json, whose items the client
 * chose: one that is not text (or null) is a 400.
 */
export function join(list: readonly unknown[] | null, sep: string | null, path?: string): string {
  if (list === null) return "";
  if (path !== undefined) {
    for (let i = 0; i < list.length; i++) {
      if (typeof list[i] !== "string" && list[i] !== null) throw new ValidationError(`${path}[${i}] must be text`);
    }
  }
  return list.join(sep ?? "");
}

/** `for x in list`: a null list runs the body no time. */
export function items<T>(list: readonly T[] | null): readonly T[] {
  return list ?? [];
}
