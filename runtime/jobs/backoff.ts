// How long a failed attempt waits before the next one (docs/language.md §2.8): exponential in
// the attempt number, capped, with jitter (a uniform draw in the upper half of the bound), so
// jobs that failed together do not come back together. An outbox's deliveries can retry the
// same way.

/** The wait after the first failed attempt's bound: 1 s, then 2 s, 4 s, … */
export const BACKOFF_BASE_MS = 1_000;
/** No wait is longer than an hour, however many attempts have failed. */
export const BACKOFF_CAP_MS = 60 * 60 * 1000;

export interface Backoff {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: BACKOFF_BASE_MS, capMs: BACKOFF_CAP_MS };

/** The upper bound of the wait after failed attempt `attempt` (from 1): base·2^(attempt−1), capped. */
export function backoffBound(attempt: number, b: Backoff = DEFAULT_BACKOFF): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 40));
  return Math.min(b.capMs, b.baseMs * 2 ** exponent);
}

/**
 * The wait after failed attempt `attempt`: at least half the bound, at most the bound
 * ("equal jitter": never retried at once, still spread). `random` is in [0, 1).
 */
export function backoffDelay(attempt: number, random: () => number = Math.random, b: Backoff = DEFAULT_BACKOFF): number {
  const bound = backoffBound(attempt, b);
  return Math.floor(bound / 2 + random() * (bound / 2));
}
