// Protobuf's few wire types as OTLP's encoder (otlp.ts) writes them: a growable buffer of its
// own, varints, fixed64 times, strings, and nested messages whose length is written once known.

import { performance } from "node:perf_hooks";

/** Read once: `performance` as a global is a getter, costlier on every span than the rest of `time`. */
const TIME_ORIGIN = performance.timeOrigin;

export const LEN = 2;
export const I64 = 1;
export const VARINT = 0;

/** A lowercase or uppercase hex digit's value (ids are checked hex before they get here). */
function nibble(c: number): number {
  return c <= 57 ? c - 48 : (c | 32) - 87;
}

/**
 * The time origin in nanoseconds since the epoch, as two 32-bit words, worked out exactly once:
 * each span's times are then the origin plus a reading, added word by word (putTimes).
 */
const ORIGIN_NS = BigInt(Math.floor(TIME_ORIGIN)) * 1_000_000n + BigInt(Math.round((TIME_ORIGIN - Math.floor(TIME_ORIGIN)) * 1e6));
const ORIGIN_HI = Number(ORIGIN_NS >> 32n);
const ORIGIN_LO = Number(ORIGIN_NS & 0xffffffffn);

/**
 * A span's start and end (fields 7 and 8): nanoseconds since the epoch of two monotonic-clock
 * readings, as fixed64s (18 bytes); the position after. One function for both: called once,
 * where a call for each cost a span more than the arithmetic did.
 */
export function putTimes(b: Buffer, dv: DataView, p: number, startMs: number, endMs: number): number {
  putNanos(dv, p + 1, startMs);
  putNanos(dv, p + 10, endMs);
  b[p] = (7 << 3) | I64;
  b[p + 9] = (8 << 3) | I64;
  return p + 18;
}

/** The origin plus `ms` in nanoseconds, as a fixed64 at `p`. */
function putNanos(dv: DataView, p: number, ms: number): void {
  // Nanoseconds since the origin: exact below 2^53, 104 days of uptime; past that, off by less than a microsecond.
  const ns = Math.round(ms * 1e6);
  // Division and floor, not %: a double's remainder is a call into C.
  const nsHi = Math.floor(ns / 4294967296);
  let lo = ORIGIN_LO + (ns - nsHi * 4294967296);
  let hi = ORIGIN_HI + nsHi;
  if (lo >= 4294967296) {
    lo -= 4294967296;
    hi += 1;
  } else if (lo < 0) {
    lo += 4294967296;
    hi -= 1;
  }
  dv.setUint32(p, lo, true);
  dv.setUint32(p + 4, hi, true);
}

export function varintSize(n: number): number {
  let size = 1;
  for (; n > 127; n = Math.floor(n / 128)) size++;
  return size;
}

/** `n` as a varint at `p`; the position after. */
export function putVarint(b: Uint8Array, p: number, n: number): number {
  while (n > 127) {
    b[p++] = (n % 128) | 128;
    n = Math.floor(n / 128);
  }
  b[p] = n;
  return p + 1;
}

function viewOf(b: Buffer): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * A growable buffer with protobuf's few wire types. `dv` views the same bytes: its 32-bit
 * writes are compiled inline, where a function writing four bytes was a call each time.
 */
export class Writer {
  buf: Buffer;
  dv: DataView;
  pos: number;

  /** `head`: bytes kept free at the start, for what is written before the rest once its length is known. */
  constructor(
    private readonly head = 0,
    size = 64 * 1024,
  ) {
    // Not from Buffer's pool: a request's buffer is moved to the export thread whole (take).
    this.buf = Buffer.allocUnsafeSlow(size);
    this.dv = viewOf(this.buf);
    this.pos = head;
  }

  /** Starts again on a buffer of its own, of `size` bytes, the last one given away. */
  renew(size: number): void {
    this.buf = Buffer.allocUnsafeSlow(size);
    this.dv = viewOf(this.buf);
    this.pos = this.head;
  }

  room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + bytes));
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
    this.pos = putVarint(this.buf, this.pos, n);
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

  /**
   * Starts a nested message; `close` writes its length. `kept` bytes are kept for it (one, or
   * two for a span, whose length is nearly always 128 to 16,383), moved when it needs another
   * number: the length is always written in as few bytes as it takes.
   */
  open(field: number, kept = 1): number {
    this.tag(field, LEN);
    this.room(kept);
    const at = this.pos;
    this.pos += kept;
    return at;
  }

  close(at: number, kept = 1): void {
    const length = this.pos - at - kept;
    if (kept === 1 && length < 128) {
      this.buf[at] = length;
      return;
    }
    if (kept === 2 && length >= 128 && length < 16384) {
      this.buf[at] = (length & 127) | 128;
      this.buf[at + 1] = length >> 7;
      return;
    }
    const size = varintSize(length);
    if (size > kept) this.room(size - kept);
    this.buf.copyWithin(at + size, at + kept, this.pos);
    const end = this.pos + size - kept;
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

