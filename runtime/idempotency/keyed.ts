// What a call's row is named with, derived from the client's Idempotency-Key so that the
// database holds as little as a reader of it could use (docs/auth.md, "What a database
// dump reveals"):
// - every value is an HMAC-SHA256 under the client's key, which is never stored: a guess
//   at a request cannot be tested against a row without the key (a guessable key, `1` or
//   a counter, lets a reader test guesses at the request of a non-credential call; so an
//   action that handles credentials is never recorded at all: server.ts and
//   pages/route-request.ts drop its key);
// - the caller is inside every HMAC: two callers' rows never share a name, and the
//   caller's id is not stored either;
// - an anonymous caller's row is bound to the whole request (the request is all such a
//   client holds beside the key): another request with the same key then names another
//   row, so it runs as a new call and learns nothing about the first, neither its answer
//   nor a fast "different request" 422.

import { createHmac } from "node:crypto";

/** Who makes a call, and what it is: the parts every derived value depends on. */
export interface KeyedCall {
  /** The action (`module.action`) or route-file block (`POST /path?handler=h`); stored in clear as the row's scope. */
  target: string;
  /** The Idempotency-Key as the client sent it. */
  key: string;
  /** The caller's id; null when anonymous. */
  caller: string | null;
  /** The canonical request (fingerprint.ts). */
  request: string;
}

/** The row's id and fingerprint (64 hex digits each). */
export interface RowKeys {
  id: string;
  fingerprint: string;
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
  const who = call.caller !== null ? `caller:${call.caller.length}:${call.caller}` : "anonymous";
  const what = `${VERSION}\0${call.target}\0${who}\0`;
  const mac = (label: string, request: string | null) => {
    const h = createHmac("sha256", call.key).update(what).update(label);
    return request === null ? h : h.update(request);
  };
  if (call.caller === null) {
    const id = mac("bound\0", call.request).digest("hex");
    return { id, fingerprint: id };
  }
  return { id: mac("row", null).digest("hex"), fingerprint: mac("request\0", call.request).digest("hex") };
}
