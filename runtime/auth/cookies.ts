// The session cookie (RFC 6265): read from the Cookie header, written with HttpOnly,
// SameSite=Lax, Path=/ and Max-Age. It is Secure, and then named with the `__Host-`
// prefix (which browsers accept only from a secure origin, for the whole host, so a
// sibling subdomain cannot plant one), unless the request reached a loopback host over
// plain HTTP: development on this machine, where a Secure cookie would be dropped.

import type { IncomingMessage } from "node:http";

/** Is this request for a loopback host (`localhost`, `127.x.x.x`, `[::1]`) over plain HTTP? */
export function plainLoopback(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted === true) return false;
  if (req.headers["x-forwarded-proto"] === "https") return false;
  const host = req.headers.host ?? "";
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  const lower = name.toLowerCase();
  return lower === "localhost" || lower.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(lower) || lower === "[::1]";
}

/** The cookie's name for this request. */
export function cookieName(req: IncomingMessage, name: string): string {
  return plainLoopback(req) ? name : `__Host-${name}`;
}

/** The value of cookie `name` in the request, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    return part.slice(eq + 1).trim();
  }
  return null;
}

export function setCookie(req: IncomingMessage, name: string, value: string, maxAgeS: number): string {
  const secure = plainLoopback(req) ? "" : "; Secure";
  return `${cookieName(req, name)}=${value}; Max-Age=${maxAgeS}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

export function clearCookie(req: IncomingMessage, name: string): string {
  return setCookie(req, name, "", 0);
}
