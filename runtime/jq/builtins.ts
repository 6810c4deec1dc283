// The builtins of the compiled subset, following jq 1.7.1's definitions.

import { fail, NONE } from "./errors.js";
import { index, iter, object, plus } from "./ops.js";
import { cmp, equals, sortedKeys } from "./order.js";
import { described, dump } from "./print.js";
import { isObject, keysOf, put, typeOf } from "./values.js";

export function length(v: unknown): number {
  if (v === null) return 0;
  if (typeof v === "boolean") return fail(`${described(v)} has no length`);
  if (typeof v === "number") return Math.abs(v);
  if (typeof v === "string") {
    // Code points, as jq counts them.
    let n = 0;
    for (const _ of v) n++;
    return n;
  }
  return Array.isArray(v) ? v.length : Object.keys(v as object).length;
}

export function keys(v: unknown, sorted: boolean): unknown[] {
  if (isObject(v)) return sorted ? sortedKeys(v) : keysOf(v);
  if (Array.isArray(v)) return v.map((_, i) => i);
  return fail(`${described(v)} has no keys`);
}

export function has(v: unknown, k: unknown): boolean {
  if (v === null) return false;
  if (isObject(v) && typeof k === "string") return Object.hasOwn(v, k);
  if (Array.isArray(v) && typeof k === "number") return k >= 0 && k < v.length;
  return fail(`Cannot check whether ${typeOf(v)} has a ${typeOf(k)} key`);
}

function kindOf(v: unknown): string {
  return v === true || v === false ? String(v) : typeOf(v);
}

export function contains(a: unknown, b: unknown): boolean {
  if (kindOf(a) !== kindOf(b)) return fail(`${described(a)} and ${described(b)} cannot have their containment checked`);
  return containsWithin(a, b);
}

// Below the top level jq answers false for values of different kinds instead of failing.
function containsWithin(a: unknown, b: unknown): boolean {
  if (kindOf(a) !== kindOf(b)) return false;
  if (isObject(a)) {
    const o = b as Record<string, unknown>;
    return Object.keys(o).every((k) => Object.hasOwn(a, k) && containsWithin(a[k], o[k]));
  }
  if (Array.isArray(a)) return (b as unknown[]).every((y) => a.some((x) => containsWithin(x, y)));
  if (typeof a === "string") return a.includes(b as string);
  return equals(a, b);
}

export function toEntries(v: unknown): unknown[] {
  if (isObject(v)) return keysOf(v).map((k) => ({ key: k, value: v[k] }));
  return keys(v, false).map((k) => ({ key: k, value: index(v, k as number) }));
}

export function fromEntries(v: unknown): unknown {
  let acc: unknown = null;
  for (const e of iter(v)) {
    let k = index(e, "key");
    if (k === null || k === false) k = index(e, "Key");
    if (k === null || k === false) k = index(e, "name");
    if (k === null || k === false) k = index(e, "Name");
    const value = has(e, "value") ? index(e, "value") : index(e, "Value");
    acc = plus(acc, object(k, value));
  }
  return acc === null || acc === false ? {} : acc;
}

/** `add`: `reduce .[] as $x (null; . + $x)`. */
export function addAll(v: unknown): unknown {
  let acc: unknown = null;
  for (const x of iter(v)) acc = plus(acc, x);
  return acc;
}

export function sort(v: unknown): unknown[] {
  if (!Array.isArray(v)) return fail(`${described(v)} cannot be sorted, as it is not an array`);
  return v.slice().sort(cmp);
}

function pairs(v: unknown, ks: unknown[][], what: string): { value: unknown; key: unknown[] }[] {
  if (!Array.isArray(v)) return fail(`${described(v)} and ${described(ks)} cannot be ${what}, as they are not both arrays`);
  return v.map((value, i) => ({ value, key: ks[i] }));
}

/** `sort_by(f)`, given `[f]` for every element. Stable, like jq's. */
export function sortBy(v: unknown, ks: unknown[][]): unknown[] {
  return pairs(v, ks, "sorted")
    .sort((a, b) => cmp(a.key, b.key))
    .map((p) => p.value);
}

