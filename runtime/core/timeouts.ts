// Read and write timeouts (docs/service.md §8) and keep-alive, for servers that face the internet
// or sit behind a load balancer.
//
// Read timeout: Node's own `headersTimeout` and `requestTimeout`, both set to
// --read-timeout, measured from the first byte of a request (or from the connection's
// opening) to the end of its headers and of its body. Node checks them only every
// `connectionsCheckingInterval` (30 s by default), so the interval is scaled down with the
// timeout: a 1 s read timeout fires between 1 and 1.25 s. An idle keep-alive connection is
// not reading a request and is not subject to it (checked on Node 20), which is why
// headersTimeout need not exceed keepAliveTimeout as it had to on Node ≤ 16.
//
// Write timeout: Node has none, so WriteDeadlines keeps one per response, from the request's
// headers to the response's last byte handed to the kernel. While the request body is still
// arriving the client is the slow one: the read timeout decides, and the write deadline
// moves on.

import type { ServerOptions as HttpServerOptions, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";

/**
 * Idle keep-alive connections are closed after this. Longer than the idle timeout of the
 * balancers usually in front (AWS ALB and nginx upstream keep-alive: 60 s), so the balancer
 * always closes first: a server closing a connection just as the balancer reuses it makes a 502.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Node's default, stated so a NODE_OPTIONS --max-http-header-size cannot raise it: more is a 431. */
export const MAX_HEADER_BYTES = 16_384;

/** Timeouts are checked this often: a quarter of the timeout, between 10 ms and 1 s. */
export function checkingInterval(timeoutMs: number): number {
  return Math.min(1000, Math.max(10, Math.floor(timeoutMs / 4)));
}

/** Options for `http.createServer` that make --read-timeout and keep-alive work as documented. */
export function httpServerOptions(readTimeoutMs: number): HttpServerOptions {
  return {
    headersTimeout: readTimeoutMs,
    requestTimeout: readTimeoutMs,
    connectionsCheckingInterval: checkingInterval(readTimeoutMs),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    maxHeaderSize: MAX_HEADER_BYTES,
    // Strict parsing refuses the framings request smuggling relies on (see framing.ts),
    // whatever NODE_OPTIONS says.
    insecureHTTPParser: false,
    // framing.ts refuses a missing Host itself, with the envelope rather than Node's bare 400.
    requireHostHeader: false,
  };
}

/**
 * What WriteDeadlines keeps on a response it tracks: when it is due, and its neighbours in the
 * queue. On the response itself rather than in a Map: a Map growing and shrinking around a
 * handful of entries rehashes on every few requests (Answer declares the fields, so adding
 * them changes no object's shape).
 */
export interface DeadlineLinks {
  deadlineDue: number;
  deadlinePrev: DeadlineLinks | null;
  deadlineNext: DeadlineLinks | null;
}

type Tracked = ServerResponse & DeadlineLinks;

/** A response not in the queue. */
const UNLINKED = -1;

/**
 * Per-response deadlines, swept on one timer rather than a timer per request. Every
 * response gets the same timeout, so insertion order is deadline order and a sweep stops
 * at the first response still in time.
 */
export class WriteDeadlines {
  readonly timeoutMs: number;
  private head: Tracked | null = null;
  private tail: Tracked | null = null;
  private count = 0;
  private readonly onExpired: (res: ServerResponse) => void;
  private readonly forget: (this: ServerResponse) => void;
  private timer: NodeJS.Timeout | null = null;

  constructor(timeoutMs: number, onExpired: (res: ServerResponse) => void) {
    this.timeoutMs = timeoutMs;
    this.onExpired = onExpired;
    // One listener function for all responses: no closure per request.
    const deadlines = this;
    this.forget = function (this: ServerResponse): void {
      deadlines.remove(this as Tracked);
    };
  }

  /**
   * Hot path: `startedAt` is the request's `performance.now()`. The handler calls `settle`
   * once it is done with the response.
   */
  add(res: ServerResponse, startedAt: number): void {
    this.append(res as Tracked, startedAt + this.timeoutMs);
    if (this.timer === null) {
      this.timer = setInterval(() => this.sweep(), checkingInterval(this.timeoutMs));
      this.timer.unref();
    }
  }

  /**
   * The handler is done with `res`. Usually its last byte has been handed to the kernel by
   * then (`writableFinished`: ended, nothing left in the response's or the socket's buffer)
   * and the deadline is met. Otherwise (a slow reader, a response queued behind a pipelined
   * one, a body still streaming) it stays until the response closes: 'close' follows
   * 'finish', and also comes when the connection dies first. Listening only then saves the
   * usual answer a listener added and called (some 900 instructions).
   */
  settle(res: ServerResponse): void {
    const tracked = res as Tracked;
    if (tracked.deadlineDue === UNLINKED || tracked.deadlineDue === undefined) return;
    if (res.writableFinished || res.destroyed) this.remove(tracked);
    // `on`, not `once`: once() allocates a wrapper per call, and the response is dropped after anyway.
    else res.on("close", this.forget);
  }

  /** Connections with a response still being made or sent. */
  busySockets(): Set<Socket> {
    const sockets = new Set<Socket>();
    // req.socket: a response queued behind a pipelined one has no socket of its own yet.
    for (let t = this.head; t !== null; t = t.deadlineNext as Tracked | null) sockets.add(t.req.socket);
    return sockets;
  }

  /** Whether a response started after `res` is pending on the same connection (a pipelined request). */
  hasLaterOnConnection(res: ServerResponse): boolean {
    const tracked = res as Tracked;
    if (tracked.deadlineDue === UNLINKED || tracked.deadlineDue === undefined) return false;
    const socket = res.req.socket;
    for (let t = tracked.deadlineNext as Tracked | null; t !== null; t = t.deadlineNext as Tracked | null) {
      if (t.req.socket === socket) return true;
    }
    return false;
  }

  get size(): number {
    return this.count;
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private append(t: Tracked, due: number): void {
    t.deadlineDue = due;
    t.deadlinePrev = this.tail;
    t.deadlineNext = null;
    if (this.tail === null) this.head = t;
    else this.tail.deadlineNext = t;
    this.tail = t;
    this.count++;
  }

  private remove(t: Tracked): void {
    if (t.deadlineDue === UNLINKED) return;
    const prev = t.deadlinePrev as Tracked | null;
    const next = t.deadlineNext as Tracked | null;
    if (prev === null) this.head = next;
    else prev.deadlineNext = next;
    if (next === null) this.tail = prev;
    else next.deadlinePrev = prev;
    t.deadlineDue = UNLINKED;
    t.deadlinePrev = null;
    t.deadlineNext = null;
    this.count--;
  }

  private sweep(): void {
    const now = performance.now();
    // Re-added responses go to the end, behind `last`: each is looked at once per sweep.
    const last = this.tail;
    const expired: Tracked[] = [];
    for (let t = this.head; t !== null && t.deadlineDue <= now; t = this.head) {
      this.remove(t);
      // The client is still sending its request: the read timeout decides, the deadline moves on.
      if (!t.req.complete) this.append(t, now + this.timeoutMs);
      else expired.push(t);
      if (t === last) break;
    }
    // Timers run before the loop reads its sockets: a database's answer that arrived in time on
    // a starved server is read first, so a write committed in time is answered, not a 503.
    if (expired.length > 0) {
      const started = expired.map((t) => t.headersSent);
      setImmediate(() => expired.forEach((t, i) => this.expire(t, started[i]!)));
    }
    if (this.count === 0) this.stop();
  }

  private expire(t: Tracked, started: boolean): void {
    if (t.writableFinished || t.destroyed) return;
    t.off("close", this.forget);
    if (started || !t.headersSent) return this.onExpired(t);
    // Answered from what was read first, and still being written: its writing gets a deadline.
    this.add(t, performance.now());
    t.on("close", this.forget);
  }
}
