// Who is asking, from the request's headers (docs/language.md §4): a form post (an urlencoded or
// multipart body, from a plain browser or from Unpoly, which sends X-Up-Version and does
// not ask for text/html) is answered with redirects and pages; everyone else with the
// JSON envelope.

import type { IncomingMessage } from "node:http";

/**
 * A form post: a form's media type. Unpoly may send a form without fields with no body and
 * no Content-Type, so an Unpoly request without a body counts as a form too.
 */
export function isFormPost(req: IncomingMessage, media: string): boolean {
  if (media === "application/x-www-form-urlencoded" || media === "multipart/form-data") return true;
  return media === "" && req.headers["x-up-version"] !== undefined;
}

/** `Accept` names JSON and not HTML: a script that posts a form but wants the envelope back. */
export function wantsJsonOnly(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (accept === undefined) return false;
  return accept.includes("application/json") && !accept.includes("text/html");
}

/** `Accept` names HTML: a browser navigating, which should see an HTML error page rather than JSON. */
export function acceptsHtml(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return accept !== undefined && accept.includes("text/html");
}
