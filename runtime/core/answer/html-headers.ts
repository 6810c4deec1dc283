// Headers of every HTML response (docs/language.md §5). The policy allows what pages use and
// nothing else: scripts and styles from this server (Unpoly is served from here), inline
// style attributes (Unpoly sets some while it animates), images from here or data: URLs,
// forms posting back here, and no framing at all.

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  // frame-ancestors for browsers that read CSP, X-Frame-Options for those that do not.
  "X-Frame-Options": "DENY",
  // Same-origin requests keep the full Referer: a failed form post re-renders the page it came from.
  "Referrer-Policy": "same-origin",
};

export const HTML_TYPE = "text/html; charset=utf-8";
