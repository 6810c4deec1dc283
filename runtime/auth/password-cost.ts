// SVC_PASSWORD_COST (docs/auth.md, "Password cost in tests"): log2 of scrypt's N for the
// hashes a server makes, read once when it starts. Unset, new hashes cost N = 2^17 (OWASP's
// minimum). A test suite that signs up and in hundreds of times may lower it so that each
// hash takes milliseconds, not a second of a core; the server then warns at start, since
// below 17 a stolen table is cheaper to guess. Hashes keep their parameters, so a server run
// later at the full cost still verifies them and rewrites each on its owner's next sign-in.

import { StartupError } from "../core/errors.js";
import type { Logger } from "../core/log.js";
import { DEFAULT_LOG_N, MAX_LOG_N, setPasswordCost } from "./password.js";

export const PASSWORD_COST_ENV = "SVC_PASSWORD_COST";
/** N = 2^10 (1 MiB): still scrypt, at a few milliseconds a hash. */
export const MIN_PASSWORD_COST = 10;

/** Reads SVC_PASSWORD_COST from `env`: a StartupError for a bad value, a warning below the default. */
export function applyPasswordCost(env: Readonly<Record<string, string | undefined>>, log: Logger): void {
  const value = env[PASSWORD_COST_ENV];
  if (value === undefined || value === "") {
    setPasswordCost(DEFAULT_LOG_N);
    return;
  }
  const cost = /^\d{1,2}$/.test(value) ? Number(value) : NaN;
  if (!(cost >= MIN_PASSWORD_COST && cost <= MAX_LOG_N)) {
    throw new StartupError(
      "SVC_ERR_AUTH_CONFIG",
      `${PASSWORD_COST_ENV}: ${JSON.stringify(value)} is not a password cost ` +
        `(log2 of scrypt's N, a whole number from ${MIN_PASSWORD_COST} to ${MAX_LOG_N}; unset means ${DEFAULT_LOG_N})`,
    );
  }
  setPasswordCost(cost);
  if (cost < DEFAULT_LOG_N) {
    log.warn(`${PASSWORD_COST_ENV} makes password hashes weaker than OWASP's minimum: for tests only`, {
      password_cost: cost,
      minimum: DEFAULT_LOG_N,
    });
  }
}
