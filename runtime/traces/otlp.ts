// Spans as an OTLP ExportTraceServiceRequest in protobuf (opentelemetry-proto, trace/v1), the
// encoding OTLP/HTTP sends by default. Written straight into one growing buffer: the attributes
// an endpoint or statement shares are encoded once and copied after, the rest as they come.
// The official transformer builds an object per span and per attribute and serializes those,
// which cost more than answering the request did.

import { performance } from "node:perf_hooks";
import type { Attributes, AttributeValue, RecordedSpan, SpanLink } from "./span.js";

/** Read once: `performance` as a global is a getter, costlier on every span than the rest of `time`. */
const TIME_ORIGIN = performance.timeOrigin;

const LEN = 2;
const I64 = 1;
const VARINT = 0;

/** A lowercase or uppercase hex digit's value (ids are checked hex before they get here). */
function nibble(c: number): number {
  return c <= 57 ? c - 48 : (c | 32) - 87;
}

/** Field `field`: nanoseconds since the epoch of a monotonic-clock reading, exactly, as a fixed64 (9 bytes); the position after. */
function putTime(b: Buffer, dv: DataView, p: number, field: number, ms: number): number {
  const epochMs = TIME_ORIGIN + ms;
  let whole = Math.floor(epochMs);
  let frac = Math.round((epochMs - whole) * 1e6);
  if (frac === 1e6) {
    whole += 1;
    frac = 0;
  }
  // whole × 10^6 + frac exceeds 2^53: split whole so each product stays exact.
  const high = Math.floor(whole / 1048576);
  const x = (whole % 1048576) * 1e6 + frac;
  const y = high * 1e6;
  let lo = (y % 4096) * 1048576 + (x % 4294967296);
  const carry = Math.floor(lo / 4294967296);
  lo %= 4294967296;
  const hi = Math.floor(y / 4096) + Math.floor(x / 4294967296) + carry;
  b[p] = (field << 3) | I64;
  dv.setUint32(p + 1, lo, true);
  dv.setUint32(p + 5, hi, true);
  return p + 9;
}

function viewOf(b: Buffer): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * A growable buffer with protobuf's few wire types. `dv` views the same bytes: its 32-bit
 * writes are compiled inline, where a function writing four bytes was a call each time.
 */
class Writer {
  buf = Buffer.allocUnsafe(64 * 1024);
  dv = viewOf(this.buf);
  pos = 0;

