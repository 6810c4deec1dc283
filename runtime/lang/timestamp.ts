// ISO-8601 timestamps in the RFC 3339 profile, parsed strictly: `Date.parse` accepts
// free-form dates ("May 1, 2024"), rolls 2024-02-31 over into March and reads a time
// without an offset as local time, none of which a server should do.
//
// Accepted: `YYYY-MM-DD`, optionally `T` (or `t` or a space) `HH:MM[:SS[.fraction]]`,
// optionally `Z` or an offset `±HH:MM`, `±HHMM` or `±HH`. A date or time without an
// offset is UTC. The result is `Date.prototype.toISOString()`: UTC, milliseconds, `Z`.

const PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysIn(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
}

/** The normalized UTC form of an ISO-8601 timestamp, or null when `text` is not one. */
export function parseTimestamp(text: string): string | null {
  const m = PATTERN.exec(text);
  if (m === null) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  // Milliseconds are what a JS Date keeps; finer digits are dropped, not rounded, so a
  // value never moves into the next second.
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  const offsetSign = m[9] === "-" ? -1 : 1;
  const offsetHours = m[10] === undefined ? 0 : Number(m[10]);
  const offsetMinutes = m[11] === undefined ? 0 : Number(m[11]);

  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (offsetHours > 23 || offsetMinutes > 59) return null;

  // Date.UTC maps years 0..99 to 1900..1999, so set the year separately.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year);
  const utc = date.getTime() - offsetSign * (offsetHours * 60 + offsetMinutes) * 60_000;
  const result = new Date(utc);
  // Keep the four-digit year form so stored timestamps sort correctly as text.
  const utcYear = result.getUTCFullYear();
  if (utcYear < 0 || utcYear > 9999) return null;
  return result.toISOString();
}
