// The two 503s of the network adapters, and the socket errors behind the first. Both carry
// Retry-After (RFC 9110 §10.2.3): a restarted database or a drained pool is usually back
// within a second.

import { HttpError } from "../../core/errors.js";

/** Node's socket and DNS errors: the database's host cannot be reached or dropped the connection. */
export const SOCKET_ERROR_CODES: readonly string[] = [
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
];

/** The database cannot be reached, refused the connection, or dropped it. */
export function unavailableError(cause: unknown): HttpError {
  return new HttpError(503, "database unavailable", { code: "SVC_ERR_DB_UNAVAILABLE", cause, headers: { "Retry-After": "1" } });
}

/** The database is there but cannot take the work now: no free connection in time, a lock, a timeout. */
export function busyError(cause: unknown): HttpError {
  return new HttpError(503, "database busy", { code: "SVC_ERR_DB_UNAVAILABLE", cause, headers: { "Retry-After": "1" } });
}
