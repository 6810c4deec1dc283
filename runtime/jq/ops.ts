// Paths, object construction and arithmetic, with jq's results and errors.

import { fail, NONE } from "./errors.js";
import { equals } from "./order.js";
import { described, errDump, quote } from "./print.js";
import { copyObject, isObject, keysOf, put, typeOf } from "./values.js";

export function object(...kv: unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < kv.length; i += 2) {
    const k = kv[i];
    if (typeof k !== "string") fail(`Cannot use ${typeOf(k)} (${errDump(k)}) as object key`);
    put(o, k, kv[i + 1]);
  }
  return o;
}


/** `.[k]` with a string or number key. */
export function index(t: unknown, k: string | number): unknown {
  if (typeof k === "string") {
    if (isObject(t)) return Object.hasOwn(t, k) ? t[k] : null;
    if (t === null) return null;
    return fail(`Cannot index ${typeOf(t)} with string ${quote(k)}`);
  }
  if (Array.isArray(t)) {
    if (Number.isNaN(k)) return null;
    let i = Math.trunc(k);
    if (i < 0) i += t.length;
    return i >= 0 && i < t.length ? t[i] : null;
  }
  if (t === null) return null;
  return fail(`Cannot index ${typeOf(t)} with number`);
}

export function indexOpt(t: unknown, k: string | number): unknown {
  if (typeof k === "string" ? isObject(t) || t === null : Array.isArray(t) || t === null) return index(t, k);
  return NONE;
}

/** `.[]`: the values of an array or object. */
export function iter(t: unknown): readonly unknown[] {
  if (Array.isArray(t)) return t;
  if (isObject(t)) return keysOf(t).map((k) => t[k]);
  return fail(`Cannot iterate over ${described(t)}`);
}

export function iterOpt(t: unknown): readonly unknown[] {
  return Array.isArray(t) || isObject(t) ? iter(t) : [];
}

export function plus(a: unknown, b: unknown): unknown {
  if (typeof a === "number" && typeof b === "number") return a + b;
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === "string" && typeof b === "string") return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return a.concat(b);
  if (isObject(a) && isObject(b)) {
    const o = copyObject(a);
    for (const k of keysOf(b)) put(o, k, b[k]);
    return o;
  }
  return fail(`${described(a)} and ${described(b)} cannot be added`);
}

export function minus(a: unknown, b: unknown): unknown {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (Array.isArray(a) && Array.isArray(b)) return a.filter((x) => !b.some((y) => equals(x, y)));
  return fail(`${described(a)} and ${described(b)} cannot be subtracted`);
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const o = copyObject(a);
  for (const k of keysOf(b)) {
    const x = o[k];
    const y = b[k];
    put(o, k, Object.hasOwn(o, k) && isObject(x) && isObject(y) ? deepMerge(x, y) : y);
  }
  return o;
}

export function times(a: unknown, b: unknown): unknown {
  if (typeof a === "number" && typeof b === "number") return a * b;
  if ((typeof a === "string" && typeof b === "number") || (typeof a === "number" && typeof b === "string")) {
    const s = (typeof a === "string" ? a : b) as string;
    const n = (typeof a === "number" ? a : b) as number;
    return n < 0 || Number.isNaN(n) ? null : s.repeat(Math.min(Math.trunc(n), 2147483647));
  }
  if (isObject(a) && isObject(b)) return deepMerge(a, b);
  return fail(`${described(a)} and ${described(b)} cannot be multiplied`);
}

export function divide(a: unknown, b: unknown): unknown {
  if (typeof a === "number" && typeof b === "number") {
    if (b === 0) fail(`${described(a)} and ${described(b)} cannot be divided because the divisor is zero`);
    return a / b;
  }
  if (typeof a === "string" && typeof b === "string") return split(a, b);
  return fail(`${described(a)} and ${described(b)} cannot be divided`);
}

const INTMAX = 2n ** 63n - 1n;

/** jq converts both sides to 64-bit integers, clamped to ±(2^63 − 1). */
function toInt(n: number): bigint {
  if (n >= 9223372036854775807) return INTMAX;
  if (n <= -9223372036854775807) return -INTMAX;
  return BigInt(Math.trunc(n));
}

export function modulo(a: unknown, b: unknown): unknown {
  if (typeof a !== "number" || typeof b !== "number") return fail(`${described(a)} and ${described(b)} cannot be divided`);
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  const y = toInt(b);
  if (y === 0n) return fail(`${described(a)} and ${described(b)} cannot be divided (remainder) because the divisor is zero`);
  if (Math.abs(a) < 2 ** 53 && Math.abs(b) < 2 ** 53) return (Math.trunc(a) % Math.trunc(b)) + 0;
  return Number(toInt(a) % y);
}

export function negate(a: unknown): number {
  if (typeof a === "number") return -a;
  return fail(`${described(a)} cannot be negated`);
}

export function split(s: unknown, sep: unknown): string[] {
  if (typeof s !== "string" || typeof sep !== "string") return fail("split input and separator must be strings");
  if (s === "") return [];
  return sep === "" ? Array.from(s) : s.split(sep);
}
