// GitHub (docs.github.com, "Validating webhook deliveries"): `X-Hub-Signature-256:
// sha256=<hex>`, the HMAC-SHA256 of the raw body keyed with the secret as text. GitHub
// signs no timestamp, so there is no replay window: the delivery id (`X-GitHub-Delivery`,
// the same on a redelivery) is what keeps a replayed delivery from running twice. Neither
// it nor `X-GitHub-Event` is covered by the signature.

import type { IncomingHttpHeaders } from "node:http";
import { Rejected, type Verifier, header, hexMac, hmacSha256, requireHeader, sameMac, textKey } from "./verifier.js";

const PREFIX = "sha256=";

export const github: Verifier = {
  key: textKey,

  verify(headers: IncomingHttpHeaders, body: Buffer, key: Buffer): void {
    const value = requireHeader(headers, "x-hub-signature-256", "X-Hub-Signature-256");
    const given = value.startsWith(PREFIX) ? hexMac(value.slice(PREFIX.length)) : null;
    if (given === null) throw new Rejected("X-Hub-Signature-256 is not sha256=<64 hex digits>");
    if (!sameMac(hmacSha256(key, body), given)) throw new Rejected("X-Hub-Signature-256 does not match the body");
  },

  describe(headers: IncomingHttpHeaders) {
    return { event: header(headers, "x-github-event") || null, delivery: header(headers, "x-github-delivery") || null };
  },
};
