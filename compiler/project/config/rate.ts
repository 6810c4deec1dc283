// Rates as svc writes them, in the language (`limit 5 per 1m burst 10`, compiler/analyze/config/limits.ts)
// and in svc.toml (`[auth.throttle] account = "2 per 1m burst 5"`): the window's units and
// the bounds of the numbers, in one place.

export interface RateModel {
  count: number;
  windowS: number;
  burst: number;
}

export const MAX_LIMIT_NUMBER = 1_000_000;

const UNITS: Record<string, number> = {
  s: 1, sec: 1, second: 1, seconds: 1,
  m: 60, min: 60, minute: 60, minutes: 60,
  h: 3600, hour: 3600, hours: 3600,
  d: 86400, day: 86400, days: 86400,
};

/** A window of `amount` `unit`s in seconds, or null: unknown unit, zero, or past a year. */
export function windowSeconds(amount: number, unit: string): number | null {
  const per = UNITS[unit];
  if (per === undefined || !(amount >= 1)) return null;
  const seconds = amount * per;
  return seconds <= 366 * 86400 ? seconds : null;
}

/** `"2 per 1m burst 5"` (svc.toml) → the rate, or null when it does not parse. */
export function parseRate(text: string): RateModel | null {
  const m = /^\s*(\d{1,7})\s+per\s+(\d{1,7})?\s*([a-z]+)(?:\s+burst\s+(\d{1,7}))?\s*$/.exec(text);
  if (m === null) return null;
  const count = Number(m[1]);
  const windowS = windowSeconds(m[2] === undefined ? 1 : Number(m[2]), m[3]);
  const burst = m[4] === undefined ? count : Number(m[4]);
  if (windowS === null || !inRange(count) || !inRange(burst)) return null;
  return { count, windowS, burst };
}

export function inRange(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_LIMIT_NUMBER;
}
