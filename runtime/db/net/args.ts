// Argument binding for the network adapters (postgres, mysql): the values of one call,
// in slot order, each checked to be a plain scalar. Arguments are validated against their
// declared types before a statement runs, so a non-scalar here is a bug in the caller; the
// check is the last line that keeps an object or an array from a request out of a driver
// (mysql2 would turn an object into JSON, a bug's data would reach the table unnoticed).

import type { ErrorCode } from "../../core/errors.js";

/** A value the adapters bind: text, a finite number, a boolean, a bigint, bytes (an upload's, runtime/uploads) or SQL NULL. */
export type Scalar = string | number | boolean | bigint | Buffer | null;

/** Thrown for arguments the generated code should never pass; the server answers 500 and logs it. */
export class BindError extends TypeError {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = "BindError";
    this.code = code;
  }
}

// This is the hot path (every statement of every request): keep it allocation-lean.
export function bindSlots(name: string, slots: readonly number[], args: readonly unknown[]): Scalar[] {
  const n = slots.length;
  const values = new Array<Scalar>(n);
  for (let i = 0; i < n; i++) {
    const index = slots[i];
    const value = args[index];
    switch (typeof value) {
      case "string":
      case "boolean":
      case "bigint":
        values[i] = value;
        break;
      case "number":
        if (!Number.isFinite(value))
          throw new BindError("SVC_ERR_BIND", `statement ${name}: argument ${index} is ${value}, which SQL cannot hold`);
        values[i] = value;
        break;
      case "undefined":
        throw new BindError(
          "SVC_ERR_BIND",
          index >= args.length
            ? `statement ${name}: argument ${index} is missing (${args.length} given)`
            : `statement ${name}: argument ${index} is undefined; pass null for SQL NULL`,
        );
      default:
        if (value === null) values[i] = null;
        else if (Buffer.isBuffer(value)) values[i] = value;
        else
          throw new BindError(
            "SVC_ERR_BIND",
            `statement ${name}: argument ${index} is ${describe(value)}; only text, numbers, booleans and null are bound`,
          );
    }
  }
  return values;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a Date";
  return `a ${typeof value === "object" ? "object" : typeof value}`;
}
