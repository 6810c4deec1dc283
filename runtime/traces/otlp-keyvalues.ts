// OTLP's KeyValues (opentelemetry-proto, common/v1) as the span encoder writes them (otlp.ts),
// with the encodings of what repeats from span to span kept and copied: attribute keys, span
// names and route templates, and the later attributes whose values repeat.

import { I64, LEN, VARINT, Writer } from "./protobuf.js";
import type { AttributeValue } from "./span.js";

/**
 * Strings svc writes again and again, encoded once: attribute keys, span names (a route's, an
 * endpoint's, a statement's) and route templates, each as its field's tag, length and bytes.
 * They are names in the project and in svc's code, a bounded set; the cache is bounded all the
 * same. Copying bytes costs a fraction of encoding the characters again for every span.
 */
const ENCODED = new Map<string, Uint8Array>();
export const ENCODED_LIMIT = 4096;

/** `s` as field `field` of the message being written (1 or 5 here: a key's or a name's). */
export function known(w: Writer, field: number, s: string): void {
  const bytes = ENCODED.get(s);
  if (bytes !== undefined && bytes[0] === ((field << 3) | LEN)) {
    w.bytes(bytes);
    return;
  }
  const start = w.pos;
  w.string(field, s);
  if (ENCODED.size < ENCODED_LIMIT) ENCODED.set(s, new Uint8Array(w.buf.subarray(start, w.pos)));
}

/**
 * Paths the server answers at a template made at start (its routes' and /health): their
 * encodings join the names', so that a request's `url.path` equal to one is copied whole
 * (REPEATED), from the first request on.
 */
export function knownPaths(paths: readonly string[]): void {
  const w = new Writer();
  for (const path of paths) {
    if (ENCODED.size >= ENCODED_LIMIT) return;
    w.pos = 0;
    w.string(1, path);
    ENCODED.set(path, new Uint8Array(w.buf.subarray(0, w.pos)));
  }
}

/** Attribute values that are names, not data: their encodings are kept like the names' (known). */
const NAME_VALUED = new Set(["http.route"]);

/**
 * Whole KeyValues (a span's field 9) of attributes set after a span's start whose values
 * repeat, by key and value: a request's status code, its client's address (a connection's
 * requests share it), its path when that is its route's template (one of the names known
 * already; a path with parameters is data, never kept). One copy instead of a key, a value and
 * two lengths. Each key's values are bounded: emptied when full.
 */
const REPEATED = new Map<string, Map<AttributeValue, Uint8Array>>([
  ["http.response.status_code", new Map()],
  ["client.address", new Map()],
  ["url.path", new Map()],
]);
const REPEATED_LIMIT = 1024;

/** A later attribute of a span (field 9), copied whole when its key and value were written before (REPEATED). */
function laterKeyValue(w: Writer, key: string, value: AttributeValue): void {
  const values = REPEATED.get(key);
  if (values === undefined) return keyValue(w, 9, key, value);
  const bytes = values.get(value);
  if (bytes !== undefined) return w.bytes(bytes);
  const start = w.pos;
  keyValue(w, 9, key, value);
  if (key === "url.path" && !ENCODED.has(value as string)) return;
  if (values.size >= REPEATED_LIMIT) values.clear();
  values.set(value, new Uint8Array(w.buf.subarray(start, w.pos)));
}

/** Later attributes (key, value, key, value…) as a span's field 9 each. */
export function laterKeyValues(w: Writer, later: readonly (string | AttributeValue)[]): void {
  for (let i = 0; i < later.length; i += 2) laterKeyValue(w, later[i] as string, later[i + 1]!);
}

export function keyValue(w: Writer, field: number, name: string, value: AttributeValue): void {
  const kv = w.open(field);
  known(w, 1, name);
  const any = w.open(2);
  if (typeof value === "string") {
    if (NAME_VALUED.has(name)) known(w, 1, value);
    else w.string(1, value);
  }
  else if (typeof value === "boolean") {
    w.tag(2, VARINT);
    w.varint(value ? 1 : 0);
  } else if (Number.isSafeInteger(value)) {
    w.tag(3, VARINT);
    if (value >= 0) w.varint(value);
    else w.negative(value);
  } else {
    w.tag(4, I64);
    w.room(8);
    w.buf.writeDoubleLE(value, w.pos);
    w.pos += 8;
  }
  w.close(any);
  w.close(kv);
}
