// jq errors as JavaScript exceptions, and the signals compiled code uses around `try`.

import type { ErrorCode } from "../core/errors.js";
import { dump } from "./print.js";

/** A jq error: `value` is what `try … catch .` would see (usually the message). */
export class JqError extends Error {
  constructor(
    readonly value: unknown,
    readonly code: ErrorCode = "SVC_ERR_JQ",
  ) {
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
  throw new JqError(message, "SVC_ERR_JQ");
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
  if (e instanceof RangeError) return tooDeep(e);
  throw e;
}

/**
 * The helpers that walk a value (tojson, comparison, equality) recurse once per level of
 * nesting, and a program can nest a value deeper than JavaScript's stack allows (`reduce
 * range(10001) as $_ ([]; [.])`). That is an error of the program, which `try` catches and
 * a page answers as any other jq error. V8 throws the same RangeError for a string or an
 * array past its maximum length, the same kind of limit.
 */
export function tooDeep(e: RangeError): JqError {
  return new JqError(`value nested too deeply or too large for a compiled program (${e.message})`);
}

/** Runs a compiled page.jq program: a failure of the program's own is always a JqError. */
export function runCompiled<A extends unknown[]>(program: (...args: A) => unknown[], ...args: A): unknown[] {
  try {
    return program(...args);
  } catch (e) {
    if (e instanceof RangeError) throw tooDeep(e);
    throw e;
  }
}
