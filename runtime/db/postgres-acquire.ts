// The deadline on getting a connection, for statements outside a transaction (a
// transaction's own wait is in postgres.ts). postgres.js queues a query until a
// connection takes it, and pipelines it there; a query no connection has taken once the
// deadline passes is cancelled (postgres.js drops it from its queue, so it never runs)
// and its caller gets a 503. A query a connection has taken is left alone: the server's
// statement_timeout bounds it.
//
// Queries are watched in a ring, oldest first: they all get the same timeout, so they
// expire in the order they arrive, and one timer's sweep stops at the first one still in
// time. An entry leaves the ring as soon as its query has settled or been taken (and every
// query before it too), so the ring never keeps a finished query, or its rows, alive.
// postgres.ts watches a query only when every connection is already in use.
//
// postgres.js marks a query taken by setting its `state` (the connection's backend key),
// which is not part of its typed API: where a version lacks it, queries count as taken and
// are never cancelled here.

export interface Watched {
  /** Null once the query has settled: the watch is done with it. */
  query: { state?: unknown; cancel(): unknown } | null;
  deadline: number;
}

const SWEEP_MS = 100;

export class AcquireWatch {
  private ring: (Watched | undefined)[] = new Array(256);
  private mask = 255;
  /** Monotonic positions: `head` is the oldest entry, `tail` the next free one. */
  private head = 0;
  private tail = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly timeoutMs: number) {}

  watch(query: NonNullable<Watched["query"]>): Watched {
    if (this.tail - this.head === this.ring.length) this.grow();
    const item: Watched = { query, deadline: Date.now() + this.timeoutMs };
    this.ring[this.tail & this.mask] = item;
    this.tail++;
    if (this.timer === null) this.arm(Math.min(this.timeoutMs, SWEEP_MS));
    return item;
  }

  /** The query of `item` has settled. */
  settled(item: Watched): void {
    item.query = null;
    this.dropDone();
  }

  /** Lets go of entries at the front whose query settled or was taken. */
  private dropDone(): void {
    while (this.head < this.tail) {
      const slot = this.head & this.mask;
      const query = this.ring[slot]!.query;
      if (query !== null && query.state === null) return;
      this.ring[slot] = undefined;
      this.head++;
    }
  }

  private grow(): void {
    const size = this.ring.length;
    const next: (Watched | undefined)[] = new Array(size * 2);
    for (let i = 0; i < size; i++) next[i] = this.ring[(this.head + i) & this.mask];
    this.ring = next;
    this.mask = size * 2 - 1;
    this.tail = size;
    this.head = 0;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.sweep(), ms);
    // A pending sweep must not keep a closing process alive.
    this.timer.unref();
  }

  private sweep(): void {
    this.timer = null;
    const now = Date.now();
    this.dropDone();
    while (this.head < this.tail) {
      const slot = this.head & this.mask;
      const item = this.ring[slot]!;
      const query = item.query;
      if (query !== null && query.state === null) {
        if (item.deadline > now) break;
        query.cancel();
      }
      this.ring[slot] = undefined;
      this.head++;
    }
    if (this.head < this.tail) {
      const next = this.ring[this.head & this.mask]!.deadline - now;
      this.arm(Math.max(1, Math.min(SWEEP_MS, next)));
    }
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.ring = new Array(256);
    this.mask = 255;
    this.head = 0;
    this.tail = 0;
  }
}
