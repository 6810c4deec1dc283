// jq errors as JavaScript exceptions, and the signals compiled code uses around `try`.

import { dump } from "./print.js";

/** A jq error: `value` is what `try … catch .` would see (usually the message). */
export class JqError extends Error {
  constructor(readonly value: unknown) {
    super(typeof value === "string" ? value : `${dump(value, false)} (not a string)`);
    this.name = "JqError";
  }
}

/** Wraps an error raised downstream of a `try` body so that `try` lets it through. */
export class Passthrough {
  constructor(readonly inner: unknown) {}
}

/** "No output": what an optional index returns instead of failing. */
export const NONE: unique symbol = Symbol("jq.none");

export function fail(message: string): never {
  throw new JqError(message);
}

export function error(value: unknown): JqError {
  return new JqError(value);
}

export function pass(e: unknown): Passthrough {
  return new Passthrough(e);
}

/** In a `try` handler: errors from downstream and non-jq exceptions keep going. */
export function caught(e: unknown): JqError {
  if (e instanceof Passthrough) throw e.inner;
  if (e instanceof JqError) return e;
  throw e;
}
