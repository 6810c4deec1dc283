// One error type for everything that becomes an HTTP answer. Its message goes to the
// client as `{ok: false, error}`; anything that is not an HttpError becomes a 500
// "internal error" and its details go only to the log.

export class HttpError extends Error {
  readonly status: number;
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, message: string, options?: { cause?: unknown; headers?: Record<string, string> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
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
  constructor(message: string) {
    super(400, message);
    this.name = "ValidationError";
  }
}

/** A `fail` statement; rolls the action back. A `fail 401` names its challenge (RFC 9110 §15.5.2). */
export class Fail extends HttpError {
  constructor(status: number, message: string, challenge?: string) {
    super(status, message, challenge === undefined ? undefined : { headers: { "WWW-Authenticate": challenge } });
    this.name = "Fail";
  }
}

/** The server cannot start: a destructive schema difference, a bad flag, a missing credential. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}
