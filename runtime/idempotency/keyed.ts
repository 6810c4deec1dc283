// What a call's row is named and sealed with, derived from the client's Idempotency-Key so
// that the database holds nothing a reader of it could use (docs/auth.md, "What a database
// dump reveals"):
// - every value is an HMAC-SHA256 under the client's key, so a guess at a request (a
//   password in a sign-in body) cannot be tested against a row without the key, which is
//   never stored;
// - the caller is inside every HMAC: two callers' rows never share a name, and the
//   caller's id is not stored either;
// - a row is bound to the whole request when the caller is anonymous (the request is all
//   such a client holds beside the key) or when the action handles credentials: another
//   request with the same key then names another row, so it runs as a new call and learns
//   nothing about the first, neither its answer nor a fast "different request" 422;
// - the answer of an action that handles credentials (it may carry a token or a session)
//   is sealed with AES-256-GCM under a key derived from the client's key and the request,
//   and an anonymous caller's is bound to the connection's address too: a second client
//   that learns the key and the password gets a sign-in of its own, never the first
//   client's token.

import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/** Who makes a call, and what it is: the parts every derived value depends on. */
export interface KeyedCall {
  /** The action (`module.action`) or route-file block (`POST /path?handler=h`); stored in clear as the row's scope. */
  target: string;
  /** The Idempotency-Key as the client sent it. */
  key: string;
  /** The caller's id; null when anonymous. */
  caller: string | null;
  /** The address the request came from (the connection's; behind a proxy, the proxy's). */
  address: string;
  /** The canonical request (fingerprint.ts). */
  request: string;
  /** The action handles credentials (ActionModel.credentials): its row is bound to the request and its answer sealed. */
  credentials: boolean;
}

/** The row's id and fingerprint (64 hex digits each), and the answer's sealing key when it is sealed. */
export interface RowKeys {
  id: string;
  fingerprint: string;
  seal: Buffer | null;
}

const VERSION = "svc-idempotency-v1";

/**
 * Each value is one HMAC-SHA256 under the client's key, of what the call is (the target and
 * who calls) and a label. A bound row's id covers the request, so its fingerprint is its
 * id: one HMAC names an anonymous caller's row, about what the two plain SHA-256s before
 * cost (this runs on every keyed call).
 */
export function rowKeys(call: KeyedCall): RowKeys {
  // The target never holds a NUL; a caller's id may hold anything, so its length goes first.
  const who =
    call.caller !== null ? `caller:${call.caller.length}:${call.caller}` : call.credentials ? `anonymous@${call.address}` : "anonymous";
  const what = `${VERSION}\0${call.target}\0${who}\0`;
  const mac = (label: string, request: string | null) => {
    const h = createHmac("sha256", call.key).update(what).update(label);
    return request === null ? h : h.update(request);
  };
  const seal = call.credentials ? mac("seal\0", call.request).digest() : null;
  if (call.caller === null || call.credentials) {
    const id = mac("bound\0", call.request).digest("hex");
    return { id, fingerprint: id, seal };
  }
  return { id: mac("row", null).digest("hex"), fingerprint: mac("request\0", call.request).digest("hex"), seal };
}

const SEALED = "sealed:v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `sealed:v1:` and base64 of a random 96-bit IV, the AES-256-GCM ciphertext and its tag. */
export function sealAnswer(key: Buffer, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([iv, cipher.update(text, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return SEALED + sealed.toString("base64");
}

/** The text sealAnswer sealed; null when it is not sealed text or not sealed under `key`. */
export function openAnswer(key: Buffer, stored: string): string | null {
  if (!stored.startsWith(SEALED)) return null;
  const bytes = Buffer.from(stored.slice(SEALED.length), "base64");
  if (bytes.length < IV_BYTES + TAG_BYTES) return null;
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
