// Declared webhooks (docs/language.md §2.4): one verifier per provider, the delivery record, and
// the endpoint that ties them together.

export { webhookEndpoints, type Clock } from "./endpoint.js";
export { deliveryKey } from "./deliveries.js";
export { parsePayload } from "./payload.js";
export { VERIFIERS } from "./providers.js";
export { WebhookReply } from "./reply.js";
export { Rejected, TOLERANCE_SECONDS, type Verifier } from "./verifier.js";
export { standard } from "./standard.js";
export { hmacSha256, textKey } from "./verifier.js";
