// The outbox on /health (docs/operations.md, Health): deliveries waiting, failed for good,
// and the oldest waiting one's age, as the delivery loop last counted them (each pass, at
// least every poll), so a health check runs no query of its own for them.

import type { OutboxDepth } from "./outbox.js";

/** The `,"outbox":{…}` member of the health answer. */
export function outboxHealth(depth: OutboxDepth): string {
  return `,"outbox":${JSON.stringify({
    pending: depth.pending,
    failed: depth.failed,
    delivered: depth.delivered,
    oldest_pending_seconds: depth.oldestPendingSeconds,
  })}`;
}
