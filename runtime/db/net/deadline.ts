// What a write-timeout 503 promises on the network backends: nothing was written. An
// action's transaction is therefore committed only while its request is still in time;
// one whose work ends later is rolled back and answered 503 (postgres.ts, mysql.ts).

import { HttpError } from "../../core/errors.js";

/**
 * How long before the request's deadline a transaction must be ready to commit. The
 * deadline is counted from the transaction's start, a little after the request's own
 * (its arguments were read first), and COMMIT takes a round trip: the margin covers both,
 * so a transaction never commits after its client was answered 503.
 */
export function commitMarginMs(requestTimeoutMs: number): number {
  return Math.min(250, Math.floor(requestTimeoutMs / 10));
}

/** The answer to work that ended too late to be committed: it was rolled back. */
export function lateCommitError(): HttpError {
  return new HttpError(503, "the server did not answer within the write timeout; nothing was written", { code: "SVC_ERR_WRITE_TIMEOUT", headers: { "Retry-After": "1" },
  });
}
