// The table that makes webhook deliveries run exactly once (docs/language.md §2.4). The
// runtime owns it, its DDL and the insert that records a delivery in every dialect
// (runtime/webhooks/table.ts); the model only says the server keeps it.

import type { DeliveryStoreModel } from "../model/model.js";

export const DELIVERIES_TABLE = "svc_webhook_deliveries";

export function deliveryStore(): DeliveryStoreModel {
  return { table: DELIVERIES_TABLE };
}
