// Reads answer at once where the database can (SQLite outside a transaction) and with a
// promise elsewhere (types.ts, Executor). Generated queries that decode their rows apply the
// decoder through here, so a read that answered at once stays synchronous.

import type { Awaitable } from "../contract/index.js";

/** `decode(value)`: at once for a value, once it settles for a promise. */
export function whenRead<T, U>(value: Awaitable<T>, decode: (value: T) => U): Awaitable<U> {
  return value instanceof Promise ? value.then(decode) : decode(value);
}
