// Ended spans, encoded, batched and sent over OTLP/HTTP in protobuf: the batching OpenTelemetry's batch
// span processor does, read from the same OTEL_BSP_* variables, and the official exporter
// transport (transport.ts) for the rest: the endpoint and headers of OTEL_EXPORTER_OTLP_*,
// timeouts, gzip, retries with backoff. Only the encoding is svc's (otlp.ts). The transport
// runs on a thread of its own (export-thread.ts), off the serving thread.

import { Worker } from "node:worker_threads";
import type { Logger } from "../core/log.js";
import type { FromThread, ToThread } from "./export-thread.js";
import type { Env } from "./config.js";
import { ownsMemory } from "./otlp.js";
import type { LeafShape, RecordedSpan } from "./span.js";

/** Where ended spans go: the exporter, svc dev's trace view. */
export interface SpanSink {
  ended(span: RecordedSpan): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

interface BatchOptions {
  delayMs: number;
  maxQueue: number;
  maxBatch: number;
}

function positive(env: Env, name: string, fallback: number): number {
  const value = Number(env[name]?.trim() || NaN);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** OTEL_BSP_SCHEDULE_DELAY, _MAX_QUEUE_SIZE and _MAX_EXPORT_BATCH_SIZE, with the specification's defaults. */
export function batchOptions(env: Env): BatchOptions {
  const maxQueue = positive(env, "OTEL_BSP_MAX_QUEUE_SIZE", 2048);
  return {
    delayMs: positive(env, "OTEL_BSP_SCHEDULE_DELAY", 5000),
    maxQueue,
    maxBatch: Math.min(positive(env, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512), maxQueue),
  };
}

/**
 * Sends one encoded request of `spans` spans; settles once the collector answered or the retries
 * gave up. The request is the sender's from then on (the thread's sender moves its memory
 * away). `shutdown`, when there is one, releases the transport once the last batch went.
 */
export type Send = ((request: Uint8Array, spans: number) => Promise<void>) & { shutdown?: () => Promise<void> };

/**
 * otlpHttpSend (transport.ts) on a thread of its own (export-thread.ts), which reads the
 * OTEL_EXPORTER_OTLP_* variables as they were when it started; its warnings are logged here. A
 * batch settles once the thread sent it or gave it up; `shutdown` waits for the thread's last
 * send, then ends it.
 * The thread never keeps a stopping process alive.
 */
export function threadSend(log: Logger): Send {
  const thread = new Worker(new URL("./export-thread.js", import.meta.url));
  thread.unref();
  const waiting = new Map<number, () => void>();
  let next = 0;
  let alive = true;
  let closed: (() => void) | null = null;
  const settleAll = () => {
    alive = false;
    for (const settle of waiting.values()) settle();
    waiting.clear();
    closed?.();
  };
  thread.on("message", (message: FromThread) => {
    if ("sent" in message) {
      waiting.get(message.sent)?.();
      waiting.delete(message.sent);
    } else if ("warn" in message) log.warn(message.warn, message.fields);
    else closed?.();
  });
  // A thread that failed sends nothing more: its batches settle, unsent, and the log says why.
  thread.on("error", (err: Error) => log.warn("trace export failed", { error: err.message }));
  thread.on("exit", settleAll);
  const send: Send = (request, spans) =>
    new Promise<void>((resolve) => {
      if (!alive) return resolve();
      const id = next++;
      waiting.set(id, resolve);
      // Moved to the thread with its buffer, not copied, when the encoder made it (nothing else
      // views that buffer); any other request is copied first: its buffer may be a pool's.
      const own = ownsMemory(request) ? (request as Uint8Array<ArrayBuffer>) : new Uint8Array(request);
      thread.postMessage({ id, request: own, spans } satisfies ToThread, [own.buffer]);
    });
  send.shutdown = async () => {
    if (!alive) return;
    await new Promise<void>((resolve) => {
      closed = resolve;
      thread.postMessage({ shutdown: true } satisfies ToThread);
    });
    await thread.terminate();
  };
  return send;
}

/** What the batching needs of the encoder (otlp.ts: OtlpEncoder). */
export interface SpanEncoder {
  add(span: RecordedSpan): void;
  addLeaf(parent: RecordedSpan, s0: number, s1: number, shape: LeafShape, startMs: number, endMs: number): void;
  take(): Uint8Array;
}

/** Where a leaf span that ended plainly goes without a span object made for it (Tracing.leafEnded): the exporter, when it is the only sink. */
export interface LeafSink {
  leaf(parent: RecordedSpan, s0: number, s1: number, shape: LeafShape, startMs: number, endMs: number): void;
}

/**
 * Spans encoded as they end and sent in batches: when a batch is full, or `delayMs` after the
 * first of a batch ended. Past `maxQueue` spans waiting to be sent, a span is dropped
 * (counted), as the batch span processor drops it: a slow collector must not grow the
 * server's memory.
 */
export class BatchExport implements SpanSink, LeafSink {
  /** Spans encoded into the batch being gathered. */
  private gathering = 0;
  /** Spans in batches cut and not yet being sent. */
  private pending = 0;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();
  dropped = 0;

  constructor(
    private readonly encoder: SpanEncoder,
    private readonly send: Send,
    private readonly options: BatchOptions,
  ) {}

  ended(span: RecordedSpan): void {
    if (this.full()) return;
    this.encoder.add(span);
    this.added();
  }

  leaf(parent: RecordedSpan, s0: number, s1: number, shape: LeafShape, startMs: number, endMs: number): void {
    if (this.full()) return;
    this.encoder.addLeaf(parent, s0, s1, shape, startMs, endMs);
    this.added();
  }

  /** Whether the queue is full, the span then dropped (counted). */
  private full(): boolean {
    if (this.gathering + this.pending < this.options.maxQueue) return false;
    this.dropped++;
    return true;
  }

  /** A span encoded: the batch is cut when full, or its timer started with its first span. */
  private added(): void {
    this.gathering++;
    if (this.gathering >= this.options.maxBatch) this.cut();
    // Unref'd: spans waiting to go never keep a stopping process alive (close flushes them).
    else if (this.timer === null) this.timer = setTimeout(() => void this.cut(), this.options.delayMs).unref();
  }

  /** Closes the batch being gathered and queues it to be sent after those before it; settles once all queued went. */
  private cut(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.gathering === 0) return this.sending;
    const request = this.encoder.take();
    const spans = this.gathering;
    this.gathering = 0;
    this.pending += spans;
    // Once its export starts a batch leaves the queue, as the batch span processor's does.
    this.sending = this.sending.then(() => {
      this.pending -= spans;
      return this.send(request, spans);
    });
    return this.sending;
  }

  forceFlush(): Promise<void> {
    return this.cut();
  }

  async shutdown(): Promise<void> {
    await this.cut();
    await this.send.shutdown?.();
  }
}
