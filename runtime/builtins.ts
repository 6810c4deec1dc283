// Built-in functions of the svc language (docs/language.md §2.3), as generated actions call them.
// Each one is null-safe: a nullable argument gives null (len gives 0), never a crash.

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
