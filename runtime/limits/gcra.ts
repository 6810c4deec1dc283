// The generic cell rate algorithm (GCRA, ITU-T I.371 as rate limiters use it): one number
// per key, the theoretical arrival time (TAT) of the next request, rather than a count and
// a window start. A request at `now` moves it to max(TAT, now) + T, where T = window /
// count, and is allowed when that is at most burst · T ahead of now. A refused request
// leaves it where it was, so a client hammering a full bucket waits no longer than one
// that stops. The database statements (sql.ts) compute the same thing in SQL.

/** What one check decided, in milliseconds. */
export interface Decision {
  allowed: boolean;
  /** The TAT after the check (unchanged when refused). */
  tat: number;
}

export interface Rate {
  /** T: milliseconds between two requests at the sustained rate. */
  intervalMs: number;
  /** burst · T: how far ahead of now the TAT may run. */
  capacityMs: number;
}

export function rateOf(count: number, windowS: number, burst: number): Rate {
  // Whole milliseconds: the databases keep the TAT as an integer.
  const intervalMs = Math.max(1, Math.round((windowS * 1000) / count));
  return { intervalMs, capacityMs: intervalMs * burst };
}

export function decide(tat: number | null, now: number, rate: Rate): Decision {
  const next = Math.max(tat ?? now, now) + rate.intervalMs;
  if (next - now <= rate.capacityMs) return { allowed: true, tat: next };
  return { allowed: false, tat: tat ?? now };
}

/** Requests still allowed at once after a check that left `tat`. */
export function remaining(tat: number, now: number, rate: Rate): number {
  return Math.max(0, Math.floor((rate.capacityMs - (tat - now)) / rate.intervalMs + 1e-9));
}

/** Milliseconds until one more request is allowed (0 when one is). */
export function waitMs(tat: number, now: number, rate: Rate): number {
  return Math.max(0, Math.max(tat, now) + rate.intervalMs - rate.capacityMs - now);
}
