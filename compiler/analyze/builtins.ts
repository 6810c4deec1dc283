import { analyzeCodes as codes } from "../diagnostics/codes/analyze.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { CallExpr } from "../parse/ast.js";
import type { BuiltinName, IrExpr, ValueType } from "./model.js";
import { UNKNOWN, describe, isNullable, isStringy, scalar, withNullable } from "./shared/types.js";

// The built-in functions of actions: how many arguments each takes, what each argument
// must be, and the type of the result. The generated code calls runtime/builtins.ts.

/** What an argument must be: a string (`text`), an int, or a list. */
type ArgKind = "text" | "int" | "list";

interface Builtin {
  /** One kind per position; the positions past `required` may be left out. */
  args: ArgKind[];
  required: number;
}

export const BUILTINS: Record<BuiltinName, Builtin | null> = {
  // `now` and `coalesce` have their own rules (see builtinType).
  now: null,
  coalesce: null,
  trim: { args: ["text"], required: 1 },
  lower: { args: ["text"], required: 1 },
  upper: { args: ["text"], required: 1 },
  len: null,
  slug: { args: ["text"], required: 1 },
  replace: { args: ["text", "text", "text"], required: 3 },
  starts_with: { args: ["text", "text"], required: 2 },
  ends_with: { args: ["text", "text"], required: 2 },
  contains: { args: ["text", "text"], required: 2 },
  substr: { args: ["text", "int", "int"], required: 2 },
  join: { args: ["list", "text"], required: 2 },
};

/** How many arguments each builtin takes: [min, max]. */
export function arity(name: BuiltinName): [number, number] {
  if (name === "now") return [0, 0];
  if (name === "coalesce") return [2, 2];
  if (name === "len") return [1, 1];
  const b = BUILTINS[name]!;
  return [b.required, b.args.length];
}

/** The runtime function a builtin calls, where its name is not the JavaScript one. */
export const RUNTIME_NAMES: Partial<Record<BuiltinName, string>> = { starts_with: "startsWith", ends_with: "endsWith" };

/** Checks the arguments (a diagnostic per misfit, at the argument) and types the result. */
export function builtinType(name: BuiltinName, args: IrExpr[], e: CallExpr, file: string, report: (d: Diagnostic) => void): ValueType {
  switch (name) {
    case "now":
      return scalar("timestamp");
    case "len":
      return scalar("int");
    case "coalesce": {
      const [a, b] = args;
      if (!a || !b) return UNKNOWN;
      return a.type.kind === "null" ? b.type : withNullable(a.type, isNullable(b.type));
    }
  }
  const spec = BUILTINS[name]!;
  args.forEach((a, i) => {
    const kind = spec.args[i];
    if (kind === undefined || fits(kind, a.type)) return;
    const what = spec.args.length === 1 ? `the argument of \`${name}\`` : `argument ${i + 1} of \`${name}\``;
    report(codes.typeMismatch.at(file, e.args[i].span, what, EXPECTED[kind], describe(a.type)));
  });
  // Null in the first argument gives null (or false for a test); elsewhere null reads as
  // the empty string (or, for substr's count, as "to the end").
  const first = args[0] ? isNullable(args[0].type) || args[0].type.kind === "null" : false;
  switch (name) {
    case "starts_with":
    case "ends_with":
    case "contains":
      return scalar("bool");
    default:
      return scalar("text", first);
  }
}

const EXPECTED: Record<ArgKind, string> = { text: "a string", int: "an int", list: "a list" };

function fits(kind: ArgKind, t: ValueType): boolean {
  if (t.kind === "unknown" || t.kind === "null") return true;
  switch (kind) {
    case "text":
      return isStringy(t);
    case "int":
      return t.kind === "scalar" && t.type === "int";
    case "list":
      // A json value is checked to be a list when the action runs.
      if (t.kind === "scalar") return t.type === "json";
      return t.kind === "array" && (t.item.kind === "unknown" || (t.item.kind === "scalar" && t.item.type !== "json"));
  }
}
