// application/x-www-form-urlencoded, as used by query strings and HTML form posts
// (WHATWG URL standard, "application/x-www-form-urlencoded parsing"), with stricter
// rules than the standard: every argument is a single value, so a repeated key or a
// PHP-style list key (`a[]`, `a[b]`) is a 400 naming the argument, and a broken
// %-escape is a 400 rather than being passed through.

import { HttpError } from "./errors.js";

const PLUS = 43; // +
const PERCENT = 37; // %

// Hot path: argument records are made per request. `Object.create(null)` gives a
// dictionary-mode object, ~4x slower to fill and read in V8; instances of a constructor
// whose prototype is an empty null-prototype object are fast-mode, and still have no
// Object.prototype in their chain (`__proto__`, `constructor`, `toString` are plain keys).
function ArgsRecord(this: Record<string, string>): void {}
ArgsRecord.prototype = Object.create(null);

/** An empty argument record without Object.prototype in its chain. */
export function newArgs(): Record<string, string> {
  return new (ArgsRecord as unknown as new () => Record<string, string>)();
}

/**
 * Parses `a=1&b=2` (without the leading `?`) into a record of strings without Object.prototype.
 * `where` names the source in error messages: "query string" or "form body".
 */
export function parseUrlEncoded(input: string, where: string): Record<string, string> {
  const out = newArgs();
  let start = 0;
  while (start <= input.length) {
    let end = input.indexOf("&", start);
    if (end === -1) end = input.length;
    if (end > start) addPair(out, input, start, end, where);
    start = end + 1;
  }
  return out;
}

/** Parses a request's query string (the part after `?`). */
export function parseQueryString(query: string): Record<string, string> {
  return parseUrlEncoded(query, "query string");
}

function addPair(out: Record<string, string>, input: string, start: number, end: number, where: string): void {
  const eq = input.indexOf("=", start);
  const hasValue = eq !== -1 && eq < end;
  const key = decodeRange(input, start, hasValue ? eq : end, where);
  const value = hasValue ? decodeRange(input, eq + 1, end, where) : "";
  const bracket = key.indexOf("[");
  if (bracket !== -1) {
    const name = key.slice(0, bracket);
    throw new HttpError(400, `argument "${name}" given as a list or object in the ${where}; pass one value`, { code: "SVC_ERR_BAD_URL" });
  }
  if (key in out) {
    throw new HttpError(400, `argument "${key}" given more than once in the ${where}`, { code: "SVC_ERR_BAD_URL" });
  }
  out[key] = value;
}

/** `input` from `start` to `end`, decoded. Most keys and values need no decoding: one look at each character. */
function decodeRange(input: string, start: number, end: number, where: string): string {
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c === PLUS || c === PERCENT) return decodeComponent(input.slice(start, end), where);
  }
  return input.slice(start, end);
}

function decodeComponent(raw: string, where: string): string {
  const spaced = raw.includes("+") ? raw.replaceAll("+", " ") : raw;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw new HttpError(400, `bad %-escape in the ${where}`, { code: "SVC_ERR_BAD_URL" });
  }
}
