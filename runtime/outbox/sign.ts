// Signing an outgoing delivery per Standard Webhooks (standardwebhooks.com, "Signature
// scheme"): `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. The
// key and the HMAC are the incoming verifier's (runtime/webhooks), so both directions
// read a secret and compute a MAC the same way.

import { hmacSha256, standard, textKey } from "../webhooks/index.js";

const SECRET_PREFIX = "whsec_";

/**
 * The HMAC key of a subscriber's secret: after `whsec_`, base64 (as the specification
 * writes secrets; throws when it is not); without the prefix, the text's own bytes (the
 * libraries' "raw" secrets).
 */
export function signingKey(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX) ? standard.key(secret) : textKey(secret);
}

/** The three headers of one delivery attempt of `body`, `id` being the event's (the same on every retry). */
export function signedHeaders(key: Buffer, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const timestamp = String(timestampSeconds);
  const mac = hmacSha256(key, `${id}.${timestamp}.`, body);
  return {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${mac.toString("base64")}`,
  };
}
