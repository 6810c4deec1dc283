// Spans as an OTLP ExportTraceServiceRequest in protobuf (opentelemetry-proto, trace/v1), the
// encoding OTLP/HTTP sends by default. Written straight into one growing buffer: the attributes
// an endpoint or statement shares are encoded once and copied after, the rest as they come.
// The official transformer builds an object per span and per attribute and serializes those,
// which cost more than answering the request did.

import { ENCODED_LIMIT, keyValue, known, laterKeyValues } from "./otlp-keyvalues.js";
import { LEN, putTimes, putVarint, VARINT, varintSize, Writer } from "./protobuf.js";
import { type Attributes, type LeafShape, NO_LINKS, RecordedSpan, type RepeatedLater, type SpanLink, SpanKind, StatusCode } from "./span.js";

/** The buffers of requests `take` made: nothing else views them. */
const OWN_MEMORY = new WeakSet<ArrayBufferLike>();

/** Whether `request` is one the encoder made, whose whole buffer can be moved elsewhere (export.ts). */
export function ownsMemory(request: Uint8Array): boolean {
  return OWN_MEMORY.has(request.buffer);
}

/** A shared attributes object's encoding with the first name it came with, and with any other. */
interface Fixed {
  name: string;
  /** The attributes object it encodes (its key in OtlpEncoder.fixed). */
  attributes: Attributes;
  bytes: Buffer;
  others: Map<string, Fixed> | null;
  /** The template of the spans with this name and attributes and no repeated later attributes. */
  template: SpanTemplate | null;
}

/** A span's encoding for one shape, ids and times to be written over (OtlpEncoder: fromTemplate); null bytes: write such spans field by field. */
interface SpanTemplate {
  bytes: Buffer | null;
  fixed: Fixed;
  kind: number;
  hasParent: boolean;
  status: number;
}

/** The fields of a span whose size is not known up front. */
function rest(w: Writer, s: RecordedSpan, plainStatus: boolean): void {
  const state = s.traceState?.serialize();
  if (state) w.string(3, state);
  if (s.repeated === null && s.later !== null) laterKeyValues(w, s.later);
  for (const link of s.links) linked(w, link);
  if (!plainStatus) {
    const status = w.open(15);
    w.string(2, s.statusMessage!);
    w.tag(3, VARINT);
    w.varint(s.statusCode);
    w.close(status);
  }
}

function linked(w: Writer, link: SpanLink): void {
  const at = w.open(13);
  w.hexBytes(1, link.traceId);
  w.hexBytes(2, link.spanId);
  const state = link.traceState?.serialize();
  if (state) w.string(3, state);
  w.close(at);
}

/**
 * Encodes spans for one resource and scope, each as it ends (`add`), so that an ended span is
 * bytes at once and no span object outlives its request waiting for the export: kept alive in a
 * queue, spans survived young-generation collections and cost as much again as encoding them.
 * `take` wraps what was added in one request.
 */
export class OtlpEncoder {
  /** For each shared attributes object, by span name: the name and the attributes' KeyValues, as a span's fields 5 and 9. */
  private readonly fixed = new WeakMap<Attributes, Fixed>();
  /** ResourceSpans.resource and ScopeSpans.scope, each a whole field (tag, length, message). */
  private readonly resource: Buffer;
  private readonly scope: Buffer;
  /** The bytes kept before the spans for the request's head: its lengths take five bytes at most. */
  private readonly head: number;
  /** The spans added since the last `take`, as ScopeSpans' field 2 each, after `head` free bytes. */
  private readonly w: Writer;

  constructor(resource: Attributes, scope: { name: string; version: string }) {
    this.resource = this.fragment((w) => {
      const at = w.open(1);
      for (const key in resource) keyValue(w, 1, key, resource[key]!);
      w.close(at);
    });
    this.scope = this.fragment((w) => {
      const at = w.open(1);
      w.string(1, scope.name);
      w.string(2, scope.version);
      w.close(at);
    });
    this.head = 1 + 5 + this.resource.length + 1 + 5 + this.scope.length;
    this.w = new Writer(this.head);
  }

  /** Encodes an ended, sampled span into the request being gathered. */
  add(span: RecordedSpan): void {
    this.span(span);
  }

