// Who may scrape (docs/operations.md, Metrics): a scrape from this machine needs nothing; from
// elsewhere it bears the `[server] metrics_token` credential (`Authorization: Bearer …`), or
// reaches the separate `--metrics-listen` address, which the operator binds where only the
// scraper can reach it. A request a proxy forwarded (Forwarded, X-Forwarded-For) is not from
// this machine, whatever its socket says: the proxy is, its client may not be.

import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HttpError } from "../core/errors.js";

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

export class ScrapeAccess {
  private readonly token: Buffer | null;

  /** `token`: the credential's value; `open`: every caller may scrape (the separate address without a token). */
  constructor(token: string | null, private readonly open: boolean) {
    this.token = token === null ? null : digest(token);
  }

  /** Throws the 401 or 403 a refused scrape answers. */
  check(req: IncomingMessage): void {
    const forwarded = req.headers.forwarded !== undefined || req.headers["x-forwarded-for"] !== undefined;
    if (this.token === null) {
      if (this.open || (!forwarded && isLoopback(req.socket.remoteAddress))) return;
      throw new HttpError(403, "metrics are served to this machine only; set [server] metrics_token or --metrics-listen to scrape from elsewhere", { code: "SVC_ERR_METRICS_ACCESS" });
    }
    if (!forwarded && isLoopback(req.socket.remoteAddress)) return;
    const header = req.headers.authorization;
    // Compared as digests: equal lengths, and the time taken says nothing of the token.
    const given = header !== undefined && header.slice(0, 7).toLowerCase() === "bearer " ? digest(header.slice(7).trim()) : null;
    if (given === null || !timingSafeEqual(given, this.token)) {
      throw new HttpError(401, "a scrape from another machine needs the metrics token", { code: "SVC_ERR_METRICS_ACCESS", headers: { "WWW-Authenticate": 'Bearer realm="metrics"' } });
    }
  }
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
