// Statements and transactions on their way to postgres.js (postgres/index.ts), each on a
// lane: a postgres.js client of one connection. A pool of them, not one postgres.js pool of
// many connections, because postgres.js keeps its idle connections in a queue that only
// empties when every connection is busy at once: under a load that leaves one idle, each
// statement adds a slot to it for good and scans all of them (Array#indexOf) to move its
// connection out, so a server slowed down and grew with every statement it had ever run
// (measured: 45 µs a statement after 40,000, 107 µs after 240,000). A one-connection
// client's queues hold at most that connection.
//
// Left to itself, postgres.js also queues a statement while every connection is busy and
// sends it whenever one frees up, however late; and a statement it is told to drop while a
// connection is being opened for it leaves that connection out of the pool for good. So the
// queue is kept here: a statement is handed to a free lane, one at a time per lane, and the
// rest wait here, in order.
//
// Every statement has a deadline, a little before its request's write timeout:
// - one still waiting here when its wait ends (acquire_timeout_ms, or the deadline if
//   sooner) is never handed over: 503 "database busy";
// - one still running on the server at its deadline is cancelled there (a CancelRequest),
//   so it cannot commit after its client was answered 503.
// A lane whose statement failed can be swapped for a new one (`renew`): postgres.js keeps
// state across a lost connection (an error the server sent as it closed is given to the
// next statement on the reopened one), so the adapter starts such a lane afresh.
//
// A statement handed to a connection still being opened waits for it at most
// connect_timeout, which postgres/index.ts keeps within the deadline too.
//
// postgres.js loses a statement handed to a connection between its socket's "error" and
// "close" events (a reset by the peer): it takes the statement, the socket is gone so
// nothing is written, and the close that follows settles only what the error found. So a
// lane reports each close of its connection (`closed`), and a statement still taken there
// is settled here: since nothing was sent, it is sent again on a fresh lane instead of
// waiting, unanswered, for its request's write timeout. A transaction's BEGIN is lost the
// same way; until BEGIN is answered its work has not started, so it is begun again too
// (`beginning`).
//
// postgres.js marks a query taken by a connection by setting its `state` (the backend's
// key) and `active`, and cancels through its `canceller`: none of it is typed API.

import { performance } from "node:perf_hooks";
import type { ConnectionPool } from "../../contract/index.js";
import { busyError } from "../net/errors.js";

/** The parts of a postgres.js query the gate uses. */
export interface GatedQuery<T> extends PromiseLike<T> {
  state?: unknown;
  active?: boolean;
  canceller?: ((query: never) => unknown) | null;
  /** Settles the query (postgres.js's own; a second settlement does nothing). */
  reject?: (err: unknown) => void;
}

interface Waiter {
  send: () => void;
  fail: (err: unknown) => void;
  /** Not handed over past this. */
  waitUntil: number;
  /** performance.now() as it began to wait, when `acquired` is on (0 otherwise). */
  since: number;
}

interface Running {
  query: GatedQuery<unknown>;
  deadline: number;
  lane: unknown;
}

/** How often deadlines are checked while statements run or wait. */
const SWEEP_MS = 50;

