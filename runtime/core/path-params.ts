// A declared route's path parameters join the arguments under their names, as text. When
// the body or query string also holds that name, it must carry the same value (compared as
// text); a different value is a 400, because letting either silently win would run the
// endpoint on an argument the caller did not mean.

import { HttpError } from "./errors.js";
import type { CallInput } from "../contract/index.js";

/**
 * Path parameters join the arguments as text. The same name from the body or query
 * string must hold the same value, compared as text (a JSON 5 equals the path's "5").
 */
export function mergePathParams(input: CallInput, params: Record<string, string>): void {
  const names: string[] = [];
  for (const name in params) {
    const value = params[name];
    const existing = input.args[name];
    if (existing !== undefined && !sameAsText(existing, value)) {
      throw new HttpError(
        400,
        `argument "${name}" is "${value}" in the path but differs in the ${input.text ? "query string or form" : "body"}`, { code: "SVC_ERR_BAD_URL" },
      );
    }
    input.args[name] = value;
    names.push(name);
  }
  if (!input.text) input.textArgs = names;
}

function sameAsText(existing: unknown, value: string): boolean {
  if (typeof existing === "string") return existing === value;
  if (typeof existing === "number" || typeof existing === "boolean") return String(existing) === value;
  return false;
}
