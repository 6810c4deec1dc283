// Cross-site form posts are refused without tokens in templates (docs/language.md §5), with the
// headers browsers send on every request: Fetch Metadata (`Sec-Fetch-Site`, W3C Fetch
// Metadata Request Headers §2.1) and `Origin` (RFC 6454 §7). A JSON body needs no check:
// a browser sends one cross-site only after a CORS preflight the server controls.

import type { IncomingMessage } from "node:http";
import { HttpError } from "../errors.js";
import { mediaType } from "../media-type.js";

/** True when the request comes from another site: it must not change anything. */
export function isCrossSite(req: IncomingMessage): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site === "cross-site") return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  // An opaque origin ("null": a sandboxed frame, a file: page) is no site of ours; a
  // browser that also sent Fetch Metadata has already said whether it is (it sends "null"
  // for a same-origin post from a page with Referrer-Policy: no-referrer).
  if (origin === "null") return site === undefined;
  return originHost(origin) !== (req.headers.host ?? "").toLowerCase();
}

/** Throws the 403 for a cross-site request. */
export function refuseCrossSite(req: IncomingMessage): void {
  if (isCrossSite(req)) throw new HttpError(403, "cross-site form posts are not accepted");
}

/** `https://Example.com:8443` → `example.com:8443`; null for something that is not an origin. */
function originHost(origin: string): string | null {
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

// The media types a cross-site HTML form can send without a CORS preflight (Fetch §2.2.2).
const FORM_MEDIA: ReadonlySet<string> = new Set(["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]);

/**
 * For module endpoints, which accept forms too: a POST whose body a cross-site form could
 * have sent, from another site, is a 403 before anything runs.
 */
export function refuseCrossSiteForm(req: IncomingMessage): void {
  const header = req.headers["content-type"];
  if (header === undefined) return;
  if (FORM_MEDIA.has(mediaType(header))) refuseCrossSite(req);
}
