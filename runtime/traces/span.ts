// svc's spans: what a span records and how one is started, as small as OpenTelemetry's data
// model allows. The SDK's span copies and checks its attributes on every start and keeps its
// times as [seconds, nanoseconds] pairs; with its OTLP transformer that was most of what a
// traced request cost (docs/operations.md, Cost of metrics and traces). Here a span keeps the
// attributes object it was given (one per statement or endpoint, made once at start), and
// attributes set later in a list of their own, so the exporter can encode the shared ones once.

import { randomFillSync } from "node:crypto";
// Imported: the global `performance` is a getter, paid on every read.
import { performance } from "node:perf_hooks";
import type { CurrentSpan } from "../lang/trace-context.js";
import type { Sampler } from "./sampler.js";

export type AttributeValue = string | number | boolean;
export type Attributes = Readonly<Record<string, AttributeValue>>;

/** OpenTelemetry's span kinds, numbered as the API numbers them (OTLP's are one more). */
export const SpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 } as const;
export type SpanKind = (typeof SpanKind)[keyof typeof SpanKind];

/** OpenTelemetry's status codes: unset, ok, error. */
export const StatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const;

/** A W3C trace-state list as the API passes it on: only ever serialized again. */
export interface TraceState {
  serialize(): string;
}

/** A span of another process (a `traceparent`) or of this one: what a child needs of its parent. */
export interface ParentContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: TraceState;
}

export interface SpanLink {
  traceId: string;
  spanId: string;
  traceState?: TraceState;
}

/**
 * `s` as one sequential string. A name made by concatenation is a rope, whose characters the
 * exporter would walk down to on every span; made once (a route's, an endpoint's name), it is
 * flattened once.
 */
