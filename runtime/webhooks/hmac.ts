// Plain HMAC (`provider: "hmac"`): `X-Signature: <hex>`, the HMAC-SHA256 of the raw body
// keyed with the secret as text; a `sha256=` prefix, as GitHub writes it, is accepted too.
// No timestamp is signed. The event type and delivery id, when the sender has them, come
// from `X-Event-Type` and `X-Delivery-Id` (not covered by the signature).

import type { IncomingHttpHeaders } from "node:http";
import { Rejected, type Verifier, header, hexMac, hmacSha256, requireHeader, sameMac, textKey } from "./verifier.js";

const PREFIX = "sha256=";

export const hmac: Verifier = {
  key: textKey,

  verify(headers: IncomingHttpHeaders, body: Buffer, key: Buffer): void {
    const value = requireHeader(headers, "x-signature", "X-Signature");
    const given = hexMac(value.startsWith(PREFIX) ? value.slice(PREFIX.length) : value);
    if (given === null) throw new Rejected("X-Signature is not 64 hex digits");
    if (!sameMac(hmacSha256(key, body), given)) throw new Rejected("X-Signature does not match the body");
  },

  describe(headers: IncomingHttpHeaders) {
    return { event: header(headers, "x-event-type") || null, delivery: header(headers, "x-delivery-id") || null };
  },
};
