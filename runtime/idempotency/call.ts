// An endpoint or route-file block called with an Idempotency-Key: authorized first (a
// stored answer must not reach a caller its action would refuse), then run through the
// store under its scope and fingerprint.

import { authorize } from "../auth/index.js";
import { RawJson } from "../envelope.js";
import type { CallContext, CallInput, Database, EndpointSpec, Requirement } from "../types.js";
import { fingerprint } from "./fingerprint.js";
import { callScope, type IdempotencyStore, type IdempotentAnswer } from "./store.js";

/** An action endpoint (`/api/<module>:<action>` or a declared route to it). */
export function callEndpoint(
  store: IdempotencyStore,
  key: string,
  endpoint: EndpointSpec,
  db: Database,
  input: CallInput,
  ctx: CallContext,
  method: string,
  path: string,
): Promise<IdempotentAnswer> {
  authorizeFirst(endpoint.requires, ctx);
  return store.call(
    callScope(endpoint.name, ctx),
    key,
    fingerprint(method, path, input.args, input.text),
    (bound) => endpoint.run(bound, input, ctx),
    resultJson,
  );
}

export function authorizeFirst(requires: Requirement | undefined, ctx: CallContext): void {
  if (requires !== undefined) authorize(ctx, requires);
}

/** An action's result as the envelope's `data` would carry it. */
function resultJson(result: unknown): string {
  return result instanceof RawJson ? result.json : (JSON.stringify(result) ?? "null");
}
