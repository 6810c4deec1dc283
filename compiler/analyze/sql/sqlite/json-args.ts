import type { OffsetRange } from "../dialect.js";
import { JSON_FUNCTIONS, jsonValueArgs } from "../portable.js";
import type { CheckContext } from "./context.js";
import { exprType } from "./expr-type.js";

// Booleans handed to JSON functions: `json_object('following', EXISTS (…))` is 1/0 inside
// the JSON on SQLite and MySQL, true/false on PostgreSQL. The checker, which knows the
// types, finds them; portable.ts writes each backend's SQL so all give true/false.

/** Where a JSON function takes a bool value, as offsets in the body's text. */
export function jsonBoolArgs(ctx: CheckContext): OffsetRange[] {
  const { tokens } = ctx;
  const out: OffsetRange[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== "word" || tokens[i + 1].text !== "(" || tokens[i - 1]?.text === ".") continue;
    const family = JSON_FUNCTIONS.get(t.value.toLowerCase());
    if (!family) continue;
    for (const [from, to] of jsonValueArgs(tokens, i + 1, family)) {
      if (exprType(ctx, tokens.slice(from, to))?.type === "bool") out.push({ start: tokens[from].start, end: tokens[to - 1].end });
    }
  }
  return out;
}
