// The checks svc makes on a JWT beyond jose's (docs/auth.md, "What is refused, and how"):
// one spelling per token, the token's type, an `iat` not in the future, and declared claims.

import type { JWTPayload, ProtectedHeaderParameters } from "jose";
import type { ClaimType } from "../contract/index.js";

/** A token that does not verify; its message says why (never the token). */
export class InvalidToken extends Error {}

const B64URL = /^[A-Za-z0-9_-]+$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Each of the three segments is base64url as RFC 7515 §2 writes it: the URL-safe alphabet, no
 * padding, and zero bits after the last whole byte. A decoder forgives the rest (Node's reads
 * `+`, `/` and `=`, and ignores the unused bits), so without this one signature would verify
 * under several strings: a token's variants would each pass as a new token, past any check
 * that remembers tokens by their text.
 */
export function isCanonicalCompact(token: string): boolean {
  const first = token.indexOf(".");
  const second = token.indexOf(".", first + 1);
  if (first <= 0 || second <= first + 1 || token.indexOf(".", second + 1) !== -1) return false;
  return canonicalSegment(token.slice(0, first)) && canonicalSegment(token.slice(first + 1, second)) && canonicalSegment(token.slice(second + 1));
}

function canonicalSegment(segment: string): boolean {
  if (!B64URL.test(segment)) return false;
  const rest = segment.length % 4;
  if (rest === 1) return false;
  if (rest === 0) return true;
  // Two characters carry one byte (4 bits unused), three carry two (2 bits unused).
  const last = ALPHABET.indexOf(segment[segment.length - 1]);
  return (last & (rest === 2 ? 0x0f : 0x03)) === 0;
}

/**
 * RFC 8725 §3.11: a token of another kind must not pass as an access token. svc's own tokens
 * say `typ: JWT` and must; a provider's may say `JWT` or `at+jwt` (RFC 9068), or say
 * nothing (many providers leave it out). Compared as RFC 7515 §4.1.9 says: case-insensitive,
 * `application/` optional.
 */
export function checkType(header: ProtectedHeaderParameters, own: boolean): void {
  const typ = header.typ;
  if (typ === undefined && !own) return;
  const type = typeof typ === "string" ? typ.toLowerCase().replace(/^application\//, "") : null;
  if (type === "jwt" || (!own && type === "at+jwt")) return;
  const accepted = own ? "JWT" : "JWT or at+jwt";
  throw new InvalidToken(typ === undefined ? `the token has no type (typ): ${accepted} expected` : `the token's type (typ) is ${JSON.stringify(typ)}, not ${accepted}`);
}

/** jose checks `exp` and `nbf` with the leeway; an `iat` ahead of the clock by more than it is refused here. */
export function checkIssuedAt(payload: JWTPayload, leewayS: number, nowS: number): void {
  if (typeof payload.iat === "number" && payload.iat > nowS + leewayS) throw new InvalidToken('the token is issued in the future ("iat" claim)');
}

/** A declared claim that is present must have its declared type: else the token is refused, not half-read. */
export function checkClaims(payload: JWTPayload, claims: Record<string, ClaimType> | undefined): void {
  if (claims === undefined) return;
  for (const name of Object.keys(claims)) {
    const value = payload[name];
    if (value === undefined || value === null) continue;
    if (!claimFits(value, claims[name])) throw new InvalidToken(`the claim "${name}" is not ${claims[name]}`);
  }
}

function claimFits(value: unknown, type: ClaimType): boolean {
  switch (type) {
    case "text":
      return typeof value === "string";
    case "int":
      return Number.isSafeInteger(value);
    case "float":
      return typeof value === "number" && Number.isFinite(value);
    case "bool":
      return typeof value === "boolean";
    case "json":
      return true;
    case "list<text>":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
  }
}