export class SendGate<L> implements ConnectionPool {
  /**
   * At most one per lane, in no order. An array: with a Set here every server of 18 fell into
   * the mode where every query is promoted, with the array half of 12 did; most likely the
   * Set's code took more of the inlining budget that `start` explains, which `start` no longer
   * shares with its callers.
   */
  private running: Running[] = [];
  /** Lanes with nothing running, the last freed on top: the busiest connections stay warm. */
  private free: L[];
  private waiting: (Waiter | undefined)[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  acquired: ConnectionPool["acquired"] = null;

  constructor(
    lanes: readonly L[],
    private readonly acquireTimeoutMs: number,
    /** How many may wait; one more is refused at once (503), having waited for nothing. */
    private readonly queueLimit: number,
    /** The lane to use after `lane` ran a statement that failed with `err`. */
    private readonly renew: (lane: L, err: unknown) => L = (lane) => lane,
    /** The `pool` label of its metrics. */
    readonly name = "statements",
  ) {
    this.free = [...lanes].reverse();
  }

  /** Statements handed to postgres.js and not settled yet. */
  get inFlight(): number {
    return this.running.length;
  }

  /** Statements waiting for a lane. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  get inUse(): number {
    return this.running.length;
  }

  get idle(): number {
    return this.free.length;
  }

  /**
   * Runs `send(lane)` (which creates the query: postgres.js sends it only then) once a lane
   * is free and before `deadline`, a `Date.now()` time; cancels it on the server past that.
   */
  run<T>(send: (lane: L) => GatedQuery<T>, deadline: number): Promise<T> {
    if (this.free.length > 0 && this.queued === 0) {
      // A lane at once: no wait, which the acquire histogram counts as such.
      if (this.acquired !== null) this.acquired.observe(0);
      return this.start(send, deadline);
    }
    if (this.queued >= this.queueLimit) return Promise.reject(queueFull(this.queueLimit));
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        send: () => this.start(send, deadline).then(resolve, reject),
        fail: reject,
        waitUntil: Math.min(Date.now() + this.acquireTimeoutMs, deadline),
        since: this.acquired === null ? 0 : performance.now(),
      });
      this.arm();
    });
  }

  /**
   * Async for the garbage collector's sake, not for an await's: V8 never inlines an async
   * function into its caller, so this is a compilation of its own, with room left to inline
   * `send` down to postgres.js's Query constructor. Inlined into the whole chain above it
   * (statement, run, …) the constructor did not fit V8's inlining budget and ran unoptimized,
   * where its two `this.resolve = x => …` closures are allocated in the old generation (V8
   * pretenures a function literal assigned to a property); each kept its query and everything
   * the query held alive through every scavenge until the next mark-compact: 400-900 bytes a
   * request promoted (bench/README.md, "What a PostgreSQL server promotes"). Optimized, the
   * closures are young and die with the query. The body up to the await runs synchronously,
   * as before: the query is created and counted before `run` returns.
   */
  private async start<T>(send: (lane: L) => GatedQuery<T>, deadline: number): Promise<T> {
    const lane = this.free.pop()!;
    let query: GatedQuery<T>;
    try {
      query = send(lane);
    } catch (err) {
      // Nothing was handed over: the lane goes to the next waiter.
      this.free.push(lane);
      this.next();
      throw err;
    }
    const item: Running = { query, deadline, lane };
    this.running.push(item);
    this.arm();
    let value: T;
    try {
      value = await query;
    } catch (err) {
      this.done(item, this.renew(lane, err));
      if (err instanceof UnsentError && Date.now() < deadline) return this.run(send, deadline);
      throw err;
    }
    this.done(item, lane);
    return value;
  }

  /**
   * `lane`'s connection closed. A statement it had taken and postgres.js has not settled by
   * now was never written (see the top of this file); it fails with UnsentError, which
   * `start` answers by sending it again. One postgres.js did settle ignores this.
   */
  closed(lane: L): void {
    for (const item of this.running) {
      if (item.lane !== lane) continue;
      const query = item.query;
      if (query.active === true && typeof query.reject === "function") query.reject(new UnsentError());
    }
  }

  private done(item: Running, next: L): void {
    // The last one takes the place of the one that is done.
    const last = this.running.pop()!;
    if (last !== item) this.running[this.running.indexOf(item)] = last;
    this.free.push(next);
    this.next();
  }

  /** Hands the oldest waiter still in time the lane just freed. */
  private next(): void {
    const now = Date.now();
    while (this.free.length > 0 && this.head < this.waiting.length) {
      const w = this.shift();
      if (w.waitUntil <= now) w.fail(gaveUp(this.acquireTimeoutMs));
      else {
        if (this.acquired !== null && w.since !== 0) this.acquired.observe((performance.now() - w.since) / 1000);
        w.send();
      }
    }
  }

  private shift(): Waiter {
    const w = this.waiting[this.head]!;
    this.waiting[this.head++] = undefined;
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
    }
    return w;
  }

  private arm(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => this.sweep(), SWEEP_MS);
    // A pending sweep must not keep a closing process alive.
    this.timer.unref();
  }

  private sweep(): void {
    this.timer = null;
    const now = Date.now();
    for (const item of this.running) {
      if (item.deadline <= now) cancelOnServer(item.query);
    }
    if (this.head < this.waiting.length) {
      // Waiters leave in order; one whose wait ended behind one still in time is failed here.
      const kept: Waiter[] = [];
      for (let i = this.head; i < this.waiting.length; i++) {
        const w = this.waiting[i]!;
        if (w.waitUntil <= now) w.fail(gaveUp(this.acquireTimeoutMs));
        else kept.push(w);
      }
      this.waiting = kept;
      this.head = 0;
    }
    if (this.running.length > 0 || this.queued > 0) this.arm();
  }

  /** At close: the waiting statements get their 503, and no timer is left. */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const waiting = this.waiting.slice(this.head);
    this.waiting = [];
    this.head = 0;
    for (const w of waiting) w!.fail(gaveUp(this.acquireTimeoutMs));
  }
}

/**
 * A transaction as the gate sees it: taken (`active`), so settled here if its connection
 * closes, until `begin` calls `began`, as BEGIN is answered; from then on postgres.js fails
 * it when the connection closes.
 */
export function beginning<T>(begin: (began: () => void) => Promise<T>): GatedQuery<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const settled = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  const tx: GatedQuery<T> = { then: settled.then.bind(settled), active: true, reject };
  begin(() => (tx.active = false)).then(resolve, reject);
  return tx;
}

/**
 * A statement whose connection closed before it was written: it did nothing. Its code is one
 * of postgres.js's connection codes, so the lane that took it is replaced (gateOf).
 */
export class UnsentError extends Error {
  readonly code = "CONNECTION_CLOSED";
  constructor() {
    super("the connection closed before the statement was sent");
  }
}

/** A burst beyond the queue: nothing was sent (docs/backends.md, "What a 503 promises"). */
export function queueFull(limit: number): unknown {
  return busyError(new Error(`${limit} requests are waiting for a connection already (queue_limit)`));
}

function gaveUp(acquireTimeoutMs: number): unknown {
  return busyError(new Error(`no connection free within ${acquireTimeoutMs} ms`));
}

/**
 * Asks the server to cancel a statement a connection is running. Only a taken query is
 * cancelled: one postgres.js has not sent yet is waiting for its connection to open,
 * which connect_timeout bounds. Once: the canceller is dropped as postgres.js's own
 * `cancel()` does, whose promise would go unhandled when the cancel cannot connect.
 */
function cancelOnServer(query: GatedQuery<unknown>): void {
  const canceller = query.canceller;
  if (typeof canceller !== "function" || !query.state || query.active !== true) return;
  query.canceller = null;
  Promise.resolve((canceller as (q: unknown) => unknown)(query)).catch(() => undefined);
}
