// The JSON text of a query's answer, written by a function the compiler generates for its
// row type (compiler/generate/sections/answers.ts), with the text JSON.stringify gives.
// JSON.stringify (V8 11, Node 20) looks at every character of every string on its own, some
// 25 instructions a character, so a row with a paragraph of text cost more to write than to
// read from SQLite; here a string that needs no escaping is found by one regular expression,
// which scans it in native code, and is quoted as it is.
//
// The same scan tells whether the string is ASCII, and so whether the answer's size in UTF-8
// is its length: when every value of an answer was, `jsonTextBytes` gives the size without
// Buffer.byteLength, which flattens the answer's text and then reads it again, only for the
// writer to flatten it once more with the head in front.

import type { ServerResponse } from "node:http";
import { sendData } from "./envelope.js";
import type { Awaitable, CallInput, Database, EndpointSpec } from "../../contract/index.js";

/**
 * Anything but printable ASCII or with `"` or `\`: a string without any is written between
 * quotes as it is, one byte a character. The rest (escapes, and text beyond ASCII, which
 * JSON.stringify writes as it is) goes through JSON.stringify.
 */
const NOT_PLAIN = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/** False once a value written since the last `jsonTextBytes` may hold text beyond ASCII. */
let ascii = true;

/** Sends `text`, an answer the generated functions just wrote, in the envelope, its size known from them. */
export function sendGeneratedJson(res: ServerResponse, text: string): void {
  sendData(res, text, 200, jsonTextBytes(text));
}

/**
 * A query endpoint's answer written by the database (`Database.json`, SQLite's json_object),
 * by the generated function its `answer` names: undefined leaves it to `run` and `json`.
 */
export function databaseJson(db: Database, endpoint: EndpointSpec, input: CallInput): Awaitable<string> | undefined {
  return endpoint.answer?.(db, input);
}

/** Sends `text`, an answer the database wrote, in the envelope: it may hold text beyond ASCII, so its size is counted. */
export function sendDatabaseJson(res: ServerResponse, text: string): void {
  sendData(res, text, 200, Buffer.byteLength(text));
}

/** `v` as JSON.stringify writes it, undefined (which it leaves out of an object) as null. */
export function jsonValue(v: unknown): string {
  if (typeof v === "string") {
    if (!NOT_PLAIN.test(v)) return `"${v}"`;
    ascii = false;
    return JSON.stringify(v);
  }
  if (v === null) return "null";
  // Numbers and booleans are ASCII; anything else (a json column's value) may not be.
  if (typeof v !== "number" && typeof v !== "boolean") ascii = false;
  return JSON.stringify(v) ?? "null";
}

/**
 * The size in UTF-8 of `text`, an answer the generated functions just wrote (their keys are
 * ASCII): its length when every value written since the last call was ASCII, else counted.
 * A text written without being measured leaves at most a count that was not needed.
 */
export function jsonTextBytes(text: string): number {
  const bytes = ascii ? text.length : Buffer.byteLength(text);
  ascii = true;
  return bytes;
}

/** The rows of a query, `row` writing each: `[…]`, made flat by `join`, as the envelope's writer wants it. */
export function jsonRows<T>(rows: unknown, row: (r: T) => string): string {
  return `[${(rows as readonly T[]).map(row).join(",")}]`;
}

/** The row of a `one` query, or null. */
export function jsonRowOrNull<T>(found: unknown, row: (r: T) => string): string {
  return found === null || found === undefined ? "null" : row(found as T);
}
