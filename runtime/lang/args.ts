// Argument checks that generated validators call, one per declared type. Each takes
// the raw value, the argument's name (for the message) and whether the value arrived as
// text (query string, form, path parameter), and returns the typed value or throws a
// 400 naming the argument (docs/language.md §2.3: "a value of the wrong type … is a 400 naming
// the argument, before the body runs").
//
// Text coercion applies to strings only: a non-string value is judged by the JSON
// rules even when `asText` is true, so a mixed input can never smuggle in a wrong type.

import { HttpError, ValidationError } from "../core/errors.js";
import { JsonProblem, parseClientJson } from "../core/safe-json.js";
import { parseTimestamp } from "./timestamp.js";
import type { CallInput } from "../contract/index.js";
export { fileArg as file } from "../uploads/index.js";

export type ArgCheck<T> = (value: unknown, name: string, asText: boolean) => T;

const MAX_ID_LENGTH = 64;
const MINUS = 45; // -
const ZERO = 48; // 0
const NINE = 57; // 9
// A decimal number: optional `-`, digits with an optional fraction, optional exponent.
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function bad(name: string, expected: string): HttpError {
  return new ValidationError("SVC_ERR_ARGUMENT", `argument "${name}" must be ${expected}`);
}

export function text(value: unknown, name: string, asText: boolean): string {
  if (typeof value === "string") return value;
  throw bad(name, "a string");
}

export function int(value: unknown, name: string, asText: boolean): number {
  if (asText && typeof value === "string") {
    if (!isIntegerText(value)) throw bad(name, "an integer");
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw bad(name, "an integer between -(2^53-1) and 2^53-1");
    return n === 0 ? 0 : n; // "-0" is 0
  }
  if (typeof value === "number" && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) throw bad(name, "an integer between -(2^53-1) and 2^53-1");
    return value;
  }
  throw bad(name, "an integer");
}

/** `^-?\d+$` without a regex: the check runs for every integer argument. */
function isIntegerText(s: string): boolean {
  const start = s.charCodeAt(0) === MINUS ? 1 : 0;
  if (s.length === start) return false;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

export function float(value: unknown, name: string, asText: boolean): number {
  if (asText && typeof value === "string") {
    if (!DECIMAL.test(value)) throw bad(name, "a number");
    const n = Number(value);
    if (!Number.isFinite(n)) throw bad(name, "a finite number");
    return n;
  }
  if (typeof value === "number" && Number.isFinite(value)) return value;
  throw bad(name, "a number");
}

export function bool(value: unknown, name: string, asText: boolean): boolean {
  if (typeof value === "boolean") return value;
  if (asText && typeof value === "string") {
    if (value === "true" || value === "1") return true;
    if (value === "false" || value === "0") return false;
    throw bad(name, "true, false, 1 or 0");
  }
  throw bad(name, "true or false");
}

export function id(value: unknown, name: string, asText: boolean): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw bad(name, `an id (a non-empty string of at most ${MAX_ID_LENGTH} characters)`);
  }
  return value;
}

/** ISO-8601 / RFC 3339 text, returned normalized to UTC `toISOString()` form. */
export function timestamp(value: unknown, name: string, asText: boolean): string {
  const normalized = typeof value === "string" ? parseTimestamp(value) : null;
  if (normalized === null) throw bad(name, "an ISO-8601 timestamp such as 2024-05-01T12:00:00Z");
  return normalized;
}

/** Any JSON value; as text, the string is parsed as JSON. */
export function json(value: unknown, name: string, asText: boolean): unknown {
  if (!(asText && typeof value === "string")) return value;
  try {
    return parseClientJson(value);
  } catch (err) {
    if (!(err instanceof JsonProblem)) throw err;
    throw new ValidationError(
      "SVC_ERR_ARGUMENT",
      err.kind === "malformed" ? `argument "${name}" must be JSON` : `argument "${name}": JSON ${err.message}`,
    );
  }
}

/** A check for `enum(a, b, …)`; build it once per declaration, not per call. */
export function enumOf<const T extends string>(values: readonly T[]): ArgCheck<T> {
  const allowed: ReadonlySet<string> = new Set(values);
  const list = values.join(", ");
  return (value, name) => {
    if (typeof value === "string" && allowed.has(value)) return value as T;
    throw bad(name, `one of: ${list}`);
  };
}

/** Throws a 400 naming every argument that is not in `known` (docs/language.md §3). */
export function rejectUnknown(args: Record<string, unknown>, known: readonly string[]): void {
  let unknown: string[] | null = null;
  for (const key in args) {
    if (!known.includes(key)) (unknown ??= []).push(key);
  }
  if (unknown === null) return;
  const names = unknown.map((n) => `"${n}"`).join(", ");
  throw new ValidationError("SVC_ERR_ARGUMENT", unknown.length === 1 ? `unknown argument ${names}` : `unknown arguments ${names}`);
}

/** The 400 for a required argument that was not given; throws, so it fits in an expression. */
export function missing(name: string): never {
  throw new ValidationError("SVC_ERR_ARGUMENT", `argument "${name}" is required`);
}

/**
 * True when the value of a nullable argument means null: undefined or null, and, when it
 * arrived as text, the empty string (an empty optional form field means "none",
 * docs/language.md §4).
 */
export function isNull(value: unknown, asText: boolean): boolean {
  return value === undefined || value === null || (asText && value === "");
}

/**
 * Whether argument `name` of `input` arrived as text: the whole input is text, or the
 * argument is a path parameter merged into a JSON body (`input.textArgs`).
 */
export function isText(input: CallInput, name: string): boolean {
  return input.text || (input.textArgs !== undefined && input.textArgs.includes(name));
}
