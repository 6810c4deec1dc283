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
 * Per-response deadlines, swept on one timer rather than a timer per request. Every
 * response gets the same timeout, so insertion order is deadline order and a sweep stops
 * at the first response still in time.
 */
export class WriteDeadlines {
  readonly timeoutMs: number;
  private readonly pending = new Map<ServerResponse, number>();
  private readonly onExpired: (res: ServerResponse) => void;
  private readonly forget: (this: ServerResponse) => void;
  private timer: NodeJS.Timeout | null = null;

  constructor(timeoutMs: number, onExpired: (res: ServerResponse) => void) {
    this.timeoutMs = timeoutMs;
    this.onExpired = onExpired;
    const pending = this.pending;
    // One listener function for all responses: no closure per request.
    this.forget = function (this: ServerResponse): void {
      pending.delete(this);
    };
  }

  /** Hot path: `startedAt` is the request's `performance.now()`. */
  add(res: ServerResponse, startedAt: number): void {
    this.pending.set(res, startedAt + this.timeoutMs);
    // 'close' follows 'finish', and also comes when the connection dies first. `on`, not
    // `once`: once() allocates a wrapper per call, and the response is dropped after anyway.
    res.on("close", this.forget);
    if (this.timer === null) {
      this.timer = setInterval(() => this.sweep(), checkingInterval(this.timeoutMs));
      this.timer.unref();
    }
  }

  /** Connections with a response still being made or sent. */
  busySockets(): Set<Socket> {
    const sockets = new Set<Socket>();
    // req.socket: a response queued behind a pipelined one has no socket of its own yet.
    for (const res of this.pending.keys()) sockets.add(res.req.socket);
    return sockets;
  }

  /** Whether a response started after `res` is pending on the same connection (a pipelined request). */
  hasLaterOnConnection(res: ServerResponse): boolean {
    const socket = res.req.socket;
    let later = false;
    for (const other of this.pending.keys()) {
      if (other === res) later = true;
      else if (later && other.req.socket === socket) return true;
    }
    return false;
  }

  get size(): number {
    return this.pending.size;
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private sweep(): void {
    const now = performance.now();
    for (const [res, deadline] of this.pending) {
      if (deadline > now) break;
      this.pending.delete(res);
      if (!res.req.complete) {
        // Re-added at the end, where a later deadline belongs.
        this.pending.set(res, now + this.timeoutMs);
        continue;
      }
      res.off("close", this.forget);
      this.onExpired(res);
    }
    if (this.pending.size === 0) this.stop();
  }
}
