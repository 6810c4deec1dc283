// The list builtins of the svc language (docs/language.md §2.3, Lists), null-safe like the
// others: a null list is empty. contains, for lists and text alike, is in builtins.ts.

import { ValidationError } from "../core/errors.js";

/** The list without repeated items, the first of each kept, in order. */
export function unique<T>(list: readonly T[] | null): T[] {
  return list === null ? [] : [...new Set(list)];
}

/**
 * The items in ascending order, as SQL's ORDER BY gives them: nulls first, then numbers by
 * value, text by code point (as SQLite and a C collation compare), bools false before true;
 * a new list. `path` is given for a list read from json, whose items the client chose: items
 * of more than one kind (a number beside a text), or an object or a list, are a 400.
 */
export function sort<T>(list: readonly T[] | null, path?: string): T[] {
  if (list === null) return [];
  let kind: string | null = null;
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (v === null) continue;
    const k = typeof v;
    if (path !== undefined && ((k !== "number" && k !== "string" && k !== "boolean") || (kind !== null && k !== kind))) {
      throw new ValidationError("SVC_ERR_VALIDATION", `${path}[${i}] must be ${kind === null ? "a number, text or a bool" : kind === "string" ? "text" : `a ${kind}`} to sort`);
    }
    kind ??= k;
  }
  return [...list].sort(compare);
}

function compare(a: unknown, b: unknown): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === "string" && typeof b === "string") return codePointCompare(a, b);
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** By code point, not UTF-16 unit: "\u{1F600}" after "\uFFFF", as UTF-8 bytes compare. */
function codePointCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
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
      if (typeof list[i] !== "string" && list[i] !== null) throw new ValidationError("SVC_ERR_VALIDATION", `${path}[${i}] must be text`);
    }
  }
  return list.join(sep ?? "");
}

/** `for x in list`: a null list runs the body no time. */
export function items<T>(list: readonly T[] | null): readonly T[] {
  return list ?? [];
}
