// Arguments and record members declared `T??` (docs/language.md §2.3, Absent arguments): absent,
// null or a value. Read as they are (a parameter or member), they stay absent: `has(x)` asks,
// and a field written from one is left alone (update) or given its default (insert). Inside
// any other expression absent reads as null.

import { expressionCodes } from "../../diagnostics/codes/expressions.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { Span } from "../../parse/ast.js";
import type { IrExpr } from "../model/model.js";
import { describe, scalar } from "../shared/types.js";
import { forEachChild } from "../transactions/transaction.js";

/** A `T??` parameter or member read as it is: absent stays absent. */
export function isAbsentRef(e: IrExpr): boolean {
  return (e.kind === "param" || e.kind === "member") && e.absent === true;
}

/** The name of a `T??` value read inside a larger expression (where absent reads as null); null when there is none. */
export function absentInside(e: IrExpr): string | null {
  if (isAbsentRef(e)) return e.kind === "param" ? e.name : e.kind === "member" ? e.property : null;
  // has(x) asks about absence itself: no null is written for it.
  if (e.kind === "builtin" && e.name === "has") return null;
  let found: string | null = null;
  forEachChild(e, (c) => {
    found ??= absentInside(c);
  });
  return found;
}

/** `has(x)`: whether the call gave `x`, which must be an argument or record member declared `T??` (else SVC2123). */
export function hasCall(arg: IrExpr | null, at: { file: string; span: Span }, report: (d: Diagnostic) => void): IrExpr {
  if (arg !== null && !isAbsentRef(arg)) {
    const named = arg.kind === "param" || arg.kind === "local" ? arg.name : arg.kind === "member" ? arg.property : null;
    report(expressionCodes.hasArgument.at(at.file, at.span, named === null ? describe(arg.type) : `\`${named}\` (${describe(arg.type)})`));
  }
  return { kind: "builtin", name: "has", args: arg === null ? [] : [arg], type: scalar("bool") };
}
