// What a generated server says about rate limits (docs/language.md §2.6, docs/operations.md
// "Rate limits"): declared limits on endpoints, routes and route-file blocks, and the
// sign-in throttle around `verify_password` (docs/auth.md "Sign-in throttle"). Decided at
// build time; the runtime only counts.

/**
 * One declared `limit N per W [by K] [burst B]`. `I` is what the key's value is read from:
 * an endpoint's CallInput, or a route-file block's RouteInput.
 */
export interface RateLimitSpec<I = unknown> {
  /** Names the policy in `RateLimit-Policy` and keys its counters: `accounts.sign_in`, `POST /api/users/login`. */
  name: string;
  /** Requests per window, as declared. */
  count: number;
  /** The window in seconds, as declared. */
  windowS: number;
  /** Requests allowed at once; `count` unless declared. */
  burst: number;
  /** `address`: the client address; `caller`: `auth.id` (the address when anonymous); `value`: an argument. */
  by: "address" | "caller" | "value";
  /** `by: "value"`: the argument's value as the request gives it. */
  value?: (input: I) => unknown;
}

/** A rate as the throttle's svc.toml states it: `burst` at once, then `count` per `windowS`. */
export interface RateSpec {
  count: number;
  windowS: number;
  burst: number;
}

/** `[auth.throttle]`: failed password checks per account and per client address. */
export interface ThrottleSpec {
  /** Failed checks of one stored password: past it, that account answers 429 for a short while. */
  account: RateSpec;
  /** Failed checks from one client address, on any account: past it, that address answers 429. */
  address: RateSpec;
}

/** ServerSpec.limits: present when anything is limited or throttled, so the server keeps counters. */
export interface LimitsSpec {
  /** Null when `[auth.throttle] enabled = false` or nothing verifies a password. */
  throttle: ThrottleSpec | null;
}
