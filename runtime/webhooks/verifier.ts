// What every webhook provider implements (one file per provider next to this one), and
// the pieces they share: HMAC-SHA256, a comparison that is constant-time and cannot throw,
// header reading, and the timestamp window.
//
// A verifier only ever says yes or throws Rejected; the endpoint turns Rejected into a 401.
// Messages name what was wrong (a missing header, a stale timestamp, no matching
// signature) and never a secret or a signature.

import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** Signed timestamps further than this from the server's clock, either way, are refused. */
export const TOLERANCE_SECONDS = 5 * 60;

/** A delivery whose signature, or its timestamp, is not acceptable: always a 401. */
export class Rejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Rejected";
  }
}

export interface Verifier {
  /**
   * The HMAC key from the credential's value, made once at start. Throws an Error whose
   * message says why the value cannot be a key for this provider (without the value).
   */
  key(secret: string): Buffer;
  /**
   * Returns when `body` (the raw bytes, before any parsing) carries a valid signature made
   * with `key` and, where the provider signs a time, one within TOLERANCE_SECONDS of
   * `nowSeconds`. Throws Rejected otherwise; never anything else.
   */
  verify(headers: IncomingHttpHeaders, body: Buffer, key: Buffer, nowSeconds: number): void;
  /** The provider's event type and delivery id, from the headers or the parsed payload; null where it sends none. */
  describe(headers: IncomingHttpHeaders, payload: unknown): { event: string | null; delivery: string | null };
}

/** A secret used as it is, as the UTF-8 bytes of its text (GitHub, Stripe, Slack, hmac). */
export function textKey(secret: string): Buffer {
  return Buffer.from(secret, "utf8");
}

/** HMAC-SHA256 of the concatenation of `parts`. */
export function hmacSha256(key: Buffer, ...parts: (string | Buffer)[]): Buffer {
  const mac = createHmac("sha256", key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/**
 * Constant-time equality of an expected MAC and a presented one. Lengths are compared
 * first: the length of an HMAC-SHA256 is public, so a wrong length reveals nothing and is
 * simply unequal (timingSafeEqual would throw on it).
 */
export function sameMac(expected: Buffer, given: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(expected, given);
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
// 32 bytes in standard base64 with its padding: 43 characters and one "=".
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/** The bytes of a 64-digit hex MAC, or null when the text is not one (Buffer.from would silently stop at a bad digit). */
export function hexMac(text: string): Buffer | null {
  return HEX_SHA256.test(text) ? Buffer.from(text, "hex") : null;
}

/** The bytes of a base64 MAC of 32 bytes, or null when the text is not one. */
export function base64Mac(text: string): Buffer | null {
  return BASE64_SHA256.test(text) ? Buffer.from(text, "base64") : null;
}

/** A header's single value; Rejected when absent or empty. Node joins repeated headers with ", ". */
export function requireHeader(headers: IncomingHttpHeaders, name: string, display: string): string {
  const value = header(headers, name);
  if (value === null || value === "") throw new Rejected(`missing ${display} header`);
  return value;
}

/** A header's value, or null. `name` is lower case, as Node stores it. */
export function header(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value.trim();
}

/**
 * A signed Unix time in seconds, as text; Rejected unless it is all digits and within
 * TOLERANCE_SECONDS of `nowSeconds`, before or after (a clock far ahead is as suspect as
 * a replay).
 */
export function checkTimestamp(text: string, nowSeconds: number, display: string): number {
  if (!/^\d{1,12}$/.test(text)) throw new Rejected(`${display} is not a Unix time in seconds`);
  const seconds = Number(text);
  const skew = nowSeconds - seconds;
  if (skew > TOLERANCE_SECONDS) throw new Rejected(`${display} is more than ${TOLERANCE_SECONDS} seconds old`);
  if (-skew > TOLERANCE_SECONDS)
    throw new Rejected(`${display} is more than ${TOLERANCE_SECONDS} seconds in the future`);
  return seconds;
}

/** A string member of a JSON object payload, or null. Own properties only. */
export function stringField(payload: unknown, ...path: string[]): string | null {
  let value: unknown = payload;
  for (const key of path) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.hasOwn(value, key)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === "string" ? value : null;
}
