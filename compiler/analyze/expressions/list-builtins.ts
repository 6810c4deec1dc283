import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import type { CallExpr } from "../../parse/ast.js";
import { argumentName } from "./builtins.js";
import type { BuiltinName, IrExpr, ValueType } from "../model/model.js";
import type { ModuleScope } from "./scope.js";
import { UNKNOWN, describe, isStringy, scalar, withNullable } from "../shared/types.js";

// The list builtins (docs/language.md §2.3, Lists): `contains(list, x)`, `unique(list)`,
// `sort(list)`, `join(list, sep)`. Like the other builtins they are null-safe: a null list is empty.
// Their arity is in builtins.ts, with contains(text, part)'s typing.

export type ListBuiltin = Extract<BuiltinName, "contains" | "unique" | "sort" | "join">;

const LIST_BUILTINS: ReadonlySet<string> = new Set<ListBuiltin>(["contains", "unique", "sort", "join"]);

export function isListBuiltin(name: string): name is ListBuiltin {
  return LIST_BUILTINS.has(name);
}

/**
 * The list argument: a json member is checked to be a list (or null) at run time; any
 * other value must be typed a list. Returns the argument and its item type.
 */
export function listArg(name: ListBuiltin, arg: IrExpr, e: CallExpr, m: ModuleScope): { arg: IrExpr; item: ValueType } {
  const t = arg.type;
  if (t.kind === "unknown" && t.from !== undefined) {
    const item: ValueType = { kind: "unknown", from: `${t.from}[]` };
    // contains() of a json member looks into text or a list, whichever the json holds.
    if (name === "contains") return { arg: { kind: "expect", value: arg, as: "sized", orNull: false, path: t.from, type: UNKNOWN }, item };
    return { arg: { kind: "expect", value: arg, as: "list", orNull: true, path: t.from, type: { kind: "array", item, nullable: true } }, item };
  }
  if (t.kind === "array") return { arg, item: t.item };
  if (t.kind !== "unknown" && t.kind !== "null") {
    const expected = name === "contains" ? "text or a list" : "a list";
    m.reporter.add(codes.typeMismatch.at(m.file, e.args[0].span, argumentName(name, 0), expected, describe(t)));
  }
  return { arg, item: UNKNOWN };
}

/** The type of a list builtin's result, after checking its other arguments against the list's items. */
export function listBuiltinType(name: ListBuiltin, item: ValueType, args: IrExpr[], e: CallExpr, m: ModuleScope): ValueType {
  const report = (at: number, what: string, expected: string, found: ValueType) =>
    m.reporter.add(codes.typeMismatch.at(m.file, e.args[at].span, what, expected, describe(found)));
  switch (name) {
    case "contains": {
      const x = args[1];
      const comparable = (a: ValueType, b: ValueType) =>
        a.kind === "unknown" || b.kind === "unknown" || b.kind === "null" || (isStringy(a) && isStringy(b)) || describe(withNullable(a, false)) === describe(withNullable(b, false)) || (a.kind === "scalar" && b.kind === "scalar" && (a.type === "int" || a.type === "float") && (b.type === "int" || b.type === "float"));
      if (x && !comparable(item, x.type)) report(1, "the value `contains` looks for", `comparable with ${describe(item)}`, x.type);
      return scalar("bool");
    }
    case "unique":
      if (item.kind !== "scalar" && item.kind !== "unknown") report(0, "the items of `unique`", "single values (text, numbers, bools)", item);
      return { kind: "array", item };
    // Items of one kind, so the order is the one a reader expects: numbers by value, text by code point.
    case "sort":
      if (item.kind !== "unknown" && !(item.kind === "scalar" && item.type !== "json" && item.type !== "file")) {
        report(0, "the items of `sort`", "single values (numbers, text, timestamps, bools)", item);
      }
      return { kind: "array", item };
    case "join": {
      if (item.kind !== "unknown" && !isStringy(item)) report(0, "the items of `join`", "text", item);
      const sep = args[1];
      if (sep && sep.type.kind !== "unknown" && !isStringy(sep.type)) report(1, "the separator of `join`", "text", sep.type);
      return scalar("text");
    }
  }
}
