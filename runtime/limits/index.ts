// Rate limits and the sign-in throttle (docs/language.md §2.6, docs/auth.md "Sign-in
// throttle", docs/operations.md "Rate limits"): one folder, one entry.

import type { Logger } from "../core/log.js";
import type { Awaitable, CallContext, Database, Executor, ServerOptions, ServerSpec, StatementSpec, TableSpec } from "../contract/index.js";
import { type Rehash, verifyPassword } from "../auth/index.js";
import { DatabaseCounters, MemoryCounters } from "./counters.js";
import { Limiter } from "./limiter.js";
import { limitStatementList, limitsTable } from "./sql.js";

export { Limiter, type Clock } from "./limiter.js";
export { clientAddress, counterId, valueKey } from "./keys.js";
export { DatabaseCounters, MemoryCounters, type Counters } from "./counters.js";
export { limitsTable, limitStatements, LIMITS_TABLE } from "./sql.js";
export type { PasswordOutcome } from "./throttle.js";
export type { LimitsSpec, RateLimitSpec, RateSpec, ThrottleSpec } from "../contract/index.js";

/** `--db :memory:`: no other process sees that database, so counters stay in this one. */
function inMemory(options: Pick<ServerOptions, "db">): boolean {
  return options.db === ":memory:";
}

/** The limiter of a server, or null when nothing is limited or throttled. */
export function createLimiter(spec: ServerSpec, db: Database, options: ServerOptions, log: Logger): Limiter | null {
  if (spec.limits === undefined) return null;
  const counters = inMemory(options) ? new MemoryCounters() : new DatabaseCounters(db, log);
  return new Limiter(counters, options.trustProxy === true, spec.limits.throttle);
}

/** The spec's tables and statements, with the limiter's own when it keeps counters in the database. */
export function withLimitsSchema(spec: ServerSpec, options: Pick<ServerOptions, "db">): { tables: TableSpec[]; statements: StatementSpec[] } {
  if (spec.limits === undefined || inMemory(options)) return { tables: spec.tables, statements: spec.statements };
  return { tables: [...spec.tables, limitsTable], statements: [...spec.statements, ...limitStatementList] };
}

/** `verify_password` in an action: throttled when the server has a throttle (generated code calls this). */
export function verifyPasswordThrottled(
  exec: Executor,
  ctx: CallContext,
  stored: string | null | undefined,
  given: string | null | undefined,
  resource: string | null,
  id: unknown,
  rehash?: Rehash,
): Promise<boolean> {
  const throttle = ctx.limits?.passwords ?? null;
  return throttle === null ? verifyPassword(stored, given, exec, rehash) : throttle.verify(exec, ctx, stored, given, resource, id, rehash);
}

/**
 * `result` of an endpoint or block, once the throttle has written what its password checks
 * found (whether it succeeded or failed). Untouched when there is nothing to write: a
 * result that is not a promise checked no password.
 */
export function settled<T>(ctx: CallContext, result: Awaitable<T>): Awaitable<T> {
  const throttle = ctx.limits?.passwords ?? null;
  if (throttle === null || !(result instanceof Promise)) return result;
  return result.then(
    async (value) => {
      await throttle.settle(ctx);
      return value;
    },
    async (err: unknown) => {
      await throttle.settle(ctx);
      throw err;
    },
  );
}
