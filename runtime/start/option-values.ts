// How each server setting's value is read and checked, whatever its source (a flag, the
// environment or svc.toml): every check names the source in the StartupError it throws.

import { StartupError } from "../core/errors.js";
import { LOG_LEVELS } from "../core/log.js";
import type { LogLevel, ServerOptions } from "../contract/index.js";

/** setTimeout's largest delay; a longer one would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;
/** More than this is surely a typo, not a machine (svc.toml's reader has the same bound). */
export const MAX_WORKERS = 1024;

export const BACKENDS: readonly ServerOptions["backend"][] = ["sqlite", "postgres", "mysql", "tidb"];

export interface ListenAddress {
  host: string;
  port: number;
}

/** An http(s) URL with no query, fragment, user or trailing slash: paths are appended to it. */
export function checkPublicUrl(value: unknown, source: string): string {
  let url: URL | null = null;
  try {
    url = typeof value === "string" ? new URL(value) : null;
  } catch {
    url = null;
  }
  const ok =
    url !== null &&
    (url.protocol === "http:" || url.protocol === "https:") &&
    !url.search && !url.hash && !url.username && !url.password &&
    !(value as string).endsWith("/");
  if (!ok) {
    throw new StartupError("SVC_ERR_OPTION", `${source}: ${JSON.stringify(value)} is not a public URL (http:// or https://, no query or trailing slash)`);
  }
  return value as string;
}

export function parseBool(value: string, source: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw new StartupError("SVC_ERR_OPTION", `${source}: "${value}" is not true or false`);
}

export function checkBool(value: unknown, source: string): boolean {
  if (typeof value === "boolean") return value;
  throw new StartupError("SVC_ERR_OPTION", `${source}: ${JSON.stringify(value)} is not true or false`);
}

export function checkBackend(value: unknown, source: string): ServerOptions["backend"] {
  if (typeof value === "string" && (BACKENDS as readonly string[]).includes(value))
    return value as ServerOptions["backend"];
  throw new StartupError("SVC_ERR_OPTION", `${source}: unknown backend ${JSON.stringify(value)}; use one of ${BACKENDS.join(", ")}`);
}

export function checkLevel(value: unknown, source: string): LogLevel {
  if (typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new StartupError("SVC_ERR_OPTION", `${source}: unknown log level ${JSON.stringify(value)}; use one of ${LOG_LEVELS.join(", ")}`);
}

export function parseSize(value: string, source: string): number {
  if (!/^\d+$/.test(value))
    throw new StartupError("SVC_ERR_OPTION", `${source}: "${value}" is not a size in bytes (a whole number, 0 or more)`);
  return checkSize(Number(value), source);
}

export function checkSize(value: unknown, source: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new StartupError("SVC_ERR_OPTION", `${source}: ${JSON.stringify(value)} is not a size in bytes (a whole number, 0 or more)`);
  }
  return value;
}

/** Digits only, so `1e3`, `0x10`, ` 5` and `-1` are refused before they reach a number check. */
export function parseWhole(check: (value: unknown, source: string) => number): (value: string, source: string) => number {
  return (value, source) => check(/^\d{1,16}$/.test(value) ? Number(value) : value, source);
}

export function checkTimeout(value: unknown, source: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    throw new StartupError(
      "SVC_ERR_OPTION",
      `${source}: ${JSON.stringify(value)} is not a timeout in milliseconds (a whole number from 1 to ${MAX_TIMEOUT_MS})`,
    );
  }
  return value;
}

export function checkWorkers(value: unknown, source: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_WORKERS) {
    throw new StartupError(
      "SVC_ERR_OPTION",
      `${source}: ${JSON.stringify(value)} is not a number of workers (a whole number from 1 to ${MAX_WORKERS})`,
    );
  }
  return value;
}

/**
 * `*` or one origin exactly as browsers send it in `Origin` (scheme://host[:port], no
 * path, no trailing slash), because CORS compares origins as strings (Fetch §3.2.5).
 */
export function checkOrigin(value: unknown, source: string): string {
  if (value === "*") return value;
  let url: URL | null = null;
  try {
    url = typeof value === "string" ? new URL(value) : null;
  } catch {
    url = null;
  }
  if (url !== null && (url.protocol === "http:" || url.protocol === "https:") && url.origin === value) return value;
  const hint =
    url !== null && url.origin !== "null" && typeof value === "string" && value.startsWith(url.origin)
      ? `; an origin has no path: ${url.origin}`
      : "; e.g. https://app.example.com, or * for any origin";
  throw new StartupError("SVC_ERR_OPTION", `${source}: ${JSON.stringify(value)} is not an origin (scheme://host[:port])${hint}`);
}

export function checkListen(value: unknown, source: string): string {
  if (typeof value !== "string") throw new StartupError("SVC_ERR_OPTION", `${source} must be a string like 127.0.0.1:8080`);
  parseListen(value, source);
  return value;
}

/** `host:port`, `[v6]:port`, `:port` or `port`; an empty host is 127.0.0.1. */
export function parseListen(value: string, source = "--listen"): ListenAddress {
  let host: string;
  let portText: string;
  if (value.startsWith("[")) {
    const close = value.indexOf("]");
    if (close === -1 || value[close + 1] !== ":") throw new StartupError("SVC_ERR_OPTION", `${source}: "${value}" is not [address]:port`);
    host = value.slice(1, close);
    portText = value.slice(close + 2);
  } else {
    const colon = value.lastIndexOf(":");
    host = colon === -1 ? "" : value.slice(0, colon);
    portText = colon === -1 ? value : value.slice(colon + 1);
    if (host.includes(":")) throw new StartupError("SVC_ERR_OPTION", `${source}: write an IPv6 address in brackets, e.g. [::1]:8080`);
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new StartupError("SVC_ERR_OPTION", `${source}: port "${portText}" is not a number from 0 to 65535`);
  }
  if (/\s/.test(host)) throw new StartupError("SVC_ERR_OPTION", `${source}: "${host}" is not a host name or address`);
  return { host: host === "" ? "127.0.0.1" : host, port: Number(portText) };
}

export function parseSwitch(value: string, source: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw new StartupError("SVC_ERR_OPTION", `${source} is "${value}"; use ${source} alone, or =true or =false`);
}

export function checkSwitch(value: unknown, source: string): boolean {
  if (typeof value !== "boolean") throw new StartupError("SVC_ERR_OPTION", `${source} must be true or false`);
  return value;
}
