// Slack (api.slack.com, "Verifying requests from Slack"): `X-Slack-Signature: v0=<hex>`,
// the HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>` keyed with the signing
// secret as text; the timestamp must be within five minutes.
//
// Event and delivery: Events API callbacks carry `event.type` and a unique `event_id`
// (the same on Slack's retries); other payloads (`url_verification`, interactivity's
// `block_actions`, …) carry `type`; slash commands (a form) carry `command`. Only the
// Events API has a delivery id.

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

const PREFIX = "v0=";

export const slack: Verifier = {
  key: textKey,

  verify(headers: IncomingHttpHeaders, body: Buffer, key: Buffer, nowSeconds: number): void {
    const timestamp = requireHeader(headers, "x-slack-request-timestamp", "X-Slack-Request-Timestamp");
    const value = requireHeader(headers, "x-slack-signature", "X-Slack-Signature");
    checkTimestamp(timestamp, nowSeconds, "X-Slack-Request-Timestamp");
    const given = value.startsWith(PREFIX) ? hexMac(value.slice(PREFIX.length)) : null;
    if (given === null) throw new Rejected("X-Slack-Signature is not v0=<64 hex digits>");
    const expected = hmacSha256(key, `v0:${timestamp}:`, body);
    if (!sameMac(expected, given)) throw new Rejected("X-Slack-Signature does not match the body");
  },

  describe(_headers: IncomingHttpHeaders, payload: unknown) {
    const type = stringField(payload, "type");
    if (type === "event_callback") {
      return { event: stringField(payload, "event", "type") ?? type, delivery: stringField(payload, "event_id") };
    }
    return { event: type ?? stringField(payload, "command"), delivery: null };
  },
};
