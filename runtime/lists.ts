// The list builtins of the svc language (docs/language.md §2.3, Lists), null-safe like the
// others: a null list is empty.

import { HttpError } from "./errors.js";

/** Whether the list holds `x` (text, numbers and bools compared by value). */
export function contains(list: readonly unknown[] | null, x: unknown): boolean {
  return list !== null && list.includes(x);
}

/** The list without repeated items, the first of each kept, in order. */
export function unique<T>(list: readonly T[] | null): T[] {
  return list === null ? [] : [...new Set(list)];
}

/**
 * The items joined by `sep`. Items of a typed list are text already; `path` is given for a
 * list read from json, whose items the client chose: one that is not text is a 400.
 */
export function join(list: readonly unknown[] | null, sep: string, path?: string): string {
  if (list === null) return "";
  if (path !== undefined) {
    for (let i = 0; i < list.length; i++) {
      if (typeof list[i] !== "string") throw new HttpError(400, `${path}[${i}] must be text`);
    }
  }
  return list.join(sep);
}

/** `for x in list`: a null list runs the body no time. */
export function items<T>(list: readonly T[] | null): readonly T[] {
  return list ?? [];
}