  /**
   * Encodes a sampled leaf span of `parent` (ids `s0`, `s1`) that ended as most statements do:
   * no attribute set after its start, no status, no links; from its shape's template once there
   * is one, with no span object made for it.
   */
  addLeaf(parent: RecordedSpan, s0: number, s1: number, shape: LeafShape, startMs: number, endMs: number): void {
    const fixed = (shape.encoded ??= this.fixedOf(shape.name, shape.attributes)) as Fixed;
    const template = fixed.template;
    if (template !== null && template.bytes !== null && template.kind === SpanKind.INTERNAL && template.hasParent && template.status === StatusCode.UNSET && parent.traceState === undefined) {
      return this.templated(template.bytes, parent.t0, parent.t1, parent.t2, parent.t3, s0, s1, true, parent.s0, parent.s1, startMs, endMs);
    }
    const { t0, t1, t2, t3, s0: p0, s1: p1, traceState } = parent;
    const leaf = new RecordedSpan(t0, t1, t2, t3, s0, s1, true, p0, p1, shape.name, SpanKind.INTERNAL, shape.attributes, true, traceState, NO_LINKS, startMs, null);
    leaf.endMs = endMs;
    this.span(leaf);
  }

  /**
   * An ExportTraceServiceRequest of the spans added since the last call. Its head is written
   * into the bytes kept before the spans, so nothing is copied: the request is a view of the
   * writer's buffer, which it takes with it (to the export thread, whole: ownsMemory), the
   * writer going on with a new one as large.
   */
  take(): Uint8Array {
    const w = this.w;
    const spans = w.pos - this.head;
    const scopeSpans = this.scope.length + spans;
    const resourceSpans = this.resource.length + 1 + varintSize(scopeSpans) + scopeSpans;
    const begin = this.head - (1 + varintSize(resourceSpans) + this.resource.length + 1 + varintSize(scopeSpans) + this.scope.length);
    const b = w.buf;
    b[begin] = (1 << 3) | LEN;
    let p = putVarint(b, begin + 1, resourceSpans);
    b.set(this.resource, p);
    p += this.resource.length;
    b[p] = (2 << 3) | LEN;
    p = putVarint(b, p + 1, scopeSpans);
    b.set(this.scope, p);
    const request = new Uint8Array(b.buffer, b.byteOffset + begin, w.pos - begin);
    OWN_MEMORY.add(b.buffer);
    w.renew(b.length);
    return request;
  }

  /** `spans` as one request. */
  encode(spans: readonly RecordedSpan[]): Uint8Array {
    for (const span of spans) this.add(span);
    return this.take();
  }

  /**
   * A span of a shape met before (its name and shared attributes, repeated later attributes,
   * kind, parent or not, plain status) is its shape's template copied, the ids and times
   * written over their places: one copy and a dozen stores, where the fields one by one cost
   * some 900 instructions a span, most of them typed-array bounds checks. Any other span is
   * written field by field (`written`).
   */
  private span(s: RecordedSpan): void {
    const repeated = s.repeated;
    // A routed answer's template is kept with its later attributes: when it has this span's
    // name and attributes, so has its encoding, and the lookup by attributes is saved.
    const kept = repeated === null ? null : (repeated.template as SpanTemplate | null);
    const fixed = kept !== null && kept.fixed.attributes === s.attributes && kept.fixed.name === s.name ? kept.fixed : this.fixedOf(s.name, s.attributes);
    if (s.traceState === undefined && s.links.length === 0 && s.statusMessage === undefined && (s.later === null || repeated !== null)) {
      // Any other span's template is kept with its name's encoding.
      const holder: { template: object | null } = repeated ?? fixed;
      let template = holder.template as SpanTemplate | null;
      if (template === null || template.fixed !== fixed || template.kind !== s.kind || template.hasParent !== s.hasParent || template.status !== s.statusCode) {
        template = this.templateOf(s, fixed);
        holder.template = template;
      }
      if (template.bytes !== null) return this.templated(template.bytes, s.t0, s.t1, s.t2, s.t3, s.s0, s.s1, s.hasParent, s.p0, s.p1, s.startMs, s.endMs);
    }
    this.written(this.w, s, fixed.bytes, repeated === null ? null : this.repeatedBytes(repeated));
  }

  private repeatedBytes(repeated: RepeatedLater): Uint8Array {
    return (repeated.encoded ??= this.fragment((w) => laterKeyValues(w, repeated.later)));
  }

  /**
   * `s`'s shape as a template: `s` written field by field on a writer of its own. Bytes null
   * when its length does not take the two bytes `fromTemplate` counts on (under 128 bytes).
   */
  private templateOf(s: RecordedSpan, fixed: Fixed): SpanTemplate {
    const w = new Writer(0, 1024);
    this.written(w, s, fixed.bytes, s.repeated === null ? null : this.repeatedBytes(s.repeated));
    const length = w.pos - 3;
    const bytes = length >= 128 && length < 16384 ? Buffer.from(w.buf.subarray(0, w.pos)) : null;
    return { bytes, fixed, kind: s.kind, hasParent: s.hasParent, status: s.statusCode };
  }

