// An endpoint or route-file block called with an Idempotency-Key: authorized first (a
// stored answer must not reach a caller its action would refuse), then run through the
// store under its target, caller and request (keyed.ts).

import { authorize } from "../auth/index.js";
import type { ShapedAnswer } from "../contract/index.js";
import type { CallContext, CallInput, Database, EndpointSpec, Requirement } from "../contract/index.js";
import { requestText } from "./fingerprint.js";
import type { IdempotencyStore, IdempotentAnswer } from "./store.js";

/**
 * An action endpoint (`/api/<module>:<action>` or a declared route to it). A route with
 * `respond` passes `shape`: its answer is made inside the call's transaction and stored
 * whole, as JSON of the ShapedAnswer with the answer's status, so a replay answers with the
 * same status, body and headers. That route's requests are fingerprinted apart, so a key
 * first used elsewhere is a 422 there, never an envelope read as a shaped answer.
 */
export function callEndpoint(
  store: IdempotencyStore,
  key: string,
  endpoint: EndpointSpec,
  db: Database,
  input: CallInput,
  ctx: CallContext,
  method: string,
  path: string,
  shape?: (result: unknown) => ShapedAnswer,
): Promise<IdempotentAnswer> {
  authorizeFirst(endpoint.requires, ctx);
  const request = shape === undefined ? requestText(method, path, input.args, input.text) : requestText(method, path, input.args, input.text, "respond");
  return store.call(
    { target: endpoint.name, key, caller: callerId(ctx), request },
    (bound) => endpoint.run(bound, input, ctx),
    shape === undefined ? resultJson : (result) => shapedJson(shape(result)),
    db,
  );
}

function shapedJson(answer: ShapedAnswer): { status: number; body: string } {
  return { status: answer.status, body: JSON.stringify(answer) };
}

export function authorizeFirst(requires: Requirement | undefined, ctx: CallContext): void {
  if (requires !== undefined) authorize(ctx, requires);
}

/** Whose key it is: the caller's id (a bearer token's, a JWT's subject, a session's user); null when anonymous. */
export function callerId(ctx: CallContext): string | null {
  return ctx.caller?.id ?? null;
}

/** An action's result as the envelope's `data` would carry it. */
function resultJson(result: unknown): string {
  return JSON.stringify(result) ?? "null";
}
