// The session cookie (RFC 6265): read from the Cookie header, written with HttpOnly,
// SameSite=Lax, Path=/ and Max-Age. It is Secure, and then named with the `__Host-`
// prefix (which browsers accept only from a secure origin, for the whole host, so a
// sibling subdomain cannot plant one), unless the site is reached over plain HTTP on a
// loopback host: development on this machine, where a Secure cookie would be dropped.
//
// Where the site is reached comes from what the operator said, not from what a proxy
// wrote into Host (docs/operations.md "Public URL and proxies"): `public_url` decides
// alone; else, behind a trusted proxy, its X-Forwarded-Proto and X-Forwarded-Host; else the
// connection and the Host header. A proxy that sends `Host: 127.0.0.1` with a https
// public URL (or X-Forwarded-Proto: https) still gets a Secure, `__Host-` cookie.

import type { IncomingMessage } from "node:http";
import type { SiteOptions } from "../contract/index.js";

const DIRECT: SiteOptions = { publicUrl: null, trustProxy: false };

/** Is this request for a loopback host (`localhost`, `127.x.x.x`, `[::1]`) over plain HTTP? */
export function plainLoopback(req: IncomingMessage, site: SiteOptions = DIRECT): boolean {
  if (site.publicUrl !== null) return site.publicUrl.startsWith("http://") && isLoopback(hostOf(site.publicUrl.slice(7)));
  if ((req.socket as { encrypted?: boolean }).encrypted === true) return false;
  // Any client may claim https; it only ever makes the cookie stricter.
  if (firstValue(req.headers["x-forwarded-proto"]) === "https") return false;
  const forwarded = site.trustProxy ? firstValue(req.headers["x-forwarded-host"]) : undefined;
  return isLoopback(hostOf(forwarded ?? req.headers.host ?? ""));
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const comma = value.indexOf(",");
  return (comma === -1 ? value : value.slice(0, comma)).trim().toLowerCase();
}

/** The host name of `host[:port][/path]`, lower-cased; an IPv6 literal keeps its brackets. */
function hostOf(authority: string): string {
  const end = authority.search(/[/?#]/);
  const hostPort = end === -1 ? authority : authority.slice(0, end);
  return (hostPort.startsWith("[") ? hostPort.slice(0, hostPort.indexOf("]") + 1) : hostPort.split(":")[0]).toLowerCase();
}

function isLoopback(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(name) || name === "[::1]";
}

/** The cookie's name for this request. */
export function cookieName(req: IncomingMessage, name: string, site?: SiteOptions): string {
  return plainLoopback(req, site) ? name : `__Host-${name}`;
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

export function setCookie(req: IncomingMessage, name: string, value: string, maxAgeS: number, site?: SiteOptions): string {
  const plain = plainLoopback(req, site);
  return `${plain ? name : `__Host-${name}`}=${value}; Max-Age=${maxAgeS}; Path=/; HttpOnly; SameSite=Lax${plain ? "" : "; Secure"}`;
}

export function clearCookie(req: IncomingMessage, name: string, site?: SiteOptions): string {
  return setCookie(req, name, "", 0, site);
}
