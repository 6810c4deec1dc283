// Checks on list and record arguments (docs/language.md §2.3 Lists, §2.5 Record types):
// generated validators call these for `tags: list<text> max 20` and `user: NewUser`, with
// the path of the value as the client sent it (`user.address.city`, `tags[3]`), so a
// wrong value is a 400 that names exactly where it is, before the action runs. They are
// ValidationErrors, so a route that responds answers them with `[errors] validation_status`.

import { json } from "./args.js";
import { ValidationError } from "../core/errors.js";

/** Checks one value at `path` and returns it typed: `rt.expect.text`, a record type's check, … */
export type Check<T> = (value: unknown, path: string) => T;

/**
 * A list or record argument as it arrived: from a JSON body as it is; as text (a query
 * string, a form field, a path segment) it is read as JSON, like a `json` argument.
 */
export function fromText(value: unknown, name: string, asText: boolean): unknown {
  return json(value, name, asText);
}

/** A list of at most `max` items, each checked at `path[i]`. */
export function list<T>(value: unknown, path: string, max: number, item: Check<T>): T[] {
  if (!Array.isArray(value)) throw new ValidationError("SVC_ERR_VALIDATION", `${path} must be a list`);
  if (value.length > max) {
    throw new ValidationError("SVC_ERR_VALIDATION", `${path} has ${value.length} items; at most ${max} are allowed`);
  }
  const out = new Array<T>(value.length);
  for (let i = 0; i < value.length; i++) out[i] = item(value[i], `${path}[${i}]`);
  return out;
}

/**
 * An object with no member outside `members`: the members are then read by name. An
 * unknown member is refused rather than dropped, since it is most often a misspelt one.
 */
export function record(value: unknown, path: string, type: string, members: readonly string[]): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError("SVC_ERR_VALIDATION", `${path} must be an object (${type})`);
  }
  let unknown: string[] | null = null;
  for (const key of Object.keys(value)) {
    if (!members.includes(key)) (unknown ??= []).push(`${path}.${key}`);
  }
  if (unknown !== null) {
    throw new ValidationError(
      "SVC_ERR_VALIDATION",
      unknown.length === 1 ? `${unknown[0]} is not a member of ${type}` : `${unknown.join(", ")} are not members of ${type}`,
    );
  }
  return value as Record<string, unknown>;
}

/** The 400 for a required member that was not sent; throws, so it fits in an expression. */
export function missing(path: string, member: string): never {
  throw new ValidationError("SVC_ERR_VALIDATION", `${path}.${member} is required`);
}

/** A check for one of an enum's values; build it once per declaration, not per call. */
export function oneOf<const T extends string>(values: readonly T[]): Check<T> {
  const allowed: ReadonlySet<string> = new Set(values);
  const listed = values.join(", ");
  return (value, path) => {
    if (typeof value === "string" && allowed.has(value)) return value as T;
    throw new ValidationError("SVC_ERR_VALIDATION", `${path} must be one of: ${listed}`);
  };
}

/** Any JSON value (a `json` member or item): already parsed and bounded by the body's checks. */
export function any(value: unknown): unknown {
  return value;
}

/** A check that lets null through and runs `check` on anything else. */
export function orNull<T>(check: Check<T>): Check<T | null> {
  return (value, path) => (value === null || value === undefined ? null : check(value, path));
}
