// An OTLP/HTTP receiver for the trace tests: it decodes what a server exports (OTLP's protobuf
// encoding, read here field by field from opentelemetry-proto's numbers by a decoder of its own,
// not the server's encoder run backwards) and lets a test wait for the spans it expects.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeExport } from "./otlp-proto.js";

export interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  traceState?: string;
  links?: { traceId: string; spanId: string; traceState?: string }[];
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
  status?: { code?: number; message?: string };
}
export interface Export {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** Every span received so far, and a wait for one that matches. */
export class Receiver {
  readonly spans: OtlpSpan[] = [];
  readonly resources: Record<string, unknown>[] = [];
  readonly paths: string[] = [];
  private waiters: (() => void)[] = [];
  server!: Server;

  start(): Promise<number> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.paths.push(`${req.method} ${req.url} ${req.headers["content-type"]}`);
        const body = decodeExport(Buffer.concat(chunks));
        for (const rs of body.resourceSpans) {
          this.resources.push(attrs(rs.resource.attributes));
          for (const ss of rs.scopeSpans) this.spans.push(...ss.spans);
        }
        // An empty ExportTraceServiceResponse: full success.
        res.writeHead(200, { "Content-Type": "application/x-protobuf" }).end();
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    return new Promise((resolve) => this.server.listen(0, "127.0.0.1", () => resolve((this.server.address() as AddressInfo).port)));
  }

  /** Resolves once `ready` holds for what was received (checked at each export); fails the test after 10 s. */
  async until(ready: () => boolean): Promise<void> {
    const started = Date.now();
    while (!ready()) {
      const left = 10_000 - (Date.now() - started);
      if (left <= 0) throw new Error(`spans never arrived; got ${this.spans.map((s) => s.name).join(", ")}`);
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, left).unref();
      });
    }
  }
}

export function attrs(list: { key: string; value: OtlpValue }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list) out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue));
  return out;
}
