// The sign-in throttle (docs/auth.md, "Sign-in throttle"): failed `verify_password` checks
// are counted per account (the stored hash: every account's is unique, by its salt) and per
// client address, with the GCRA of declared limits. Before a check, an account or an
// address with no failure left answers 429 without hashing; after it, a failure is counted
// on both, and a success forgets the account's failures (not the address's: an attacker
// who signs in to an account of their own must not wash their address clean).
//
// The check runs inside the action, where its transaction may be open, so the counters are
// only read there (on the action's executor: on SQLite the connection is the transaction's).
// What happened is written once the action is over (`settle`), outside any transaction: a
// failed sign-in rolls its transaction back, and its failure must still count.
//
// Concurrent guesses on one account read the same count: a burst of parallel requests can
// pass the limit by the number in flight, which the address limit bounds.

import { HttpError } from "../errors.js";
import { verifyPassword } from "../auth/password.js";
import type { CallContext, Executor } from "../types.js";
import { rateOf, type Rate, waitMs } from "./gcra.js";
import { retryAfterSeconds } from "./headers.js";
import { counterId } from "./keys.js";
import type { Limiter } from "./limiter.js";
import type { ThrottleSpec } from "./types.js";

const ACCOUNT = "svc sign-in account";
const ADDRESS = "svc sign-in address";

/** What one password check left to write once the action is over. */
export interface PasswordOutcome {
  account: string | null;
  address: string;
  ok: boolean;
}

export class PasswordThrottle {
  private readonly account: Rate;
  private readonly address: Rate;

  constructor(
    private readonly limiter: Limiter,
    spec: ThrottleSpec,
  ) {
    this.account = rateOf(spec.account.count, spec.account.windowS, spec.account.burst);
    this.address = rateOf(spec.address.count, spec.address.windowS, spec.address.burst);
  }

  /** `verify_password` with the throttle around it: a 429 instead of a check when the account or address has no failure left. */
  async verify(exec: Executor, ctx: CallContext, stored: string | null | undefined, given: string | null | undefined): Promise<boolean> {
    const now = this.limiter.now();
    const address = counterId(ADDRESS, this.limiter.address(ctx));
    const account = typeof stored === "string" ? counterId(ACCOUNT, stored) : null;
    const wait = Math.max(
      waitMs((await this.peek(exec, address)) ?? now, now, this.address),
      account === null ? 0 : waitMs((await this.peek(exec, account)) ?? now, now, this.account),
    );
    if (wait > 0) {
      const seconds = retryAfterSeconds(wait);
      throw new HttpError(429, `too many failed sign-ins; try again in ${seconds} s`, { headers: { "Retry-After": String(seconds) } });
    }
    const ok = await verifyPassword(stored, given);
    (ctx.passwords ??= []).push({ account, address, ok });
    return ok;
  }

  private peek(exec: Executor, id: string): Promise<number | null> {
    return this.limiter.counters.peek(id, exec);
  }

  /** Writes what the request's password checks found; called once the action is over, outside its transaction. */
  async settle(ctx: CallContext): Promise<void> {
    const outcomes = ctx.passwords;
    if (outcomes === undefined) return;
    ctx.passwords = undefined;
    const now = this.limiter.now();
    for (const o of outcomes) {
      if (o.ok) {
        if (o.account !== null) await this.limiter.counters.forget(o.account);
        continue;
      }
      await this.limiter.counters.take(o.address, now, this.address);
      if (o.account !== null) await this.limiter.counters.take(o.account, now, this.account);
    }
  }
}
