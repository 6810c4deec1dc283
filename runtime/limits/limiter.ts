// Declared rate limits at run time: the server (runtime/core/server.ts) and route files
// (runtime/pages/route-request.ts) ask `enforce` before an endpoint or block runs, outside
// any transaction, so a request that fails still counts. A request over any of its
// limits is a 429 with Retry-After and the RateLimit fields (headers.ts); one within them
// gets the fields on its answer.

import type { ServerResponse } from "node:http";
import { HttpError } from "../core/errors.js";
import type { CallContext } from "../contract/index.js";
import type { Counters } from "./counters.js";
import { rateOf, waitMs } from "./gcra.js";
import { policyField, type PolicyState, retryAfterSeconds, stateField } from "./headers.js";
import { clientAddress, counterId, valueKey } from "./keys.js";
import { PasswordThrottle } from "./throttle.js";
import type { RateLimitSpec, ThrottleSpec } from "../contract/index.js";

export type Clock = () => number;

export class Limiter {
  /** The sign-in throttle; null when it is off. */
  readonly passwords: PasswordThrottle | null;

  constructor(
    readonly counters: Counters,
    private readonly trustProxy: boolean,
    throttle: ThrottleSpec | null,
    private readonly clock: Clock = Date.now,
  ) {
    this.passwords = throttle === null ? null : new PasswordThrottle(this, throttle);
  }

  now(): number {
    return this.clock();
  }

  address(ctx: CallContext): string {
    return clientAddress(ctx.req, this.trustProxy);
  }

  /**
   * Counts this request against each of `limits`, in order; the first one it is over
   * answers 429. `input` is what a `by <argument>` key is read from.
   */
  async enforce<I>(limits: readonly RateLimitSpec<I>[], input: I, ctx: CallContext, res: ServerResponse): Promise<void> {
    const now = this.clock();
    const states: PolicyState[] = [];
    for (const limit of limits) {
      const rate = rateOf(limit.count, limit.windowS, limit.burst);
      const decision = await this.counters.take(counterId(limit.name, this.key(limit, input, ctx)), now, rate, ctx.span);
      const state: PolicyState = { name: limit.name, count: limit.count, windowS: limit.windowS, rate, tat: decision.tat };
      if (!decision.allowed) {
        const wait = retryAfterSeconds(waitMs(decision.tat, now, rate));
        throw new HttpError(429, `too many requests; try again in ${wait} s`, { code: "SVC_ERR_RATE_LIMITED", headers: { "Retry-After": String(wait), "RateLimit-Policy": policyField([state]), RateLimit: stateField([state], now) },
        });
      }
      states.push(state);
    }
    if (!res.headersSent) {
      res.setHeader("RateLimit-Policy", policyField(states));
      res.setHeader("RateLimit", stateField(states, now));
    }
  }

  /** A declared route's limits, then its endpoint's (runtime/core/server.ts). */
  async enforceAll<I>(route: readonly RateLimitSpec<I>[] | undefined, endpoint: readonly RateLimitSpec<I>[] | undefined, input: I, ctx: CallContext, res: ServerResponse): Promise<void> {
    if (route !== undefined) await this.enforce(route, input, ctx, res);
    if (endpoint !== undefined) await this.enforce(endpoint, input, ctx, res);
  }

  private key<I>(limit: RateLimitSpec<I>, input: I, ctx: CallContext): string {
    switch (limit.by) {
      case "value":
        return `value:${valueKey(limit.value?.(input))}`;
      case "caller":
        // An anonymous caller has no id: counted by address, apart from every signed-in one.
        if (ctx.caller) return `caller:${ctx.caller.id}`;
        return `address:${this.address(ctx)}`;
      case "address":
        return `address:${this.address(ctx)}`;
    }
  }
}
