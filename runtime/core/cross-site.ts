// The one cross-site rule (docs/language.md §3, "Requests from other sites"). A request whose
// method is not safe (RFC 9110 §9.2.1: anything but GET, HEAD and OPTIONS) changes things, so
// it is judged before anything it reaches runs, whatever it targets (module endpoints, declared
// routes, route files) and whatever its body: an HTML form, a fetch with no body or
// `text/plain` needs no CORS preflight, so the body's type proves nothing.
//
// The judge is what browsers attach to every request and pages cannot forge: Fetch Metadata
// (`Sec-Fetch-Site`, W3C Fetch Metadata Request Headers §2.1), else `Origin` (RFC 6454 §7).
// - `same-origin`, or `none` (the user's own action: a bookmark, the address bar): accepted.
// - Neither header: not a browser (curl, a server, a mobile app), so no cookie was lent
//   without its owner knowing: accepted.
// - No Fetch Metadata and an `Origin` whose host is the request's `Host` (or `--public-url`'s,
//   or with `--trust-proxy` the first `X-Forwarded-Host`): accepted.
// - Anything else (`cross-site`; `same-site`, a sibling subdomain, which gets the SameSite
//   cookies yet may serve content the app does not control; an opaque `Origin: null`; a foreign
//   `Origin`) is refused unless `--cors-origin` names that exact origin: the client the server
//   was configured for. `--cors-origin '*'` lets any site act with credentials of its own (a
//   bearer token), never with the cookies a browser attaches: a request carrying a `Cookie`
//   stays refused.
// Webhooks are not judged: their deliveries come from servers, and the signature over the body
// is the proof of where they come from, which no page can make.

import type { IncomingMessage } from "node:http";
import type { Cors } from "./cors.js";
import { HttpError } from "./errors.js";
import type { SiteOptions } from "../contract/index.js";
import type { BoundTarget } from "./router.js";

export class CrossSiteRule {
  /** The one origin `--cors-origin` allows; null when CORS is off or `*`. */
  private readonly allowed: string | null;
  /** `--cors-origin '*'`. */
  private readonly any: boolean;
  /** `--public-url`'s host (and port), which a browser's `Origin` shows behind a proxy that rewrites `Host`. */
  private readonly publicHost: string | null;
  /** `--trust-proxy`: the proxy's `X-Forwarded-Host` names the host the browser asked for. */
  private readonly trustProxy: boolean;

  constructor(cors: Cors | null, site: SiteOptions) {
    this.any = cors !== null && cors.origin === "*";
    this.allowed = cors === null || this.any ? null : cors.origin;
    // Checked at start (option-values.ts): a URL, whose host `URL` writes without a default port.
    this.publicHost = site.publicUrl === null ? null : new URL(site.publicUrl).host;
    this.trustProxy = site.trustProxy;
  }

  /**
   * Hot path: true when `req`, routed to `target`, comes from another site and may not
   * change anything here. `method` is the request's, HEAD already read as GET.
   */
  refuses(req: IncomingMessage, method: string, target: BoundTarget): boolean {
    if (isSafeMethod(method)) return false;
    // A webhook's delivery proves where it comes from by its signature.
    if (target.kind === "endpoint" && target.endpoint.rawBody === true) return false;
    return this.fromAnotherSite(req);
  }

  /** True when a browser says the request comes from a site other than this one and the CORS origin. */
  fromAnotherSite(req: IncomingMessage): boolean {
    const headers = req.headers;
    const site = headers["sec-fetch-site"];
    if (site === "same-origin" || site === "none") return false;
    const origin = headers.origin;
    if (site === undefined) {
      if (origin === undefined) return false;
      // An opaque origin ("null": a sandboxed frame, a file: page, a redirect across sites) is no site of ours.
      if (origin !== "null") {
        const host = originHost(origin);
        if (host !== null && (host === (headers.host ?? "").toLowerCase() || host === this.publicHost || this.forwardedHost(req) === host)) return false;
      }
    }
    if (origin === undefined) return true;
    if (origin === this.allowed) return false;
    return !(this.any && headers.cookie === undefined);
  }

  /** The first `X-Forwarded-Host` (the one the client-side proxy wrote), lower case, when the proxy is trusted. */
  private forwardedHost(req: IncomingMessage): string | null {
    const list = req.headers["x-forwarded-host"];
    if (!this.trustProxy || typeof list !== "string") return null;
    const comma = list.indexOf(",");
    return (comma === -1 ? list : list.slice(0, comma)).trim().toLowerCase();
  }
}

/** RFC 9110 §9.2.1: the methods that only read; every other one is judged. */
export function isSafeMethod(method: string): boolean {
  return method === "GET" || method === "HEAD" || method === "OPTIONS";
}

/** The 403 of a refused request; `method` as the client sent it. */
export function crossSiteRefusal(method: string): HttpError {
  return new HttpError(403, `cross-site ${method} requests are not accepted`, { code: "SVC_ERR_CROSS_SITE" });
}

/** `https://Example.com:8443` → `example.com:8443`; null for something that is not an origin. */
export function originHost(origin: string): string | null {
  const scheme = origin.indexOf("://");
  if (scheme === -1) return null;
  const host = origin.slice(scheme + 3);
  if (host === "" || /[/?#@\s]/.test(host)) return null;
  const lower = host.toLowerCase();
  // Default ports are left out of Host (RFC 9110 §7.2) but may appear in an Origin.
  if (origin.startsWith("http://") && lower.endsWith(":80")) return lower.slice(0, -3);
  if (origin.startsWith("https://") && lower.endsWith(":443")) return lower.slice(0, -4);
  return lower;
}
