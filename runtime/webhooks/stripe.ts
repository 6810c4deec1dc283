// Stripe (docs.stripe.com, "Verify webhook signatures"): `Stripe-Signature:
// t=<unix>,v1=<hex>[,v1=<hex>…][,v0=…]`, where each v1 is the HMAC-SHA256 of
// `<t>.<raw body>` keyed with the endpoint secret (`whsec_…`) as text. Any one matching
// v1 is enough (Stripe sends one per active secret while a secret is being rolled);
// other schemes are ignored. `t` must be within five minutes, before or after.
// The event's `type` and `id` (the same on Stripe's retries) are fields of the payload.

import type { IncomingHttpHeaders } from "node:http";
import {
  Rejected,
  type Verifier,
  checkTimestamp,
  hexMac,
  hmacSha256,
  requireHeader,
  sameMac,
  stringField,
  textKey,
} from "./verifier.js";

export const stripe: Verifier = {
  key: textKey,

  verify(headers: IncomingHttpHeaders, body: Buffer, key: Buffer, nowSeconds: number): void {
    const value = requireHeader(headers, "stripe-signature", "Stripe-Signature");
    let timestamp: string | null = null;
    const signatures: string[] = [];
    for (const item of value.split(",")) {
      const eq = item.indexOf("=");
      if (eq === -1) continue;
      const name = item.slice(0, eq).trim();
      const text = item.slice(eq + 1).trim();
      if (name === "t") {
        if (timestamp !== null) throw new Rejected("Stripe-Signature has more than one t=");
        timestamp = text;
      } else if (name === "v1") {
        signatures.push(text);
      }
    }
    if (timestamp === null) throw new Rejected("Stripe-Signature has no t=<timestamp>");
    if (signatures.length === 0) throw new Rejected("Stripe-Signature has no v1= signature");
    checkTimestamp(timestamp, nowSeconds, "the Stripe-Signature timestamp");
    const expected = hmacSha256(key, `${timestamp}.`, body);
    let matched = false;
    // Every candidate is compared, so the time taken does not say which one matched.
    for (const signature of signatures) {
      const given = hexMac(signature);
      if (given !== null && sameMac(expected, given)) matched = true;
    }
    if (!matched) throw new Rejected("no v1 signature in Stripe-Signature matches the body");
  },

  describe(_headers: IncomingHttpHeaders, payload: unknown) {
    return { event: stringField(payload, "type"), delivery: stringField(payload, "id") };
  },
};