export function groupBy(v: unknown, ks: unknown[][]): unknown[][] {
  const sorted = pairs(v, ks, "grouped").sort((a, b) => cmp(a.key, b.key));
  const groups: unknown[][] = [];
  let last: unknown[] | null = null;
  for (const p of sorted) {
    if (last !== null && cmp(last, p.key) === 0) groups[groups.length - 1].push(p.value);
    else groups.push([p.value]);
    last = p.key;
  }
  return groups;
}

/** `min`/`max`/`min_by`/`max_by`: the first least, or the last greatest, element. */
export function minMax(v: unknown, ks: readonly unknown[] | unknown, isMin: boolean): unknown {
  if (!Array.isArray(v) || !Array.isArray(ks)) return fail(`${described(v)} and ${described(ks)} cannot be iterated over`);
  if (v.length === 0) return null;
  let ret = v[0];
  let retKey = ks[0];
  for (let i = 1; i < v.length; i++) {
    if (cmp(ks[i], retKey) < 0 === isMin) {
      ret = v[i];
      retKey = ks[i];
    }
  }
  return ret;
}

/** `reverse`: `[.[length - 1 - range(0; length)]]`. */
export function reverse(v: unknown): unknown[] {
  const n = length(v);
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(index(v, n - 1 - i));
  return out;
}

export function startsWith(s: unknown, t: unknown): boolean {
  if (typeof s !== "string" || typeof t !== "string") return fail("startswith() requires string inputs");
  return s.startsWith(t);
}

export function endsWith(s: unknown, t: unknown): boolean {
  if (typeof s !== "string" || typeof t !== "string") return fail("endswith() requires string inputs");
  return s.endsWith(t);
}

export function ltrimstr(s: unknown, t: unknown): unknown {
  return typeof s === "string" && typeof t === "string" && s.startsWith(t) ? s.slice(t.length) : s;
}

export function rtrimstr(s: unknown, t: unknown): unknown {
  return typeof s === "string" && typeof t === "string" && s.endsWith(t) && t.length > 0 ? s.slice(0, s.length - t.length) : s;
}

export function join(v: unknown, sep: unknown, computed: boolean): unknown {
  let acc: unknown = null;
  for (const x of iter(v)) {
    const part = typeof x === "boolean" || typeof x === "number" ? dump(x, computed) : x === null ? "" : x;
    acc = plus(acc === null ? "" : plus(acc, sep), part);
  }
  return acc === null || acc === false ? "" : acc;
}

function ascii(s: unknown, from: number, shift: number): string {
  if (typeof s !== "string") return fail("explode input must be a string");
  let out = "";
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    out += c >= from && c < from + 26 ? String.fromCharCode(c + shift) : ch;
  }
  return out;
}

export function asciiDowncase(s: unknown): string {
  return ascii(s, 65, 32);
}

export function asciiUpcase(s: unknown): string {
  return ascii(s, 97, -32);
}

/** `test(re)` for a regex the compiler proved to be plain text. */
export function testText(s: unknown, text: string): boolean {
  if (typeof s !== "string") return fail(`${described(s)} cannot be matched, as it is not a string`);
  return s.includes(text);
}

export function rangeBounds(from: unknown, upto: unknown): void {
  if (typeof from !== "number" || typeof upto !== "number") fail("Range bounds must be numeric");
}

/** `map_values(f)`, given each element's first output of f (or NONE: the element is dropped). */
export function mapValues(v: unknown, f: (x: unknown) => unknown): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      const y = f(x);
      if (y !== NONE) out.push(y);
    }
    return out;
  }
  if (!isObject(v)) return fail(`Cannot iterate over ${described(v)}`);
  const o: Record<string, unknown> = {};
  for (const k of keysOf(v)) {
    const y = f(v[k]);
    if (y !== NONE) put(o, k, y);
  }
  return o;
}
