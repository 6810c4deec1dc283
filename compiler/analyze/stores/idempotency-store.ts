// The table that makes an action call with an `Idempotency-Key` header run once
// (docs/language.md, "Idempotency keys"). The runtime owns it, its DDL and its statements in
// every dialect (runtime/idempotency/table.ts); the model only says the server keeps it.

import type { IdempotencyStoreModel } from "../model/model.js";

export const IDEMPOTENCY_TABLE = "svc_idempotency_keys";

export function idempotencyStore(): IdempotencyStoreModel {
  return { table: IDEMPOTENCY_TABLE };
}
