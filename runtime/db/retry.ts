// Retrying a transaction the database aborted to keep transactions serializable
// (PostgreSQL 40001/40P01, MySQL 1213, TiDB 8002/8022/8028/9007). Such an abort had no
// effect, and running the whole transaction again usually succeeds: the other side has
// committed meanwhile. Every other error is final and is never retried here.
//
// Backoff is "full jitter" (a random delay up to an exponentially growing cap): the
// transactions that collided must not wake up together and collide again. Retries stop
// before the request's deadline, since past it the client has its 503 already.

import { HttpError } from "../core/errors.js";

export interface RetryOptions {
  /** `Date.now()` after which no attempt starts. */
  deadline: number;
  /** The first delay's upper bound; it doubles each attempt. Default 5 ms. */
  baseMs?: number;
  /** The largest delay. Default 250 ms. */
  capMs?: number;
  /** For tests: a number in [0, 1). */
  random?: () => number;
  /** For tests. */
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The delay before attempt `attempt + 1` (attempt 0 is the first retry). */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * Runs `attempt` until it succeeds, fails with an error `retryable` refuses, or the
 * deadline leaves no room for another try; then the last retryable error becomes a 503
 * ("database busy") so the client may try again later.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  retryable: (err: unknown) => boolean,
  options: RetryOptions,
): Promise<T> {
  const base = options.baseMs ?? 5;
  const cap = options.capMs ?? 250;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? sleepFor;
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!retryable(err)) throw err;
      const wait = backoffMs(n, base, cap, random);
      if (Date.now() + wait >= options.deadline) throw conflictError(err);
      await sleep(wait);
    }
  }
}

/** A conflict that outlasted its retries: the database is too contended right now. */
export function conflictError(cause: unknown): HttpError {
  return new HttpError(503, "database busy: too many conflicting writes, try again", { code: "SVC_ERR_DB_UNAVAILABLE", cause,
    headers: { "Retry-After": "1" },
  });
}
