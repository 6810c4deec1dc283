// Checks on values read out of a json argument or webhook payload (`payload.issue.title`)
// where a typed slot takes them: a builtin's parameter, an operator's operand, a field
// written, a query argument, a `sql { }` binding. The client chose these values, so a wrong
// type is a 400 naming the member path, never a crash in a builtin or a driver, nor a
// value stored in whatever form the driver turns it into. The generator emits a check only
// where such a value meets a typed slot (LANGUAGE: "Values from json").

import { type HttpError, ValidationError } from "../core/errors.js";
import { parseTimestamp } from "./timestamp.js";

const MAX_ID_LENGTH = 64;

function bad(path: string, expected: string): HttpError {
  return new ValidationError("SVC_ERR_VALIDATION", `${path} must be ${expected}`);
}

export function text(value: unknown, path: string): string {
  if (typeof value === "string") return value;
  throw bad(path, "text");
}

export function textOrNull(value: unknown, path: string): string | null {
  return value === null || value === undefined ? null : text(value, path);
}

/** A safe integer: what every backend stores and returns exactly. */
export function int(value: unknown, path: string): number {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  throw bad(path, "a whole number between -(2^53-1) and 2^53-1");
}

export function intOrNull(value: unknown, path: string): number | null {
  return value === null || value === undefined ? null : int(value, path);
}

export function float(value: unknown, path: string): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  throw bad(path, "a number");
}

export function floatOrNull(value: unknown, path: string): number | null {
  return value === null || value === undefined ? null : float(value, path);
}

export function bool(value: unknown, path: string): boolean {
  if (typeof value === "boolean") return value;
  throw bad(path, "true or false");
}

export function boolOrNull(value: unknown, path: string): boolean | null {
  return value === null || value === undefined ? null : bool(value, path);
}

export function id(value: unknown, path: string): string {
  if (typeof value === "string" && value.length > 0 && value.length <= MAX_ID_LENGTH) return value;
  throw bad(path, `an id (a non-empty string of at most ${MAX_ID_LENGTH} characters)`);
}

export function idOrNull(value: unknown, path: string): string | null {
  return value === null || value === undefined ? null : id(value, path);
}

/** ISO-8601 text, normalized to UTC as timestamp arguments are. */
export function timestamp(value: unknown, path: string): string {
  const normalized = typeof value === "string" ? parseTimestamp(value) : null;
  if (normalized === null) throw bad(path, "an ISO-8601 timestamp such as 2024-05-01T12:00:00Z");
  return normalized;
}

export function timestampOrNull(value: unknown, path: string): string | null {
  return value === null || value === undefined ? null : timestamp(value, path);
}

/** What `len` measures: text or a list (null counts as empty, as for other values). */
export function sized(value: unknown, path: string): string | unknown[] | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || Array.isArray(value)) return value;
  throw bad(path, "text or a list");
}

/** What `for`, `contains`, `unique` and `join` walk: a list, or null (read as empty). */
export function listOrNull(value: unknown, path: string): unknown[] | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value;
  throw bad(path, "a list");
}

/** Roles given to issue_token or start_session from json: a list of text, or null (no roles). */
export function textListOrNull(value: unknown, path: string): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw bad(path, "a list of text");
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== "string") throw bad(`${path}[${i}]`, "text");
  }
  return value as string[];
}


export { expectFile as file, expectFileOrNull as fileOrNull } from "../uploads/index.js";
