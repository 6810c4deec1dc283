// Built-in functions of the svc language (docs/language.md §2.3), as generated actions call them
// (the list builtins unique and join are in lists.ts).
// Each one is null-safe: a nullable argument gives null (len gives 0), never a crash.

import { ValidationError } from "../core/errors.js";

export function trim(s: string): string;
export function trim(s: string | null): string | null;
export function trim(s: string | null): string | null {
  return s === null ? null : s.trim();
}

export function lower(s: string): string;
export function lower(s: string | null): string | null;
export function lower(s: string | null): string | null {
  return s === null ? null : s.toLowerCase();
}

export function upper(s: string): string;
export function upper(s: string | null): string | null;
export function upper(s: string | null): string | null {
  return s === null ? null : s.toUpperCase();
}

/** Length of a string (in characters) or an array; 0 for null. */
export function len(x: unknown): number {
  if (typeof x === "string") return [...x].length;
  if (Array.isArray(x)) return x.length;
  return 0;
}

/** `a + b` where either side may be null: null reads as the empty string. */
export function concat(a: unknown, b: unknown): string {
  return `${a ?? ""}${b ?? ""}`;
}

/** `x.name` on a json value: null where x is not an object or has no such key. */
export function member(x: unknown, name: string): unknown {
  if (x === null || typeof x !== "object" || Array.isArray(x)) return null;
  return Object.prototype.hasOwnProperty.call(x, name) ? (x as Record<string, unknown>)[name] : null;
}

// Letters that Unicode does not decompose into an ASCII letter and a mark.
const FOLDED: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  ł: "l",
  þ: "th",
  ı: "i",
};

/**
 * A URL slug: lowercase ASCII letters and digits, runs of anything else as one `-`, no
 * `-` at either end. Accented letters lose their accents (`Crème Brûlée` → `creme-brulee`);
 * other scripts are dropped.
 */
export function slug(s: string): string;
export function slug(s: string | null): string | null;
export function slug(s: string | null): string | null {
  if (s === null) return null;
  const folded = text(s, "slug")
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[ßæœøđðłþı]/g, (c) => FOLDED[c]);
  return folded.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/** Every occurrence of `from` replaced by `to`; an empty `from` replaces nothing. */
export function replace(s: string, from: string | null, to: string | null): string;
export function replace(s: string | null, from: string | null, to: string | null): string | null;
export function replace(s: string | null, from: string | null, to: string | null): string | null {
  if (s === null) return null;
  const f = text(from ?? "", "replace");
  return f === "" ? text(s, "replace") : text(s, "replace").split(f).join(text(to ?? "", "replace"));
}

export function startsWith(s: string | null, prefix: string | null): boolean {
  return s !== null && text(s, "starts_with").startsWith(text(prefix ?? "", "starts_with"));
}

export function endsWith(s: string | null, suffix: string | null): boolean {
  return s !== null && text(s, "ends_with").endsWith(text(suffix ?? "", "ends_with"));
}

/**
 * contains(text, part): whether `part` occurs in the text (a null part is empty);
 * contains(list, item): whether the list holds `item`, compared by value. Null gives false.
 * A value from json may be either, so which one is decided here, by what arrived.
 */
export function contains(whole: string | readonly unknown[] | null, part: unknown): boolean {
  if (whole === null) return false;
  if (typeof whole === "string") return whole.includes(text(part ?? "", "contains"));
  if (Array.isArray(whole)) return whole.includes(part);
  throw new ValidationError("SVC_ERR_VALIDATION", `contains takes text or a list, found ${kindOf(whole)}`);
}

/**
 * `count` characters from character `start` (0 is the first); to the end when `count` is
 * left out or null. Counts characters as `len` does, never splitting one in two; a start
 * past the end gives "", a negative start or count counts as 0.
 */
export function substr(s: string, start: number | null, count?: number | null): string;
export function substr(s: string | null, start: number | null, count?: number | null): string | null;
export function substr(s: string | null, start: number | null, count?: number | null): string | null {
  if (s === null) return null;
  const chars = [...text(s, "substr")];
  const from = Math.max(0, start ?? 0);
  const to = count === null || count === undefined ? chars.length : from + Math.max(0, count);
  return chars.slice(from, to).join("");
}

/**
 * The string a builtin works on. Typed code passes strings; a value from a json argument
 * may be anything, and is then a 400 rather than a TypeError.
 */
function text(x: unknown, fn: string): string {
  if (typeof x === "string") return x;
  throw new ValidationError("SVC_ERR_VALIDATION", `${fn} takes text, found ${kindOf(x)}`);
}

function kindOf(x: unknown): string {
  return x === null ? "null" : Array.isArray(x) ? "a list" : typeof x;
}