export function flat(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

/**
 * Words as hex, written big-endian to a scratch buffer and read back in one call: a quarter of
 * what `toString(16)` and `padStart` cost for each word. A traced request's log lines carry its
 * trace id (core/log.ts).
 */
const HEX_WORDS = Buffer.alloc(16);
const HEX_VIEW = new DataView(HEX_WORDS.buffer, HEX_WORDS.byteOffset, 16);

function hex(w0: number, w1: number, w2?: number, w3?: number): string {
  HEX_VIEW.setUint32(0, w0);
  HEX_VIEW.setUint32(4, w1);
  if (w2 === undefined) return HEX_WORDS.toString("hex", 0, 8);
  HEX_VIEW.setUint32(8, w2);
  HEX_VIEW.setUint32(12, w3!);
  return HEX_WORDS.toString("hex", 0, 16);
}

/** 8 hex digits as a number; hex checked by the W3C parser before it gets here. */
function word(hex: string, at: number): number {
  return parseInt(hex.slice(at, at + 8), 16);
}

/**
 * A span's later attributes when they repeat, as a whole, from span to span: a route's answers
 * to one client with one status (tracing.ts). Spans given one share its list, never written,
 * and the exporter encodes it once, into `encoded` (otlp.ts).
 */
export class RepeatedLater {
  encoded: Uint8Array | null = null;
  /** The exporter's too: the encoding of a whole span with this list, ids and times left to write (otlp.ts). */
  template: object | null = null;

  constructor(readonly later: readonly (string | AttributeValue)[]) {}
}

export class RecordedSpan implements CurrentSpan {
  /** Milliseconds on the monotonic clock (performance.now()); -1 until ended. */
  endMs = -1;
  /** Attributes set after the start, as key, value, key, value…; a later one wins. */
  later: (string | AttributeValue)[] | null = null;
  /** Set when `later` is that object's list (shared: copied before it is written). */
  repeated: RepeatedLater | null = null;
  statusCode: number = StatusCode.UNSET;
  statusMessage: string | undefined = undefined;
  /** A request's span: its place among the requests in flight (in-flight.ts); -1 otherwise. */
  slot = -1;
  /** A request's span: its request's id, once among those in flight (in-flight.ts). */
  requestId: string | null = null;
  private traceHex: string | undefined = undefined;
  private spanHex: string | undefined = undefined;

  /**
   * The ids are kept as 32-bit words, most significant first (t0-t3 the trace's, s0-s1 the
   * span's, p0-p1 the parent's): the encoder writes them as they are, and their hex, made on
   * first asking, is needed only for a `traceparent`, a log line or svc dev.
   */
  constructor(
    readonly t0: number,
    readonly t1: number,
    readonly t2: number,
    readonly t3: number,
    readonly s0: number,
    readonly s1: number,
    readonly hasParent: boolean,
    readonly p0: number,
    readonly p1: number,
    public name: string,
    readonly kind: SpanKind,
    /**
     * Shared with every span of the same statement or endpoint, never written; a request's span
     * is given its route's object once the route is known (tracing.ts).
     */
    public attributes: Attributes,
    readonly sampled: boolean,
    readonly traceState: TraceState | undefined,
    readonly links: readonly SpanLink[],
    readonly startMs: number,
    private readonly ended: ((span: RecordedSpan) => void) | null,
  ) {}

  get traceId(): string {
    return (this.traceHex ??= hex(this.t0, this.t1, this.t2, this.t3));
  }

  get spanId(): string {
    return (this.spanHex ??= hex(this.s0, this.s1));
  }

  get parentSpanId(): string | null {
    return this.hasParent ? hex(this.p0, this.p1) : null;
  }

  /** W3C's trace flags: sampled or not. */
  get traceFlags(): number {
    return this.sampled ? 1 : 0;
  }

  spanContext(): ParentContext {
    return { traceId: this.traceId, spanId: this.spanId, traceFlags: this.sampled ? 1 : 0, ...(this.traceState !== undefined && { traceState: this.traceState }) };
  }

  setAttribute(key: string, value: AttributeValue): void {
    if (this.later === null) this.later = [key, value];
    else {
      if (this.repeated !== null) {
        this.later = this.later.slice();
        this.repeated = null;
      }
      this.later.push(key, value);
    }
  }

  /** `later` becomes `repeated`'s list, which holds this span's later attributes and those to add. */
  repeat(repeated: RepeatedLater): void {
    this.later = repeated.later as (string | AttributeValue)[];
    this.repeated = repeated;
  }

  updateName(name: string): void {
    this.name = name;
  }

  setStatus(code: number, message?: string): void {
    this.statusCode = code;
    this.statusMessage = message;
  }

  /** Records the end once, now or at `atMs` (a reading of the same clock); a sampled span then goes to the exporter and any other sink. */
  end(atMs?: number): void {
    if (this.endMs >= 0) return;
    this.endMs = atMs ?? performance.now();
    if (this.ended !== null) this.ended(this);
  }

  /** Every attribute, later ones over the start's (svc dev's trace view). */
  allAttributes(): Record<string, AttributeValue> {
    const out: Record<string, AttributeValue> = { ...this.attributes };
    const later = this.later ?? [];
    for (let i = 0; i < later.length; i += 2) out[later[i] as string] = later[i + 1]!;
    return out;
  }

  attribute(key: string): AttributeValue | undefined {
    const later = this.later ?? [];
    for (let i = later.length - 2; i >= 0; i -= 2) if (later[i] === key) return later[i + 1];
    return this.attributes[key];
  }
}

/**
 * Random 32-bit words from a pool the CSPRNG fills 64 KiB at a time. A fill has a fixed cost
 * (Node's checks in JavaScript, run once a fill and so never optimized, and OpenSSL's locks),
 * 15,000-44,000 instructions under callgrind, and a few a byte: a 4 KiB pool, a hundred
 * get_task requests' ids, cost each of them up to 440; one of 64 KiB, under 30.
 */
class RandomWords {
  readonly pool = new Uint32Array(16384);
  private at = this.pool.length;

  /** Where `n` unread words start in `pool` (a few at most), refilled first when fewer are left. */
  take(n: number): number {
    if (this.at + n > this.pool.length) {
      randomFillSync(this.pool);
      this.at = 0;
    }
    const at = this.at;
    this.at = at + n;
    return at;
  }
}

/** The 52 low bits of a trace id, the part a ratio sampler compares (sampler.ts). */
export function randomness(t2: number, t3: number): number {
  // A mask, not %: a word above 2^31 is a double, whose remainder is a call into C.
  return (t2 & 1048575) * 4294967296 + t3;
}

/**
 * A statement's span name and shared attributes, made once per statement (spans.ts): the
 * exporter keeps its encoding of them here (otlp.ts), where finding it by the attributes cost
 * a lookup every statement.
 */
export class LeafShape {
  encoded: object | null = null;

  constructor(
    readonly name: string,
    readonly attributes: Attributes,
  ) {}
}

/** A span's links when it has none: one array, not one per span. */
export const NO_LINKS: readonly SpanLink[] = [];

/** Starts spans: a child joins its parent's trace, a root begins one; the sampler says which are recorded. */
export class Tracer {
  private readonly random = new RandomWords();
  /** Where `drawSpanId` draws from. */
  readonly ids = this.random.pool;

  constructor(
    private readonly sampler: Sampler,
    /** Where a sampled span goes once ended. */
    private readonly ended: (span: RecordedSpan) => void,
  ) {}

  /** Where a new span id's two words start in `ids`: a leaf's, drawn as it ends (Tracing.leafEnded). */
  drawSpanId(): number {
    const pool = this.random.pool;
    let at = this.random.take(2);
    // All zeros is W3C's invalid span id: 2^-64, drawn again all the same.
    while ((pool[at]! | pool[at + 1]!) === 0) at = this.random.take(2);
    return at;
  }

  /** `parent`: a span of this process, another's context (a `traceparent`), or null for a root; `startMs` a reading of performance.now()'s clock. */
  start(
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    parent: RecordedSpan | ParentContext | null,
    links: readonly SpanLink[] = NO_LINKS,
    startMs: number = performance.now(),
  ): RecordedSpan {
    const random = this.random;
    const pool = random.pool;
    let t0: number, t1: number, t2: number, t3: number;
    let p0 = 0;
    let p1 = 0;
    // The span's id with the trace's, for a root: one draw of up to six words, read in place.
    let at: number;
    if (parent instanceof RecordedSpan) {
      t0 = parent.t0;
      t1 = parent.t1;
      t2 = parent.t2;
      t3 = parent.t3;
      p0 = parent.s0;
      p1 = parent.s1;
      at = random.take(2);
    } else if (parent !== null) {
      const id = parent.traceId;
      t0 = word(id, 0);
      t1 = word(id, 8);
      t2 = word(id, 16);
      t3 = word(id, 24);
      p0 = word(parent.spanId, 0);
      p1 = word(parent.spanId, 8);
      at = random.take(2);
    } else {
      at = random.take(6);
      t0 = pool[at + 2]!;
      t1 = pool[at + 3]!;
      t2 = pool[at + 4]!;
      t3 = pool[at + 5]!;
      // All zeros is W3C's invalid trace id: 2^-128, drawn again all the same.
      while ((t0 | t1 | t2 | t3) === 0) {
        const again = random.take(4);
        [t0, t1, t2, t3] = [pool[again]!, pool[again + 1]!, pool[again + 2]!, pool[again + 3]!];
      }
    }
    let s0 = pool[at]!;
    let s1 = pool[at + 1]!;
    if ((s0 | s1) === 0) {
      const again = this.drawSpanId();
      [s0, s1] = [pool[again]!, pool[again + 1]!];
    }
    const sampled = this.sampler.sampled(randomness(t2, t3), parent);
    return new RecordedSpan(
      t0, t1, t2, t3, s0, s1, parent !== null, p0, p1, name, kind, attributes, sampled, parent?.traceState, links, startMs, sampled ? this.ended : null,
    );
  }
}
