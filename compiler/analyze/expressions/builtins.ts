// The built-in functions of actions (docs/language.md §2.3 "Built-in functions" and "Lists",
// §6 "Identity"): how many arguments each takes, what each argument must be, and the type
// each gives. contains(list, item), unique, sort and join are typed in list-builtins.ts. The
// generated code calls runtime/lang/builtins.ts, runtime/lang/lists.ts and runtime/auth/.

import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { CallExpr, Span } from "../../parse/ast.js";
import type { BuiltinName, ClaimType, IrExpr, ValueType } from "../model/model.js";
import { UNKNOWN, describe, isNullable, isNumeric, isStringy, scalar, withNullable } from "../shared/types.js";

/** What an argument of a builtin typed by its arguments alone must be. */
type ArgKind = "text" | "int" | "number";

interface Builtin {
  arity: [number, number];
  /** One kind per position, for the builtins typed by their arguments alone; the others have rules of their own. */
  args?: ArgKind[];
}

export const BUILTINS: Record<BuiltinName, Builtin> = {
  now: { arity: [0, 0] },
  trim: { arity: [1, 1], args: ["text"] },
  lower: { arity: [1, 1], args: ["text"] },
  upper: { arity: [1, 1], args: ["text"] },
  len: { arity: [1, 1] },
  coalesce: { arity: [2, 2] },
  slug: { arity: [1, 1], args: ["text"] },
  replace: { arity: [3, 3], args: ["text", "text", "text"] },
  starts_with: { arity: [2, 2], args: ["text", "text"] },
  ends_with: { arity: [2, 2], args: ["text", "text"] },
  substr: { arity: [2, 3], args: ["text", "int", "int"] },
  // contains(text, part) here; contains(list, item) in list-builtins.ts.
  contains: { arity: [2, 2], args: ["text", "text"] },
  unique: { arity: [1, 1] },
  sort: { arity: [1, 1] },
  join: { arity: [2, 2] },
  random: { arity: [0, 0] },
  random_int: { arity: [2, 2], args: ["int", "int"] },
  parse_int: { arity: [1, 1], args: ["text"] },
  parse_float: { arity: [1, 1], args: ["text"] },
  parse_bool: { arity: [1, 1], args: ["text"] },
  clamp: { arity: [3, 3], args: ["number", "number", "number"] },
  min: { arity: [2, 8], args: ["number", "number", "number", "number", "number", "number", "number", "number"] },
  max: { arity: [2, 8], args: ["number", "number", "number", "number", "number", "number", "number", "number"] },
  range: { arity: [1, 2], args: ["int", "int"] },
  // has(x): typed in absent.ts, with the rest of `T??`.
  has: { arity: [1, 1] },
  verify_password: { arity: [2, 2] },
  issue_token: { arity: [1, 2] },
  start_session: { arity: [1, 2] },
  end_session: { arity: [0, 0] },
  revoke: { arity: [1, 1] },
  job_id: { arity: [0, 0] },
};

/** Built-ins that need the call's context (the caller, the response's cookies). */
export const CONTEXT_BUILTINS: ReadonlySet<BuiltinName> = new Set(["issue_token", "start_session", "end_session", "revoke"]);

/** The runtime function a builtin calls, where its name is not the JavaScript one. */
export const RUNTIME_NAMES: Partial<Record<BuiltinName, string>> = { starts_with: "startsWith", ends_with: "endsWith" };

/** The builtins of runtime/values/, called as `rt.values.<name>`. */
export const VALUE_BUILTINS: Partial<Record<BuiltinName, string>> = {
  random: "random",
  random_int: "randomInt",
  parse_int: "parseInt",
  parse_float: "parseFloat",
  parse_bool: "parseBool",
  clamp: "clamp",
  min: "min",
  max: "max",
  range: "range",
};

/** Builtins whose arguments must be numbers that are never null: no null-safety to fall back on. */
const NOT_NULL: ReadonlySet<BuiltinName> = new Set(["random_int", "clamp", "min", "max", "range"]);

/** Whether `name` takes null arguments (giving null); the number builtins do not. */
export function nullSafe(name: BuiltinName): boolean {
  return !NOT_NULL.has(name);
}

/** What argument `index` of `name` must be, for a builtin typed by its arguments alone. */
export function builtinArgKind(name: BuiltinName, index: number): ArgKind | undefined {
  return BUILTINS[name].args?.[index];
}

/** How a message names argument `index` of `name`: "the argument of `slug`", "argument 2 of `replace`". */
export function argumentName(name: BuiltinName, index: number): string {
  return BUILTINS[name].arity[1] === 1 ? `the argument of \`${name}\`` : `argument ${index + 1} of \`${name}\``;
}

