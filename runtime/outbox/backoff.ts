// When a failed delivery is tried again: exponential backoff with full jitter (the delay
// is uniform between half and all of `first * 2^(attempt-1)`, capped at `max`), so the
// deliveries that failed together do not all come back together.

export interface BackoffPolicy {
  /** The delay after the first failed attempt, before jitter (ms). */
  firstMs: number;
  /** No delay is longer than this (ms). */
  maxMs: number;
}

/** The delay before attempt `failed + 1`, after `failed` attempts failed (failed >= 1); `random` in [0, 1). */
export function retryDelayMs(policy: BackoffPolicy, failed: number, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxMs, policy.firstMs * 2 ** Math.min(failed - 1, 40));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}
