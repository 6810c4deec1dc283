import type { Model } from "../../analyze/model/model.js";

// Idempotency keys in the generated server: the spec's `idempotency: true`. The table of
// answers and its statements are the runtime's own (runtime/idempotency/table.ts). Absent
// from the output of a model without an action called over HTTP.

/** The spec's `idempotency` entry. */
export function idempotencySpecFields(model: Model): string[] {
  return model.idempotencyStore === undefined ? [] : ["idempotency: true"];
}
