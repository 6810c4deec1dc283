// CORS for one allowed origin (--cors-origin), per the Fetch standard §3.2 (CORS protocol).
//
// - An exact origin: a request from it gets `Access-Control-Allow-Origin: <that origin>`
//   and `Access-Control-Allow-Credentials: true`; every response carries `Vary: Origin`,
//   because it differs by the caller's origin and a shared cache must not hand one origin's
//   answer to another.
// - `*`: any origin gets `Access-Control-Allow-Origin: *` and never the credentials header
//   (browsers refuse `*` with credentials, and echoing every origin with credentials would
//   let any site act with a user's cookies).
// - Any other origin gets no CORS header at all, so the browser keeps the response from it.
// - A preflight (OPTIONS with Origin and Access-Control-Request-Method) from an allowed
//   origin is answered 204 here; from another origin it goes on like any OPTIONS request.

import type { IncomingMessage, ServerResponse } from "node:http";
import { sendWhole } from "./answer/index.js";

const ALLOW_HEADERS = "Content-Type, Authorization, X-Request-Id, Idempotency-Key";
/** Browsers cap this (Chromium at 2 h); 10 min keeps a changed setting from lingering long. */
const MAX_AGE_SECONDS = "600";

export class Cors {
  /** The allowed origin, or `*`. */
  readonly origin: string;
  private readonly any: boolean;
  /** Every method the server routes, worked out once at start. */
  private readonly allowMethods: string;

  constructor(origin: string, methods: readonly string[]) {
    this.origin = origin;
    this.any = origin === "*";
    this.allowMethods = methods.join(", ");
  }

  /**
   * Hot path when CORS is on: sets the CORS headers `req` should get on `res`, and answers
   * an allowed preflight. Returns true when the request was answered.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (!this.any) res.setHeader("Vary", "Origin");
    const allowed = origin !== undefined && (this.any || origin === this.origin);
    if (!allowed) return false;
    res.setHeader("Access-Control-Allow-Origin", this.any ? "*" : origin);
    if (!this.any) res.setHeader("Access-Control-Allow-Credentials", "true");
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
      sendWhole(res, 204, null, {
        "Access-Control-Allow-Methods": this.allowMethods,
        "Access-Control-Allow-Headers": ALLOW_HEADERS,
        "Access-Control-Max-Age": MAX_AGE_SECONDS,
      });
      return true;
    }
    // Lets the page's script read the id to quote in a bug report, and see a replayed answer.
    res.setHeader("Access-Control-Expose-Headers", "X-Request-Id, Idempotent-Replayed");
    return false;
  }
}

/** Null when --cors-origin is not set: no CORS headers on any response. */
export function createCors(origin: string | null, methods: readonly string[]): Cors | null {
  return origin === null ? null : new Cors(origin, methods);
}
