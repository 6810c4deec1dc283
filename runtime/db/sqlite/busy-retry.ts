// Waiting for another process's write lock without freezing this one.
//
// SQLite's own busy handler (`PRAGMA busy_timeout`) sleeps inside the call, and with
// a synchronous driver that stops the whole event loop: a worker waiting for another
// worker's transaction would stop answering even reads. So at run time the adapter
// keeps SQLite's busy timeout at zero and retries here, asynchronously, with SQLite's
// own back-off schedule, until a deadline.

import { isBusy } from "./errors.js";

// sqlite3.c `sqliteDefaultBusyCallback`: delays in ms between attempts.
const DELAYS_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

/**
 * Calls `attempt` until it does not fail with SQLITE_BUSY, for at most `timeoutMs`;
 * then rethrows the last SQLITE_BUSY error. Other errors are rethrown at once.
 * `attempt` must have had no effect when it fails busy (true of a single statement).
 */
export async function retryWhileBusy<T>(attempt: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isBusy(err)) throw err;
      const wait = Math.min(DELAYS_MS[Math.min(tries, DELAYS_MS.length - 1)], deadline - Date.now());
      if (wait <= 0) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
