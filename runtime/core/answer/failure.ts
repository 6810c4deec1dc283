// What an error becomes on its way out, for every writer of error answers (the envelope's,
// the app's declared shape): an HttpError keeps its status, message and headers and is
// logged at debug; anything else is a 500 "internal error" whose details go only to the log.

import { codeOf, HttpError } from "../errors.js";
import type { Logger } from "../log.js";

export interface Failure {
  status: number;
  message: string;
  headers: Record<string, string> | undefined;
  /** The error the client sent: what a validation status may renumber. */
  err: HttpError | null;
}

export const INTERNAL_MESSAGE = "internal error";

/** `err` as its answer will say it, logged; `context` goes with the log line so it can be matched to the request. */
export function failureOf(err: unknown, log: Logger, context: Record<string, unknown> | undefined): Failure {
  if (err instanceof HttpError) {
    if (log.enabled("debug")) log.debug("request failed", { ...context, status: err.status, code: err.code, error: err.message });
    return { status: err.status, message: err.message, headers: err.headers, err };
  }
  log.error("internal error", { ...context, code: codeOf(err), error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  return { status: 500, message: INTERNAL_MESSAGE, headers: undefined, err: null };
}
