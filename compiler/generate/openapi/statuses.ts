// Which error statuses an operation can answer, read from the analyzed model: what the
// server's edge refuses (runtime/core/server.ts, body.ts, idempotency/), `requires`, and every
// `fail` an action can reach through the actions and fns it calls.

import type { Requirement } from "../../analyze/model/model.js";

/** What each status means in this API; the description of its response. */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "The arguments or the request are not valid, or the action failed (`fail`).",
  401: "No credential where one is required, or one the server refuses.",
  403: "The caller lacks the role this needs.",
  404: "Not found.",
  409: "A conflict: the action failed with 409, or a call with this Idempotency-Key is still running.",
  413: "The request body is larger than the server's limit.",
  415: "The request body is neither JSON nor a form, or not UTF-8.",
  422: "The action refused the request (`fail 422`), or the Idempotency-Key was used with another request.",
  503: "The server is shutting down, did not answer within its write timeout, or cannot reach what it needs.",
};

/** 401 without a caller, and 403 too for a role. */
export function requirementStatuses(requires: Requirement | null): number[] {
  if (requires === null) return [];
  return requires.kind === "role" ? [401, 403] : [401];
}
