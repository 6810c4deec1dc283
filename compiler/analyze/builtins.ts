// The built-in functions of actions (docs/language.md §2.3, docs/language.md "Identity"): their
// arity, and the type each gives from its arguments' types.

import { analyzeCodes as codes } from "../diagnostics/codes/analyze.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { CallExpr, Span } from "../parse/ast.js";
import { LIST_BUILTINS } from "./list-builtins.js";
import type { BuiltinName, ClaimType, IrExpr, ValueType } from "./model.js";
import { UNKNOWN, describe, isNullable, isStringy, scalar, withNullable } from "./shared/types.js";

export const BUILTINS: Record<BuiltinName, { arity: [number, number] }> = {
  now: { arity: [0, 0] },
  trim: { arity: [1, 1] },
  lower: { arity: [1, 1] },
  upper: { arity: [1, 1] },
  len: { arity: [1, 1] },
  coalesce: { arity: [2, 2] },
  verify_password: { arity: [2, 2] },
  issue_token: { arity: [1, 2] },
  start_session: { arity: [1, 2] },
  end_session: { arity: [0, 0] },
  ...LIST_BUILTINS,
};

/** Built-ins that need the call's context (the caller, the response's cookies). */
export const CONTEXT_BUILTINS: ReadonlySet<BuiltinName> = new Set(["issue_token", "start_session", "end_session"]);

const BOOL = scalar("bool");

/** How the type rules report: the analyzer's reporter and its assignability check. */
export interface BuiltinChecks {
  report(d: Diagnostic): void;
  expect(value: IrExpr, type: ValueType, what: string, span: Span): void;
  file(): string;
}

/** The type a call of built-in `name` gives; reports arguments of the wrong type. */
export function builtinType(name: BuiltinName, args: IrExpr[], e: CallExpr, c: BuiltinChecks): ValueType {
  switch (name) {
    case "now":
      return scalar("timestamp");
    case "trim":
    case "lower":
    case "upper": {
      const a = args[0];
      if (a && a.type.kind !== "unknown" && a.type.kind !== "null" && !isStringy(a.type)) {
        c.report(codes.typeMismatch.at(c.file(), e.args[0].span, `the argument of \`${name}\``, "a string", describe(a.type)));
      }
      return scalar("text", a ? isNullable(a.type) : false);
    }
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
      if (roles) c.expect(roles, { kind: "array", item: scalar("text") }, `the roles of \`${name}\``, e.args[1].span);
      return scalar("text");
    }
    case "end_session":
      return BOOL;
    case "coalesce": {
      const [a, b] = args;
      if (!a || !b) return UNKNOWN;
      return a.type.kind === "null" ? b.type : withNullable(a.type, isNullable(b.type));
    }
    default:
      return UNKNOWN; // the list builtins are typed in list-builtins.ts
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
