// The sign-in throttle (docs/auth.md, "Sign-in throttle"): failed `verify_password` checks
// are counted per account (the resource and the primary key of the row whose password is
// checked) and per client address, with the GCRA of declared limits.
//
// - An address with no failure left answers 429 before any hash is computed, whatever the
//   account: that is what stops one client guessing, at one account or many.
// - An account with no failure left answers 429 too, but not to an address that has signed
//   in to it within KNOWN_MS: a guesser spread over many addresses can make a stranger wait
//   (Retry-After is at most one interval of the account's rate), never lock the owner out
//   of the network they use (OWASP's authentication cheat sheet: lockout is a denial of
//   service; a known device or network is let through).
// - A success forgets the account's failures and marks the address known to the account;
//   it does not forgive the address's failures (an attacker signing in to an account of
//   their own between guesses must not wash their address clean).
//
// The check runs inside the action, where its transaction may be open, so the counters are
// only read there (on the action's executor: on SQLite the connection is the transaction's).
// What happened is written once the action is over (`settle`), outside any transaction: a
// failed sign-in rolls its transaction back, and its failure must still count. Concurrent
// guesses read the same counts, so a burst of parallel requests can pass a limit by the
// number in flight.

import { HttpError } from "../core/errors.js";
import { type Rehash, verifyPassword } from "../auth/index.js";
import type { CallContext, Executor } from "../contract/index.js";
import { rateOf, type Rate, waitMs } from "./gcra.js";
import { retryAfterSeconds } from "./headers.js";
import { counterId, valueKey } from "./keys.js";
import type { Limiter } from "./limiter.js";
import type { ThrottleSpec } from "../contract/index.js";

const ACCOUNT = "svc sign-in account";
const ADDRESS = "svc sign-in address";
const KNOWN = "svc sign-in known address";
/** How long an address that signed in to an account stays known to it: 30 days. */
export const KNOWN_MS = 30 * 24 * 60 * 60 * 1000;
/** One take of this rate sets a fresh row's TAT to now + KNOWN_MS. */
const KNOWN_RATE: Rate = { intervalMs: KNOWN_MS, capacityMs: KNOWN_MS };

/** What one password check left to write once the action is over. */
export interface PasswordOutcome {
  account: string | null;
  known: string | null;
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

  /**
   * `verify_password` with the throttle around it: a 429 instead of a check when the address,
   * or the account for an address it does not know, has no failure left. `resource` and `id`
   * name the account (null when there is no row: an unknown user counts on the address only).
   */
  async verify(
    exec: Executor,
    ctx: CallContext,
    stored: string | null | undefined,
    given: string | null | undefined,
    resource: string | null,
    id: unknown,
    rehash?: Rehash,
  ): Promise<boolean> {
    const now = this.limiter.now();
    const from = this.limiter.address(ctx);
    const address = counterId(ADDRESS, from);
    const who = resource === null || id === null || id === undefined ? null : `${resource}:${valueKey(id)}`;
    const account = who === null ? null : counterId(ACCOUNT, who);
    const known = who === null ? null : counterId(KNOWN, `${who}\n${from}`);
    let wait = waitMs((await this.peek(exec, address)) ?? now, now, this.address);
    if (account !== null && known !== null) {
      const accountWait = waitMs((await this.peek(exec, account)) ?? now, now, this.account);
      if (accountWait > 0 && !(((await this.peek(exec, known)) ?? 0) > now)) wait = Math.max(wait, accountWait);
    }
    if (wait > 0) {
      const seconds = retryAfterSeconds(wait);
      throw new HttpError(429, `too many failed sign-ins; try again in ${seconds} s`, { code: "SVC_ERR_RATE_LIMITED", headers: { "Retry-After": String(seconds) } });
    }
    // On the action's executor, so the hash runs outside its transaction (runtime/auth/password-work.ts).
    const ok = await verifyPassword(stored, given, exec, rehash);
    (ctx.passwords ??= []).push({ account, known, address, ok });
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
    const counters = this.limiter.counters;
    // The request's span, when traced: these statements are its children.
    const span = ctx.span;
    for (const o of outcomes) {
      if (o.ok) {
        if (o.account !== null) await counters.forget(o.account, span);
        if (o.known !== null) {
          await counters.forget(o.known, span);
          await counters.take(o.known, now, KNOWN_RATE, span);
        }
        continue;
      }
      await counters.take(o.address, now, this.address, span);
      if (o.account !== null) await counters.take(o.account, now, this.account, span);
    }
  }
}
