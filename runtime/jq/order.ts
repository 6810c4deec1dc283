// jq's total order of values, and equality.

import { typeOf } from "./values.js";

const KIND_ORDER: Record<string, number> = { null: 0, boolean: 1, number: 3, string: 4, array: 5, object: 6 };

function kindRank(v: unknown): number {
  return v === true ? 2 : KIND_ORDER[typeOf(v)];
}

/** Strings compare by code point (jq compares UTF-8 bytes), not by UTF-16 unit. */
export function strCmp(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function sortedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).sort(strCmp);
}

/** jq's total order: null < false < true < numbers < strings < arrays < objects. */
export function cmp(a: unknown, b: unknown): number {
  const ra = kindRank(a);
  const rb = kindRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === "number") {
    const y = b as number;
    // jq 1.7.1 orders NaN as if it were null: below every number, NaN included.
    if (Number.isNaN(a)) return -1;
    if (Number.isNaN(y)) return 1;
    return a < y ? -1 : a === y ? 0 : 1;
  }
  if (typeof a === "string") return strCmp(a, b as string);
  if (Array.isArray(a)) {
    const y = b as unknown[];
    for (let i = 0; i < a.length && i < y.length; i++) {
      const c = cmp(a[i], y[i]);
      if (c !== 0) return c;
    }
    return a.length === y.length ? 0 : a.length < y.length ? -1 : 1;
  }
  if (ra <= 2) return 0;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = sortedKeys(x);
  const c = cmp(kx, sortedKeys(y));
  if (c !== 0) return c;
  for (const k of kx) {
    const d = cmp(x[k], y[k]);
    if (d !== 0) return d;
  }
  return 0;
}

export function equals(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== "number" || !Number.isNaN(a);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return cmp(a, b) === 0;
}
