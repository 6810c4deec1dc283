// One error type for everything that becomes an HTTP answer. Its message goes to the
// client as `{ok: false, error}`; anything that is not an HttpError becomes a 500
// "internal error" and its details go only to the log. Every error here carries a code from
// the catalog (contract/error-codes.ts); a code goes to the log line, never into the answer's body.

import { ERROR_CODES, type ErrorCode } from "../contract/error-codes.js";

export type { ErrorCode } from "../contract/error-codes.js";

/** An error of the runtime's own, with its catalog code. */
export class SvcError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SvcError";
    this.code = code;
  }
}

/** A clock or a bound outside what an id can encode: still a RangeError, with a code. */
export class OutOfRangeError extends RangeError {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = "OutOfRangeError";
    this.code = code;
  }
}

export class HttpError extends SvcError {
  readonly status: number;
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Record<string, string> | undefined;

  /** `code` defaults to SVC_ERR_HTTP, the generated code's own answers (a missing row's 404). */
  constructor(
    status: number,
    message: string,
    options?: { cause?: unknown; headers?: Record<string, string>; code?: ErrorCode },
  ) {
    super(options?.code ?? "SVC_ERR_HTTP", message, options);
    this.name = "HttpError";
    this.status = status;
    this.headers = options?.headers;
  }
}

/**
 * A value the client sent does not fit what was declared (an argument check, a json member,
 * a field an operation writes): a 400 that svc.toml `[errors] validation_status` may
 * renumber on routes that shape their answer. A `fail` is never one.
 */
export class ValidationError extends HttpError {
  constructor(code: ErrorCode, message: string) {
    super(400, message, { code });
    this.name = "ValidationError";
  }
}

/** A `fail` statement; rolls the action back. A `fail 401` names its challenge (RFC 9110 §15.5.2). */
export class Fail extends HttpError {
  constructor(status: number, message: string, challenge?: string) {
    super(status, message, { code: "SVC_ERR_FAIL", headers: challenge === undefined ? undefined : { "WWW-Authenticate": challenge } });
    this.name = "Fail";
  }
}

/** The server cannot start: a destructive schema difference, a bad flag, a missing credential. */
export class StartupError extends SvcError {
  constructor(code: ErrorCode, message: string) {
    super(code, message);
    this.name = "StartupError";
  }
}

/** The catalog code an error carries; anything else the runtime did not raise on purpose is SVC_ERR_INTERNAL. */
export function codeOf(err: unknown): ErrorCode {
  const code = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && Object.hasOwn(ERROR_CODES, code) ? (code as ErrorCode) : "SVC_ERR_INTERNAL";
}
