// The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header): a
// Structured Field string (`"8e03978e-…"`), or the bare token many clients send (Stripe's
// form). Either way the key is 1 to 255 printable ASCII characters; anything else is a 400
// rather than a key that silently means something else.

import type { IncomingMessage } from "node:http";
import { HttpError } from "../core/errors.js";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const MAX_KEY_LENGTH = 255;

/** The request's key; null without the header. Throws an HttpError 400 for a key it cannot use. */
export function idempotencyKey(req: IncomingMessage): string | null {
  const header = req.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return null;
  // Node joins repeated headers with ", ": two keys must not read as one.
  if (typeof header !== "string" || countHeader(req.rawHeaders) > 1) {
    throw new HttpError(400, "Idempotency-Key is sent more than once", { code: "SVC_ERR_IDEMPOTENCY_KEY" });
  }
  return parseKey(header);
}

/**
 * The key a call is kept under: null without the header, and null for a call that is never
 * recorded, an action that handles credentials (docs/auth.md, "What a database dump
 * reveals"), whose key is checked all the same: a malformed one is still a 400.
 */
export function keptKey(req: IncomingMessage, recorded: boolean): string | null {
  const key = idempotencyKey(req);
  return recorded ? key : null;
}

/** The key a header value carries (exported for tests). */
export function parseKey(value: string): string {
  const key = value.startsWith('"') ? unquote(value) : value;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !printable(key, value.startsWith('"') ? 0x20 : 0x21)) {
    throw new HttpError(400, `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters`, { code: "SVC_ERR_IDEMPOTENCY_KEY" });
  }
  return key;
}

/** An sf-string (RFC 8941 §3.3.3): `"`, characters with `\"` and `\\` escaped, `"`. */
function unquote(value: string): string {
  let out = "";
  for (let i = 1; i < value.length; i++) {
    const c = value[i];
    if (c === "\\") {
      const next = value[++i];
      if (next !== '"' && next !== "\\") break;
      out += next;
    } else if (c === '"') {
      if (i === value.length - 1) return out;
      break;
    } else {
      out += c;
    }
  }
  throw new HttpError(400, "Idempotency-Key is not a valid quoted string", { code: "SVC_ERR_IDEMPOTENCY_KEY" });
}

function printable(key: string, lowest: number): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < lowest || c > 0x7e) return false;
  }
  return true;
}

function countHeader(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === IDEMPOTENCY_HEADER) n++;
  return n;
}
