// The JSON text of a query's answer, written by a function the compiler generates for its
// row type (compiler/generate/sections/answers.ts), with the text JSON.stringify gives.
// JSON.stringify (V8 11, Node 20) looks at every character of every string on its own, some
// 25 instructions a character, so a row with a paragraph of text cost more to write than to
// read from SQLite; here a string that needs no escaping is found by one regular expression,
// which scans it in native code, and is quoted as it is.

/** What JSON.stringify escapes in a string: `"`, `\`, control characters and surrogates (lone ones; a pair takes the slow path too, unchanged). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `v` as JSON.stringify writes it, undefined (which it leaves out of an object) as null. */
export function jsonValue(v: unknown): string {
  if (typeof v === "string") return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
  if (v === null) return "null";
  return JSON.stringify(v) ?? "null";
}

/** The rows of a query, `row` writing each: `[…]`, made flat by `join`, as the envelope's writer wants it. */
export function jsonRows<T>(rows: unknown, row: (r: T) => string): string {
  return `[${(rows as readonly T[]).map(row).join(",")}]`;
}

/** The row of a `one` query, or null. */
export function jsonRowOrNull<T>(found: unknown, row: (r: T) => string): string {
  return found === null || found === undefined ? "null" : row(found as T);
}