const BOOL = scalar("bool");
const EXPECTED: Record<ArgKind, string> = { text: "a string", int: "an int", number: "a number" };

/** How the type rules report: the analyzer's reporter and its assignability check. */
export interface BuiltinChecks {
  report(d: Diagnostic): void;
  expect(value: IrExpr, type: ValueType, what: string, span: Span): void;
  file(): string;
}

/** The type a call of built-in `name` gives; reports arguments of the wrong type, at the argument. */
export function builtinType(name: BuiltinName, args: IrExpr[], e: CallExpr, c: BuiltinChecks): ValueType {
  const spec = BUILTINS[name].args;
  if (spec) {
    const notNull = NOT_NULL.has(name);
    args.forEach((a, i) => {
      const kind = spec[i];
      if (kind === undefined) return;
      if (!fits(kind, a.type)) {
        c.report(codes.typeMismatch.at(c.file(), e.args[i].span, argumentName(name, i), EXPECTED[kind] + (notNull ? " (not null)" : ""), describe(a.type)));
      } else if (notNull && (a.type.kind === "null" || isNullable(a.type))) {
        c.report(codes.typeMismatch.at(c.file(), e.args[i].span, argumentName(name, i), `${EXPECTED[kind]} (not null)`, describe(a.type)));
      }
    });
    const valueType = numberBuiltinType(name, args);
    if (valueType !== null) return valueType;
    // Null text gives null (false for a test); elsewhere null reads as the empty string (or,
    // for substr's count, as "to the end").
    if (name === "starts_with" || name === "ends_with" || name === "contains") return BOOL;
    const first = args[0];
    return scalar("text", first ? isNullable(first.type) || first.type.kind === "null" : false);
  }
  switch (name) {
    case "now":
      return scalar("timestamp");
    case "job_id":
      return scalar("id");
    case "random":
      return scalar("float");
    case "len":
      return scalar("int");
    case "verify_password":
      if (args[1]) c.expect(args[1], scalar("text", true), "the given password", e.args[1].span);
      return BOOL;
    case "issue_token":
    case "start_session": {
      const [subject, roles] = args;
      if (subject && subject.type.kind !== "unknown" && (!isStringy(subject.type) || isNullable(subject.type))) {
        c.report(codes.typeMismatch.at(c.file(), e.args[0].span, `the subject of \`${name}\``, "text (not null)", describe(subject.type)));
      }
      // null roles are no roles, as when the argument is left out.
      if (roles) c.expect(roles, { kind: "array", item: scalar("text"), nullable: true }, `the roles of \`${name}\``, e.args[1].span);
      return scalar("text");
    }
    case "end_session":
      return BOOL;
    case "revoke": {
      const [subject] = args;
      if (subject && subject.type.kind !== "unknown" && (!isStringy(subject.type) || isNullable(subject.type))) {
        c.report(codes.typeMismatch.at(c.file(), e.args[0].span, "the subject of `revoke`", "text (not null)", describe(subject.type)));
      }
      // How many sessions it ended.
      return scalar("int");
    }
    case "coalesce": {
      const [a, b] = args;
      if (!a || !b) return UNKNOWN;
      return a.type.kind === "null" ? b.type : withNullable(a.type, isNullable(b.type));
    }
    default:
      return UNKNOWN; // unique, sort and join are typed in list-builtins.ts
  }
}

function fits(kind: ArgKind, t: ValueType): boolean {
  if (t.kind === "unknown" || t.kind === "null") return true;
  if (kind === "number") return isNumeric(t);
  return kind === "text" ? isStringy(t) : t.kind === "scalar" && t.type === "int";
}

/** The type of a builtin of runtime/values/ (not `has`); null for the others. */
function numberBuiltinType(name: BuiltinName, args: IrExpr[]): ValueType | null {
  switch (name) {
    case "random":
      return scalar("float");
    case "random_int":
      return scalar("int");
    case "parse_int":
      return scalar("int", true);
    case "parse_float":
      return scalar("float", true);
    case "parse_bool":
      return scalar("bool", true);
    case "range":
      return { kind: "array", item: scalar("int") };
    case "clamp":
    case "min":
    case "max": {
      // Whole numbers in, a whole number out; a float anywhere makes a float.
      const ints = args.every((a) => a.type.kind === "scalar" && a.type.type === "int");
      return scalar(ints ? "int" : "float");
    }
    default:
      return null;
  }
}

/** `auth.claims` itself, whose members are the declared claims. */
export function isClaims(e: IrExpr): boolean {
  return e.kind === "member" && e.property === "claims" && e.object.kind === "caller";
}

export function claimValueType(t: ClaimType): ValueType {
  switch (t) {
    case "list<text>":
      return { kind: "array", item: scalar("text") };
    case "json":
      return UNKNOWN;
    default:
      return scalar(t, true);
  }
}
