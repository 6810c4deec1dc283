// Every code an error the runtime raises carries (Fastify's FST_ERR_* idea): stable names an
// operator can grep a log for and a test can match, one per kind of failure, not per line.
// The codes are part of the server's contract with whoever runs it. docs/runtime-errors.md is
// generated from this table; tests/unit/structure/error-codes.test.ts holds the two in step and
// finds any `throw new …Error(` in runtime/ that names no code.

/** What a code means, and the status of the answer where the error becomes one. */
export interface ErrorCodeInfo {
  readonly meaning: string;
  /** The HTTP status, "varies" when the raiser picks it, undefined when the error is never an answer. */
  readonly status?: number | "varies";
}

export const ERROR_CODES = {
  // Answers to a request the client got wrong.
  SVC_ERR_BAD_FRAMING: { meaning: "the request's framing is refused (Transfer-Encoding, Host, a malformed request line, chunk extensions too large)", status: "varies" },
  SVC_ERR_HEADERS_TOO_LARGE: { meaning: "the request's headers are over 16 KiB", status: 431 },
  SVC_ERR_READ_TIMEOUT: { meaning: "the request did not arrive within the read timeout", status: 408 },
  SVC_ERR_BAD_URL: { meaning: "the path or query string cannot be read (a bad %-escape, an argument given twice or as a list)", status: 400 },
  SVC_ERR_BAD_HOST: { meaning: "the request's Host is not a host name", status: 400 },
  SVC_ERR_BAD_BODY: { meaning: "the request body cannot be read (malformed JSON or form, not UTF-8, cut short)", status: 400 },
  SVC_ERR_BODY_TOO_LARGE: { meaning: "the request body is over the size limit", status: 413 },
  SVC_ERR_UNSUPPORTED_MEDIA_TYPE: { meaning: "the body's Content-Type or charset is not one svc reads, or a file is sent where none is taken", status: 415 },
  SVC_ERR_ARGUMENT: { meaning: "an argument is missing, unknown, or not of its declared type", status: 400 },
  SVC_ERR_VALIDATION: { meaning: "a value does not fit what was declared (a json member, a field, a list bound, a builtin's input)", status: 400 },
  SVC_ERR_NOT_FOUND: { meaning: "no route, file or asset answers this path", status: 404 },
  SVC_ERR_METHOD_NOT_ALLOWED: { meaning: "the path exists but not for this method; the answer lists Allow", status: 405 },
  SVC_ERR_CROSS_SITE: { meaning: "a cross-site request that changes state is refused", status: 403 },
  SVC_ERR_RATE_LIMITED: { meaning: "a rate limit or the sign-in throttle refused the request; the answer carries Retry-After", status: 429 },
  SVC_ERR_PAGE_HANDLER: { meaning: "a route file's form post names no handler, or one the file does not have", status: "varies" },
  SVC_ERR_REDIRECT_OFFSITE: { meaning: "a page's redirect target leaves this site", status: 400 },
  SVC_ERR_IDEMPOTENCY_KEY: { meaning: "the Idempotency-Key header is malformed or sent twice", status: 400 },
  SVC_ERR_IDEMPOTENCY_MISMATCH: { meaning: "an Idempotency-Key is reused for a different request", status: 422 },
  SVC_ERR_IDEMPOTENCY_IN_PROGRESS: { meaning: "a request with this Idempotency-Key is still running", status: 409 },
  SVC_ERR_IDEMPOTENCY_CONTENDED: { meaning: "the Idempotency-Key's row is contended; try again", status: 503 },
  SVC_ERR_CONSTRAINT: { meaning: "the database refused a write: a unique index, a foreign key, a check, a required column", status: "varies" },
  // Identity.
  SVC_ERR_AUTH_HEADER: { meaning: "the Authorization header is sent more than once", status: 400 },
  SVC_ERR_UNAUTHENTICATED: { meaning: "the route needs a caller, and none (or an invalid token or session) was given", status: 401 },
  SVC_ERR_FORBIDDEN: { meaning: "the caller lacks the role the route needs", status: 403 },
  SVC_ERR_SUBJECT_RESERVED: { meaning: "an issued token or session names a subject with a reserved prefix", status: 400 },
  SVC_ERR_AUTH_UNAVAILABLE: { meaning: "a token cannot be checked now: the revocation list or the provider's keys cannot be read", status: 503 },
  SVC_ERR_METRICS_ACCESS: { meaning: "a /metrics scrape from another machine without the metrics token", status: "varies" },
  SVC_ERR_WEBHOOK_SIGNATURE: { meaning: "an incoming webhook's signature is missing, stale or wrong", status: 401 },
  // The server's own state.
  SVC_ERR_SHUTTING_DOWN: { meaning: "the server is shutting down and takes no new request", status: 503 },
  SVC_ERR_WRITE_TIMEOUT: { meaning: "the answer was not ready within the write timeout", status: 503 },
  SVC_ERR_DB_UNAVAILABLE: { meaning: "the database cannot be reached or is busy now; the answer carries Retry-After", status: 503 },
  SVC_ERR_PAGE_TIMEOUT: { meaning: "a page's jq program took too long", status: 503 },
  SVC_ERR_UPLOAD_WRITE: { meaning: "an uploaded file could not be stored", status: 500 },
  // Raised by the app's own code.
  SVC_ERR_FAIL: { meaning: "a `fail` statement of an action, with the status it names", status: "varies" },
  SVC_ERR_HTTP: { meaning: "an error answer the generated code raises with no finer code (a missing row's 404)", status: "varies" },
  SVC_ERR_JQ: { meaning: "a jq program (page.jq, an answer's shape) raised an error", status: 500 },
  SVC_ERR_PAGE_DATA: { meaning: "page.jq did not give one object for its template", status: 500 },
  SVC_ERR_CLOCK_RANGE: { meaning: "a ULID or UUIDv7 was asked for with a clock outside 48 bits of milliseconds", status: 500 },
  SVC_ERR_AUTH_NOT_CONFIGURED: { meaning: "an action issues a token or a session that svc.toml's [auth] does not configure", status: 500 },
  // Start-up: the server does not start, and says why.
  SVC_ERR_OPTION: { meaning: "a command-line flag, environment variable or svc.toml key has a bad value" },
  SVC_ERR_LISTEN: { meaning: "the server cannot listen on its address (in use, not local, not permitted)" },
  SVC_ERR_WORKER_START: { meaning: "a --workers worker failed to start" },
  SVC_ERR_DB_URL: { meaning: "--db does not name a database the backend can open (not a URL, no host, a bad parameter)" },
  SVC_ERR_DB_OPEN: { meaning: "the database cannot be opened or connected to at start-up" },
  SVC_ERR_MIGRATION: { meaning: "the schema cannot be brought up to date (a destructive difference, a DDL statement that fails)" },
  SVC_ERR_STATEMENT: { meaning: "a statement does not prepare against the database (built for another backend, a missing column)" },
  SVC_ERR_CREDENTIAL: { meaning: "a credential the server needs is missing or is not of its kind (a webhook or subscriber secret)" },
  SVC_ERR_AUTH_CONFIG: { meaning: "[auth] is configured with a key, a bearer list or a password cost the server cannot use" },
  SVC_ERR_ASSET: { meaning: "a file or package the server serves (public/, openapi.json, Swagger UI, Unpoly) cannot be loaded" },
  SVC_ERR_TEMPLATE: { meaning: "a page template cannot be compiled (or uses a partial)" },
  SVC_ERR_SCHEDULE: { meaning: "a job's schedule is not a cron expression the runner reads" },
  SVC_ERR_JWKS: { meaning: "the identity provider's key set cannot be fetched or read (logged; tokens then answer SVC_ERR_AUTH_UNAVAILABLE)" },
  // Bugs: a check that holds unless svc itself is wrong. The answer is a 500, the details go to the log.
  SVC_ERR_INTERNAL: { meaning: "an internal invariant broke (a statement not prepared, a table the route table names but no binding)", status: 500 },
  SVC_ERR_TX_ENDED: { meaning: "a statement ran after its transaction ended (a missing await in hand-written code)", status: 500 },
  SVC_ERR_BIND: { meaning: "a statement was given an argument SQL cannot hold (an object, a non-finite number)", status: 500 },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;
