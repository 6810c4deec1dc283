// Standard Webhooks (standardwebhooks.com, spec "Verifying webhook authenticity"; Svix
// sends the same with `svix-` headers): `webhook-id`, `webhook-timestamp` and
// `webhook-signature`, a space-separated list of `v1,<base64>` signatures, each the
// HMAC-SHA256 of `<id>.<timestamp>.<raw body>`. The key is the base64 after `whsec_` in the
// secret. Any one matching v1 is enough (several are sent while a secret is rotated);
// other versions, such as the asymmetric `v1a`, are ignored. The timestamp must be within
// five minutes, before or after. The delivery id is `webhook-id` (signed); the event type
// is the payload's `type`, as the specification's payload structure recommends.

import type { IncomingHttpHeaders } from "node:http";
import {
  Rejected,
  type Verifier,
  base64Mac,
  checkTimestamp,
  header,
  hmacSha256,
  sameMac,
  stringField,
} from "./verifier.js";
import { SvcError } from "../core/errors.js";

const SECRET_PREFIX = "whsec_";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `webhook-<name>`, else Svix's `svix-<name>`; Rejected when neither is there. */
function standardHeader(headers: IncomingHttpHeaders, name: string): string {
  const value = header(headers, `webhook-${name}`) || header(headers, `svix-${name}`);
  if (!value) throw new Rejected(`missing webhook-${name} header`);
  return value;
}

export const standard: Verifier = {
  key(secret: string): Buffer {
    const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
    if (encoded === "" || !BASE64.test(encoded)) {
      throw new SvcError("SVC_ERR_CREDENTIAL", "it is not a Standard Webhooks secret: whsec_ followed by the key in base64");
    }
    return Buffer.from(encoded, "base64");
  },

  verify(headers: IncomingHttpHeaders, body: Buffer, key: Buffer, nowSeconds: number): void {
    const id = standardHeader(headers, "id");
    const timestamp = standardHeader(headers, "timestamp");
    const signatures = standardHeader(headers, "signature");
    checkTimestamp(timestamp, nowSeconds, "webhook-timestamp");
    const expected = hmacSha256(key, `${id}.${timestamp}.`, body);
    let versioned = false;
    let matched = false;
    // Every v1 is compared, so the time taken does not say which one matched.
    for (const item of signatures.split(" ")) {
      const comma = item.indexOf(",");
      if (comma === -1 || item.slice(0, comma) !== "v1") continue;
      versioned = true;
      const given = base64Mac(item.slice(comma + 1));
      if (given !== null && sameMac(expected, given)) matched = true;
    }
    if (!versioned) throw new Rejected("webhook-signature has no v1,<base64> signature");
    if (!matched) throw new Rejected("no v1 signature in webhook-signature matches the body");
  },

  describe(headers: IncomingHttpHeaders, payload: unknown) {
    return {
      event: stringField(payload, "type"),
      delivery: header(headers, "webhook-id") || header(headers, "svix-id") || null,
    };
  },
};
