// Exactly once (docs/language.md §2.4): the ids of handled deliveries live in the database, in the
// table `svc_webhook_deliveries` the runtime owns (table.ts), created at start beside the app's
// tables by `migrate`.
//
// A delivery's row is inserted first in the transaction that then runs the handler:
// - already there (committed by an earlier delivery, in this process or another): the
//   insert changes nothing, and the handler does not run;
// - another process is inserting the same id right now: the insert waits for that
//   transaction (SQLite's write lock, a unique index elsewhere) and then changes nothing,
//   or inserts if that one rolled back;
// - the handler fails: the transaction rolls back with the row, so a retry runs it again.

import { createHash } from "node:crypto";
import type { Executor } from "../contract/index.js";
import { recordDeliverySql } from "./table.js";

/**
 * The row's key: 64 hex digits, whatever the lengths of the webhook's name and the
 * provider's id (a MySQL key has a length limit). The name keeps two webhooks whose
 * providers reuse an id apart.
 */
export function deliveryKey(webhook: string, delivery: string): string {
  return createHash("sha256").update(webhook).update("\n").update(delivery).digest("hex");
}

/** Records `delivery` for `webhook` in `tx`; false when it was already recorded. */
export async function recordDelivery(tx: Executor, webhook: string, delivery: string): Promise<boolean> {
  const changed = await tx.run(recordDeliverySql, [deliveryKey(webhook, delivery), webhook, delivery]);
  return changed > 0;
}
