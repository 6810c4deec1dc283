// Helpers the generated route-file blocks call (as `rt.app.*`).

import { newArgs } from "../core/query-string.js";
import type { CallInput } from "../contract/index.js";

/** Which arguments of a data step arrived as text: all of them, or those named. */
export interface StepText {
  text: "all" | readonly string[];
}

/**
 * The call input of a data step: absent values (a query-string or body field that was not
 * sent) are left out, so the target's defaults apply and a required one is reported as
 * missing. The target's validator coerces exactly the arguments `text` says arrived as
 * text (runtime/lang/args.ts).
 */
export function callInput(values: Record<string, unknown>, { text }: StepText): CallInput {
  const args = newArgs() as Record<string, unknown>;
  let allText = true;
  for (const name in values) {
    const value = values[name];
    if (value === undefined) continue;
    args[name] = value;
    if (text !== "all" && !text.includes(name)) allText = false;
  }
  if (allText) return { args, text: true };
  return { args, text: false, textArgs: text as readonly string[] };
}

/** `a + b` in a route file: joins text; an absent value or null reads as "". */
export function join(...parts: unknown[]): string {
  let out = "";
  for (const p of parts) {
    if (p === undefined || p === null) continue;
    out += typeof p === "string" ? p : typeof p === "object" ? JSON.stringify(p) : String(p);
  }
  return out;
}
