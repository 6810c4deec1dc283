// JSON from a client, parsed with two extra rules: no key that could reach an object's
// prototype when the value is later merged or copied (`__proto__`, `constructor`,
// `prototype`), and no nesting deeper than MAX_JSON_DEPTH. Both checks are iterative so a
// hostile body cannot blow the stack.

export const MAX_JSON_DEPTH = 64;

const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export type JsonProblemKind = "malformed" | "too-deep" | "forbidden-key";

/** Why client JSON was refused; callers turn it into a 400 with their own wording. */
export class JsonProblem extends Error {
  readonly kind: JsonProblemKind;

  constructor(kind: JsonProblemKind, message: string) {
    super(message);
    this.name = "JsonProblem";
    this.kind = kind;
  }
}

/** Parses client JSON text; throws a JsonProblem when it is malformed, too deep or has a forbidden key. */
export function parseClientJson(text: string): unknown {
  // Scan the text before parsing so absurd nesting costs one pass and no allocation; a text
  // too short to hold that many brackets (most bodies) needs no scan.
  if (text.length > MAX_JSON_DEPTH && nestingExceeds(text, MAX_JSON_DEPTH)) {
    throw new JsonProblem("too-deep", `nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JsonProblem("malformed", "malformed JSON");
  }
  // A forbidden key appears in the text either literally or through a \u escape; when
  // neither is present (almost every body) the walk is skipped.
  if (mayHoldForbiddenKey(text)) {
    const key = findForbiddenKey(value);
    if (key !== null) throw new JsonProblem("forbidden-key", `forbidden key "${key}"`);
  }
  return value;
}

function mayHoldForbiddenKey(text: string): boolean {
  return (
    text.includes("__proto__") || text.includes("constructor") || text.includes("prototype") || text.includes("\\u")
  );
}

const QUOTE = 34; // "
const BACKSLASH = 92; // \
const OPEN_BRACE = 123; // {
const OPEN_BRACKET = 91; // [
const CLOSE_BRACE = 125; // }
const CLOSE_BRACKET = 93; // ]

/** True when `{`/`[` nest deeper than `max` outside string literals. Malformed text is left to JSON.parse. */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** The first forbidden key anywhere in a parsed JSON value, or null. */
export function findForbiddenKey(value: unknown): string | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item !== "object") continue;
    if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
      continue;
    }
    for (const key of Object.keys(item)) {
      if (FORBIDDEN_KEYS.has(key)) return key;
      pending.push((item as Record<string, unknown>)[key]);
    }
  }
  return null;
}
