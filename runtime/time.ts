// The one clock generated code reads for `now()`: ISO-8601 UTC with milliseconds, the
// same form timestamps are stored and returned in (see timestamp.ts).

/** The current time as `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export function now(): string {
  return new Date().toISOString();
}
