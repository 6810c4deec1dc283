// The head of a JSON answer handed to Node as its own header store holds it, so that Node
// writes it without checking it again.
//
// Node checks every header name and value given to writeHead with a regular expression, two a
// header: some 3,000 instructions of a /health answer, a twentieth of all it costs. A JSON
// answer's headers are svc's own: fixed names, a media type, a number, and a request id that
// requestIdFrom (log.ts) let through only as `[A-Za-z0-9._-]{1,128}` or made itself. What
// setHeader stores Node keeps as `{ lowercase name: [name, value] }` under a symbol of its own
// (`kOutHeaders`, lib/internal/http.js), and writeHead called with no headers writes that store
// as it is, its entries taken for checked. So the store is filled here, in one step, and
// writeHead is called with none. Where this Node keeps no such store (the symbol not found,
// or not null on a fresh message) or a header was set before, the caller takes the checked way.

import { OutgoingMessage, ServerResponse } from "node:http";

export const JSON_TYPE = "application/json; charset=utf-8";
export const REQUEST_ID_HEADER = "X-Request-Id";

/** The symbol of Node's header store, found by its name on a fresh message; null when not there as expected. */
export const trustedHeadersKey: symbol | null = findHeaderStore();

function findHeaderStore(): symbol | null {
  const probe = new OutgoingMessage();
  const key = Object.getOwnPropertySymbols(probe).find((symbol) => symbol.description === "kOutHeaders");
  return key !== undefined && (probe as unknown as Record<symbol, unknown>)[key] === null ? key : null;
}

const CONTENT_TYPE_ENTRY = ["Content-Type", JSON_TYPE] as const;

/** A JSON answer's headers as the store holds them; every answer the same shape. */
class JsonHeaders {
  "content-type" = CONTENT_TYPE_ENTRY;
  "content-length": readonly [string, number];
  "x-request-id": readonly [string, string];

  constructor(length: number, id: string) {
    this["content-length"] = ["Content-Length", length];
    this["x-request-id"] = [REQUEST_ID_HEADER, id];
  }
}

export const NO_STORE_ENTRY = ["Cache-Control", "no-store"] as const;

/**
 * The same with `Cache-Control: no-store` (/health's answer), a class of its own: the header
 * added to a JsonHeaders afterwards, by a computed name, was a megamorphic store (some 200
 * instructions a /health request), and a subclass's constructor was not inlined (another 300).
 */
class NoStoreJsonHeaders {
  "content-type" = CONTENT_TYPE_ENTRY;
  "content-length": readonly [string, number];
  "x-request-id": readonly [string, string];
  "cache-control" = NO_STORE_ENTRY;

  constructor(length: number, id: string) {
    this["content-length"] = ["Content-Length", length];
    this["x-request-id"] = [REQUEST_ID_HEADER, id];
  }
}

const writeHeadOf = ServerResponse.prototype.writeHead as (this: ServerResponse, status: number) => ServerResponse;

/**
 * Writes the head of a JSON answer of `length` bytes with request id `id` (one requestIdFrom
 * returned), and `Cache-Control: no-store` when `noStore`, and returns true; or writes nothing
 * and returns false, when this Node keeps no header store as expected or a header was set before.
 */
export function writeTrustedJsonHead(res: ServerResponse, status: number, length: number, id: string, noStore: boolean): boolean {
  if (trustedHeadersKey === null) return false;
  const store = res as unknown as Record<symbol, object | null>;
  if (store[trustedHeadersKey] !== null) return false;
  store[trustedHeadersKey] = noStore ? new NoStoreJsonHeaders(length, id) : new JsonHeaders(length, id);
  // Node's own writeHead, past Answer's (which adds the id, here already in the store).
  writeHeadOf.call(res, status);
  return true;
}
