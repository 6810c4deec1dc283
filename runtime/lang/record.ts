import { ValidationError } from "../core/errors.js";

// Checks a record operation makes before it writes (docs/language.md §2.3): a value outside an
// enum, or null for a field that is not nullable, is a 400 naming the field. The
// generator emits a check only where the value's static type does not rule it out.

export function notNull<T>(value: T | null | undefined, field: string): T {
  if (value === null || value === undefined) throw new ValidationError("SVC_ERR_VALIDATION", `${field} must not be null`);
  return value;
}

export function oneOf<T extends string>(value: unknown, field: string, values: readonly T[]): T {
  if (typeof value === "string" && (values as readonly string[]).includes(value)) return value as T;
  throw new ValidationError("SVC_ERR_VALIDATION", `${field} must be one of ${values.join(", ")}`);
}

export function oneOfOrNull<T extends string>(value: unknown, field: string, values: readonly T[]): T | null {
  return value === null || value === undefined ? null : oneOf(value, field, values);
}

/** A bool column as the driver returns it (SQLite: 0/1) to true/false. */
export function toBool(v: unknown): boolean | null {
  return v === null || v === undefined ? null : v === true || v === 1 || v === 1n || v === "1" || v === "true";
}

/** A json column as the driver returns it (SQLite: text) to a value. */
export function fromJson(v: unknown): unknown {
  if (typeof v !== "string") return v ?? null;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** A json value to the text the database stores. */
export function toJson(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v);
}
