// A decoder of OTLP's ExportTraceServiceRequest in protobuf for the tests, from the field numbers
// of opentelemetry-proto (collector/trace/v1, trace/v1, common/v1, resource/v1). It knows the
// wire format's four types and the messages the server sends; an unknown field is skipped, as
// protobuf readers do, and a truncated message throws.

import type { Export, OtlpSpan, OtlpValue } from "./otlp.js";

type Field = { number: number; wire: number; value: bigint | Buffer };

function* fields(buf: Buffer): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let out = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (at >= buf.length) throw new Error("truncated varint");
      const byte = buf[at++]!;
      out |= BigInt(byte & 127) << shift;
      if (byte < 128) return out;
    }
  };
  const take = (n: number): Buffer => {
    if (at + n > buf.length) throw new Error("truncated field");
    const out = buf.subarray(at, at + n);
    at += n;
    return out;
  };
  while (at < buf.length) {
    const key = Number(varint());
    const wire = key & 7;
    const number = key >> 3;
    if (wire === 0) yield { number, wire, value: varint() };
    else if (wire === 1) yield { number, wire, value: take(8) };
    else if (wire === 2) yield { number, wire, value: take(Number(varint())) };
    else if (wire === 5) yield { number, wire, value: take(4) };
    else throw new Error(`wire type ${wire}`);
  }
}

const bytes = (f: Field) => f.value as Buffer;
const text = (f: Field) => bytes(f).toString("utf8");

function anyValue(buf: Buffer): OtlpValue {
  for (const f of fields(buf)) {
    if (f.number === 1) return { stringValue: text(f) };
    if (f.number === 2) return { boolValue: f.value === 1n };
    if (f.number === 3) return { intValue: BigInt.asIntN(64, f.value as bigint).toString() };
    if (f.number === 4) return { doubleValue: bytes(f).readDoubleLE(0) };
  }
  return {};
}

function keyValue(buf: Buffer): { key: string; value: OtlpValue } {
  let key = "";
  let value: OtlpValue = {};
  for (const f of fields(buf)) {
    if (f.number === 1) key = text(f);
    else if (f.number === 2) value = anyValue(bytes(f));
  }
  return { key, value };
}

function span(buf: Buffer): OtlpSpan {
  const out: OtlpSpan = { traceId: "", spanId: "", name: "", kind: 0, startTimeUnixNano: "", endTimeUnixNano: "", attributes: [] };
  for (const f of fields(buf)) {
    switch (f.number) {
      case 1: out.traceId = bytes(f).toString("hex"); break;
      case 2: out.spanId = bytes(f).toString("hex"); break;
      case 3: out.traceState = text(f); break;
      case 4: if (bytes(f).length > 0) out.parentSpanId = bytes(f).toString("hex"); break;
      case 5: out.name = text(f); break;
      case 6: out.kind = Number(f.value); break;
      case 7: out.startTimeUnixNano = bytes(f).readBigUInt64LE(0).toString(); break;
      case 8: out.endTimeUnixNano = bytes(f).readBigUInt64LE(0).toString(); break;
      case 9: out.attributes.push(keyValue(bytes(f))); break;
      case 13: {
        const link: { traceId: string; spanId: string; traceState?: string } = { traceId: "", spanId: "" };
        for (const g of fields(bytes(f))) {
          if (g.number === 1) link.traceId = bytes(g).toString("hex");
          else if (g.number === 2) link.spanId = bytes(g).toString("hex");
          else if (g.number === 3) link.traceState = text(g);
        }
        (out.links ??= []).push(link);
        break;
      }
      case 15: {
        const status: { code?: number; message?: string } = {};
        for (const g of fields(bytes(f))) {
          if (g.number === 2) status.message = text(g);
          else if (g.number === 3) status.code = Number(g.value);
        }
        out.status = status;
        break;
      }
    }
  }
  return out;
}

export function decodeExport(body: Buffer): Export {
  const out: Export = { resourceSpans: [] };
  for (const rs of fields(body)) {
    if (rs.number !== 1) continue;
    const entry: Export["resourceSpans"][number] = { resource: { attributes: [] }, scopeSpans: [] };
    for (const f of fields(bytes(rs))) {
      if (f.number === 1) for (const g of fields(bytes(f))) if (g.number === 1) entry.resource.attributes.push(keyValue(bytes(g)));
      if (f.number === 2) {
        const spans: OtlpSpan[] = [];
        for (const g of fields(bytes(f))) if (g.number === 2) spans.push(span(bytes(g)));
        entry.scopeSpans.push({ spans });
      }
    }
    out.resourceSpans.push(entry);
  }
  return out;
}
