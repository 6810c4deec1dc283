// The answer's rate-limit fields, as draft-ietf-httpapi-ratelimit-headers-10 writes them
// (Structured Field lists, RFC 9651): `RateLimit-Policy: "name";q=5;w=60` states each
// policy, `RateLimit: "name";r=2;t=24` what is left of it and in how many seconds it is
// whole again (for a policy with nothing left: until the next request is allowed, which
// is also what `Retry-After` says, RFC 9110 §10.2.3).

import { remaining, waitMs, type Rate } from "./gcra.js";

export interface PolicyState {
  name: string;
  count: number;
  windowS: number;
  rate: Rate;
  tat: number;
}

/** An sf-string: `"` and `\` escaped; the names svc makes are printable ASCII. */
function sfString(text: string): string {
  return `"${text.replace(/[\\"]/g, "\\$&")}"`;
}

export function policyField(states: readonly PolicyState[]): string {
  return states.map((s) => `${sfString(s.name)};q=${s.count};w=${s.windowS}`).join(", ");
}

export function stateField(states: readonly PolicyState[], now: number): string {
  return states
    .map((s) => {
      const r = remaining(s.tat, now, s.rate);
      const ms = r > 0 ? s.tat - now : waitMs(s.tat, now, s.rate);
      return `${sfString(s.name)};r=${r};t=${Math.max(0, Math.ceil(ms / 1000))}`;
    })
    .join(", ");
}

/** Whole seconds to wait, at least 1: a client told 0 would retry at once. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
