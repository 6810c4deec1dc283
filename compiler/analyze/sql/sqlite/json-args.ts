import type { JsonValueFix } from "../dialect.js";
import { JSON_FUNCTIONS, jsonValueArgs } from "../portable.js";
import type { CheckContext } from "./context.js";
import { exprType } from "./expr-type.js";

// Values handed to JSON functions that the databases write differently inside JSON:
// `json_object('following', EXISTS (…))` is 1/0 on SQLite and MySQL, true/false on
// PostgreSQL; a timestamp is each one's own text. The checker, which knows the types, finds
// them; portable.ts writes each backend's SQL so that all give svc's JSON.

/** Where a JSON function takes a bool or timestamp value, as offsets in the body's text. */
export function jsonValueFixes(ctx: CheckContext): JsonValueFix[] {
  const { tokens } = ctx;
  const out: JsonValueFix[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== "word" || tokens[i + 1].text !== "(" || tokens[i - 1]?.text === ".") continue;
    const family = JSON_FUNCTIONS.get(t.value.toLowerCase());
    if (!family) continue;
    for (const [from, to] of jsonValueArgs(tokens, i + 1, family)) {
      const type = exprType(ctx, tokens.slice(from, to))?.type;
      if (type === "bool" || type === "timestamp") out.push({ start: tokens[from].start, end: tokens[to - 1].end, type });
    }
  }
  return out;
}
