// What makes two requests "the same request" for one idempotency key: the method, the
// path and the arguments, with object keys sorted so that a client that re-serializes
// its body in another key order still sends the same request. Values are compared as
// they arrived (a JSON 5 and a form's "5" differ), because a retry is sent as it was.
// The text is never stored: keyed.ts turns it into HMACs under the client's key.

/** The method, the path and each part, canonicalized, one per line (JSON escapes its own newlines). */
export function requestText(method: string, path: string, ...parts: unknown[]): string {
  let text = `${method}\n${path}`;
  for (const part of parts) text += `\n${canonicalJson(part)}`;
  return text;
}

/** JSON with every object's keys sorted; request values are at most 64 levels deep (safe-json.ts). */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
}
