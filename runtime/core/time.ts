// The one clock generated code reads for `now()`, and the time in every log line: ISO-8601
// UTC with milliseconds, the same form timestamps are stored and returned in (see
// timestamp.ts).
//
// `Date.prototype.toISOString` formats through snprintf, some 7,000 instructions a call:
// more than the rest of a /health answer's logging together. Everything up to the second
// changes once a second, so it is formatted then and kept; per call the milliseconds are
// appended, from a table.

let keptSecond = Number.NaN;
// "000Z" … "999Z": the milliseconds and the zone as one piece to append.
export const MILLIS_Z: readonly string[] = Array.from({ length: 1000 }, (_, ms) => `${String(ms).padStart(3, "0")}Z`);
let keptPrefix = "";

/** The current time as `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export function now(): string {
  return isoTime(Date.now());
}

/** `new Date(ms).toISOString()`, for a whole number of milliseconds. */
export function isoTime(ms: number): string {
  const millis = ms % 1000;
  // Before 1970 the remainder is negative; such times are not the clock's, so no cache.
  if (millis < 0) return new Date(ms).toISOString();
  return isoSecond(ms - millis) + MILLIS_Z[millis];
}

/** `YYYY-MM-DDTHH:MM:SS.` for `second`, a whole second since 1970 in milliseconds; kept until the next one. */
export function isoSecond(second: number): string {
  if (second !== keptSecond) {
    const iso = new Date(second).toISOString();
    // "…:SS.000Z" less its "000Z"; a year past 9999 makes the prefix longer, not different.
    keptPrefix = iso.slice(0, iso.length - 4);
    keptSecond = second;
  }
  return keptPrefix;
}