  /** A span from its shape's bytes: its ids and times written over the template's, where `written` lays them out. */
  private templated(
    bytes: Buffer, t0: number, t1: number, t2: number, t3: number, s0: number, s1: number, hasParent: boolean, p0: number, p1: number, startMs: number, endMs: number,
  ): void {
    const w = this.w;
    w.room(bytes.length);
    const b = w.buf;
    const dv = w.dv;
    const p = w.pos;
    b.set(bytes, p);
    dv.setUint32(p + 5, t0);
    dv.setUint32(p + 9, t1);
    dv.setUint32(p + 13, t2);
    dv.setUint32(p + 17, t3);
    dv.setUint32(p + 23, s0);
    dv.setUint32(p + 27, s1);
    let q = p + 31;
    if (hasParent) {
      dv.setUint32(q + 2, p0);
      dv.setUint32(q + 6, p1);
      q += 10;
    }
    putTimes(b, dv, q + 2, startMs, endMs);
    w.pos = p + bytes.length;
  }

  /**
   * `s` field by field on `w`. Everything whose size is known up front (ids, kind, times, the
   * name and shared attributes, repeated later attributes, a plain status) goes in one stretch
   * on a local buffer and position, after one `room`: as calls to the writer's methods, too
   * many to be inlined, they cost more than the rest of the span. Fields go out of field order
   * (parsers take them in any order), so that the rest (a trace state, one-off attributes,
   * links, a status message) can follow.
   */
  private written(w: Writer, s: RecordedSpan, fixed: Buffer, repeated: Uint8Array | null): void {
    // Tag and two kept length bytes 3, ids 28, parent 10, kind 2, times 18, plain status 4.
    w.room(65 + fixed.length + (repeated === null ? 0 : repeated.length));
    const b = w.buf;
    const dv = w.dv;
    let p = w.pos;
    b[p] = (2 << 3) | LEN;
    const at = p + 1;
    p += 3;
    // The ids: their 32-bit words big-endian, as their hex reads (span.ts).
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
    p += 28;
    if (s.hasParent) {
      b[p] = (4 << 3) | LEN;
      b[p + 1] = 8;
      dv.setUint32(p + 2, s.p0);
      dv.setUint32(p + 6, s.p1);
      p += 10;
    }
    // Kind (a one-byte varint) and the start and end times.
    b[p] = (6 << 3) | VARINT;
    b[p + 1] = s.kind + 1;
    p = putTimes(b, dv, p + 2, s.startMs, s.endMs);
    b.set(fixed, p);
    p += fixed.length;
    if (repeated !== null) {
      b.set(repeated, p);
      p += repeated.length;
    }
    const plainStatus = s.statusMessage === undefined;
    if (plainStatus) {
      // Status { code }: four bytes (the code is 0, 1 or 2). Always present, code 0 included, as the official encoder writes it.
      b[p] = (15 << 3) | LEN;
      b[p + 1] = 2;
      b[p + 2] = (3 << 3) | VARINT;
      b[p + 3] = s.statusCode;
      p += 4;
    }
    w.pos = p;
    if (s.traceState !== undefined || (repeated === null && s.later !== null) || s.links.length > 0 || !plainStatus) rest(w, s, plainStatus);
    w.close(at, 2);
  }

  /**
   * A span's name and its shared attributes, encoded once for each name the attributes are given
   * with. Nearly always one name (a statement's, an endpoint's, a route's): kept with the
   * attributes, one lookup; any other in a map of their own.
   */
  private fixedOf(name: string, attributes: Attributes): Fixed {
    const kept = this.fixed.get(attributes);
    if (kept !== undefined && kept.name === name) return kept;
    const other = kept?.others?.get(name);
    if (other !== undefined) return other;
    const fixed: Fixed = {
      name,
      attributes,
      bytes: this.fragment((w) => {
        known(w, 5, name);
        for (const key in attributes) keyValue(w, 9, key, attributes[key]!);
      }),
      others: null,
      template: null,
    };
    if (kept === undefined) this.fixed.set(attributes, fixed);
    // Names are the project's (routes, endpoints, statements, jobs): bounded all the same.
    else if ((kept.others ??= new Map()).size < ENCODED_LIMIT) kept.others.set(name, fixed);
    return fixed;
  }

  /** What `write` writes, on a writer of its own, as bytes to copy. */
  private fragment(write: (w: Writer) => void): Buffer {
    const w = new Writer();
    write(w);
    return Buffer.from(w.buf.subarray(0, w.pos));
  }
}
