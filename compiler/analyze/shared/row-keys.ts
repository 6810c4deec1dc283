/**
 * Columns a row object holds one key each of, and whose JSON keys are ASCII: a repeated name is
 * one key (the last value, in the first one's place) and `__proto__` may not be a key at all.
 * An answer is written by a JSON writer made for its columns (generate/sections/answers.ts,
 * analyze/sql/sqlite/json-rows.ts) only where this holds, else JSON.stringify stays; ASCII
 * because the runtime takes an answer whose values are ASCII for ASCII throughout (its size in
 * bytes is its length), which the keys must not belie.
 */
export function oneAsciiKeyEach(columns: readonly string[]): boolean {
  return (
    columns.length > 0 &&
    new Set(columns).size === columns.length &&
    !columns.includes("__proto__") &&
    columns.every((c) => /^[\x00-\x7f]*$/.test(c))
  );
}