  room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
    this.dv = viewOf(grown);
  }

  tag(field: number, wire: number): void {
    this.room(3);
    // Every field number here is below 16, except Span.flags (unused): one byte.
    this.buf[this.pos++] = (field << 3) | wire;
  }

  varint(n: number): void {
    this.room(10);
    const b = this.buf;
    let p = this.pos;
    while (n > 127) {
      b[p++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    b[p++] = n;
    this.pos = p;
  }

  /** A negative int64: two's complement, ten bytes (rare enough for BigInt). */
  negative(n: number): void {
    this.room(10);
    let v = BigInt.asUintN(64, BigInt(n));
    while (v > 127n) {
      this.buf[this.pos++] = Number(v & 127n) | 128;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  string(field: number, s: string): void {
    this.tag(field, LEN);
    // Up to 42 UTF-16 units are at most 126 UTF-8 bytes: the length fits one byte, known after writing.
    if (s.length < 43) {
      this.room(1 + s.length * 3);
      const at = this.pos++;
      const n = this.ascii(s);
      this.buf[at] = n;
      this.pos += n;
      return;
    }
    const n = Buffer.byteLength(s);
    this.varint(n);
    this.room(n);
    this.pos += this.buf.write(s, this.pos, "utf8");
  }

  /**
   * Writes a short string at pos, byte by byte while it is ASCII (names, keys, paths), with
   * Buffer's UTF-8 writer otherwise; the bytes written. A call into Buffer costs more than
   * the loop does for a string this short.
   */
  private ascii(s: string): number {
    const b = this.buf;
    const p = this.pos;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c > 127) return b.write(s, p, "utf8");
      b[p + i] = c;
    }
    return s.length;
  }

  /** An id: its hex as bytes. */
  hexBytes(field: number, hex: string): void {
    this.tag(field, LEN);
    const n = hex.length >> 1;
    this.room(1 + n);
    const b = this.buf;
    let p = this.pos;
    b[p++] = n;
    for (let i = 0; i < hex.length; i += 2) b[p++] = (nibble(hex.charCodeAt(i)) << 4) | nibble(hex.charCodeAt(i + 1));
    this.pos = p;
  }

  /** Starts a nested message; `close` writes its length. One byte is kept for it, moved when more are needed. */
  open(field: number): number {
    this.tag(field, LEN);
    this.room(1);
    return this.pos++;
  }

  close(at: number): void {
    const length = this.pos - at - 1;
    if (length < 128) {
      this.buf[at] = length;
      return;
    }
    let size = 1;
    for (let n = length; n > 127; n = Math.floor(n / 128)) size++;
    this.room(size - 1);
    this.buf.copyWithin(at + size, at + 1, this.pos);
    const end = this.pos + size - 1;
    this.pos = at;
    this.varint(length);
    this.pos = end;
  }

  // `set` even for a few bytes: a loop of byte stores measured slower, per byte, than its call.
  bytes(src: Uint8Array): void {
    this.room(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }
}

/**
 * Strings svc writes again and again, encoded once: attribute keys, span names (a route's, an
 * endpoint's, a statement's) and route templates, each as its field's tag, length and bytes.
 * They are names in the project and in svc's code, a bounded set; the cache is bounded all the
 * same. Copying bytes costs a fraction of encoding the characters again for every span.
 */
const ENCODED = new Map<string, Uint8Array>();
const ENCODED_LIMIT = 4096;

/** `s` as field `field` of the message being written (1 or 5 here: a key's or a name's). */
function known(w: Writer, field: number, s: string): void {
  const bytes = ENCODED.get(s);
  if (bytes !== undefined && bytes[0] === ((field << 3) | LEN)) {
    w.bytes(bytes);
    return;
  }
  const start = w.pos;
  w.string(field, s);
  if (ENCODED.size < ENCODED_LIMIT) ENCODED.set(s, new Uint8Array(w.buf.subarray(start, w.pos)));
}

/** Attribute values that are names, not data: their encodings are kept like the names' (known). */
const NAME_VALUED = new Set(["http.route"]);

function keyValue(w: Writer, field: number, name: string, value: AttributeValue): void {
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

/**
 * Encodes spans for one resource and scope, each as it ends (`add`), so that an ended span is
 * bytes at once and no span object outlives its request waiting for the export: kept alive in a
 * queue, spans survived young-generation collections and cost as much again as encoding them.
 * `take` wraps what was added in one request.
 */
export class OtlpEncoder {
  /** Each shared attributes object's KeyValues, tagged as a span's field 9. */
  private readonly shared = new WeakMap<Attributes, Buffer>();
  /** The spans added since the last `take`, as ScopeSpans' field 2 each. */
  private readonly w = new Writer();
  private readonly out = new Writer();
  private readonly resource: Buffer;
  private readonly scope: Buffer;

  constructor(resource: Attributes, scope: { name: string; version: string }) {
    this.resource = this.fragment((w) => {
      for (const key in resource) keyValue(w, 1, key, resource[key]!);
    });
    this.scope = this.fragment((w) => {
      w.string(1, scope.name);
      w.string(2, scope.version);
    });
  }

  /** Encodes an ended, sampled span into the request being gathered. */
  add(span: RecordedSpan): void {
    this.span(span);
  }

  /** An ExportTraceServiceRequest of the spans added since the last call. */
  take(): Uint8Array {
    const out = this.out;
    out.pos = 0;
    const resourceSpans = out.open(1);
    const resource = out.open(1);
    out.bytes(this.resource);
    out.close(resource);
    const scopeSpans = out.open(2);
    const scope = out.open(1);
    out.bytes(this.scope);
    out.close(scope);
    out.bytes(this.w.buf.subarray(0, this.w.pos));
    this.w.pos = 0;
    out.close(scopeSpans);
    out.close(resourceSpans);
    return Buffer.from(out.buf.subarray(0, out.pos));
  }

  /** `spans` as one request. */
  encode(spans: readonly RecordedSpan[]): Uint8Array {
    for (const span of spans) this.add(span);
    return this.take();
  }

  /**
   * The fixed-size fields are written in stretches on a local buffer and position, each after
   * one `room`: as calls to the writer's methods, too many to be inlined, they cost more
   * than the rest of the span.
   */
  private span(s: RecordedSpan): void {
    const w = this.w;
    const at = w.open(2);
    // The ids: their 32-bit words big-endian, as their hex reads (span.ts).
    w.room(28);
    let b = w.buf;
    let dv = w.dv;
    let p = w.pos;
    b[p] = (1 << 3) | LEN;
    b[p + 1] = 16;
    dv.setUint32(p + 2, s.t0);
    dv.setUint32(p + 6, s.t1);
    dv.setUint32(p + 10, s.t2);
    dv.setUint32(p + 14, s.t3);
    b[p + 18] = (2 << 3) | LEN;
    b[p + 19] = 8;
    dv.setUint32(p + 20, s.s0);
    dv.setUint32(p + 24, s.s1);
    w.pos = p + 28;
    const state = s.traceState?.serialize();
    if (state) w.string(3, state);
    if (s.hasParent) {
      w.room(10);
      b = w.buf;
      dv = w.dv;
      p = w.pos;
      b[p] = (4 << 3) | LEN;
      b[p + 1] = 8;
      dv.setUint32(p + 2, s.p0);
      dv.setUint32(p + 6, s.p1);
      w.pos = p + 10;
    }
    known(w, 5, s.name);
    // Kind (a one-byte varint) and the start and end times.
    w.room(20);
    b = w.buf;
    dv = w.dv;
    p = w.pos;
    b[p] = (6 << 3) | VARINT;
    b[p + 1] = s.kind + 1;
    p = putTime(b, dv, p + 2, 7, s.startMs);
    w.pos = putTime(b, dv, p, 8, s.endMs);
    w.bytes(this.sharedOf(s.attributes));
    const later = s.later;
    if (later !== null) for (let i = 0; i < later.length; i += 2) keyValue(w, 9, later[i] as string, later[i + 1]!);
    for (const link of s.links) this.link(link);
    // Always present, code 0 included, as the official encoder writes it.
    if (s.statusMessage === undefined) {
      // Status { code }: four bytes (the code is 0, 1 or 2).
      w.room(4);
      b = w.buf;
      p = w.pos;
      b[p] = (15 << 3) | LEN;
      b[p + 1] = 2;
      b[p + 2] = (3 << 3) | VARINT;
      b[p + 3] = s.statusCode;
      w.pos = p + 4;
    } else {
      const status = w.open(15);
      w.string(2, s.statusMessage);
      w.tag(3, VARINT);
      w.varint(s.statusCode);
      w.close(status);
    }
    w.close(at);
  }

  private link(link: SpanLink): void {
    const w = this.w;
    const at = w.open(13);
    w.hexBytes(1, link.traceId);
    w.hexBytes(2, link.spanId);
    const state = link.traceState?.serialize();
    if (state) w.string(3, state);
    w.close(at);
  }

  private sharedOf(attributes: Attributes): Buffer {
    let out = this.shared.get(attributes);
    if (out === undefined) {
      out = this.fragment((w) => {
        for (const key in attributes) keyValue(w, 9, key, attributes[key]!);
      });
      this.shared.set(attributes, out);
    }
    return out;
  }

  /** What `write` writes, on a writer of its own, as bytes to copy. */
  private fragment(write: (w: Writer) => void): Buffer {
    const w = new Writer();
    write(w);
    return Buffer.from(w.buf.subarray(0, w.pos));
  }
}
