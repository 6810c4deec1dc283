// The delivery loop of one server process (docs/language.md §2.9, "Delivery"). Woken right
// after an action that emitted commits, and by a poll timer for what it was not woken for
// (retries falling due, events of a server that stopped or died). Each pass fans new events
// out to their subscribers, leases due deliveries and sends them, at most CONCURRENCY at a
// time. Every attempt is one log line; a stop aborts attempts in flight and gives their
// leases back.

import { performance } from "node:perf_hooks";
import type { Credentials } from "../core/credentials.js";
import type { Logger } from "../core/log.js";
import type { Database, LaterSpans } from "../contract/index.js";
import { retryDelayMs } from "./backoff.js";
import { claimDue, fanOut, type Leased } from "./claim.js";
import { post } from "./deliver.js";
import { leaseMs, leaseOwner, releaseLeases } from "./lease.js";
import { signedHeaders, signingKey } from "./sign.js";
import { BATCH, outboxStatements as sql } from "./table.js";
import type { EventsSpec, OutboxWake, SubscriberSpec } from "../contract/events.js";
import { SvcError } from "../core/errors.js";

/** Deliveries one process sends at once. */
export const CONCURRENCY = 8;

export interface OutboxDepth {
  /** Deliveries waiting (retries included) and events not yet fanned out. */
  pending: number;
  /** Deliveries that used up their attempts, kept with their last error. */
  failed: number;
  delivered: number;
  /** Age of the oldest pending delivery, in seconds; null when none. */
  oldestPendingSeconds: number | null;
}

interface Subscriber extends SubscriberSpec {
  key: Buffer;
}

export class Outbox implements OutboxWake {
  private readonly owner = leaseOwner();
  private readonly subscribers: Subscriber[];
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private pass: Promise<void> | null = null;
  private again = false;
  private poller: NodeJS.Timeout | null = null;
  private stopped: Promise<void> | null = null;
  private lastDepth: OutboxDepth = { pending: 0, failed: 0, delivered: 0, oldestPendingSeconds: null };

  /** Throws an Error naming the subscriber whose secret is no key. */
  constructor(
    private readonly spec: EventsSpec,
    private readonly db: Database,
    credentials: Credentials,
    private readonly log: Logger,
    private readonly clock: () => number = Date.now,
    private readonly spans: LaterSpans | null = null,
  ) {
    this.subscribers = spec.subscribers.map((s) => {
      try {
        return { ...s, key: signingKey(credentials.get(s.secret)) };
      } catch (err) {
        throw new SvcError("SVC_ERR_CREDENTIAL", `events subscriber "${s.name}": credential "${s.secret}" ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }

  /** Starts polling, and a first pass for what is there already. */
  start(): void {
    this.poller = setInterval(() => this.wake(), this.spec.pollMs);
    this.poller.unref();
    this.wake();
  }

  /** A pass soon (now, or right after the one running): called after a commit that emitted. */
  wake(): void {
    if (this.stopping.signal.aborted) return;
    if (this.pass !== null) {
      this.again = true;
      return;
    }
    this.pass = this.run().finally(() => {
      this.pass = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** What /health shows: as of the last pass. */
  depth(): OutboxDepth {
    return this.lastDepth;
  }

  /** Stops taking work, aborts attempts in flight (not counted) and gives their leases back. Never rejects. */
  stop(): Promise<void> {
    return (this.stopped ??= this.halt());
  }

  private async halt(): Promise<void> {
    this.stopping.abort();
    if (this.poller !== null) clearInterval(this.poller);
    for (const t of this.timers) clearTimeout(t);
    await this.pass;
    await Promise.all(this.inFlight);
    try {
      await releaseLeases(this.db, this.owner);
    } catch (err) {
      this.log.warn("outbox: could not give back leases; they expire by themselves", { error: message(err) });
    }
  }

  private async run(): Promise<void> {
    try {
      const now = this.clock();
      // A full batch may have left more behind: another pass right after this one.
      if ((await fanOut(this.db, this.subscribers, now)) === BATCH) this.again = true;
      const room = CONCURRENCY - this.inFlight.size;
      if (room > 0 && !this.stopping.signal.aborted) {
        const leased = await claimDue(this.db, this.owner, now, now + leaseMs(this.spec.timeoutMs), room);
        for (const d of leased) this.send(d);
      }
      await this.measure(now);
    } catch (err) {
      if (!this.stopping.signal.aborted) this.log.warn("outbox pass failed; trying again at the next poll", { error: message(err) });
    }
  }

  private send(d: Leased): void {
    const attempt = this.attempt(d).finally(() => {
      this.inFlight.delete(attempt);
      // Room for one more: deliveries already due need not wait for the poll.
      this.wake();
    });
    this.inFlight.add(attempt);
  }

  private async attempt(d: Leased): Promise<void> {
    const subscriber = this.subscribers.find((s) => s.name === d.subscriber);
    const number = d.attempts + 1;
    const started = performance.now();
    const now = this.clock();
    const send = (url: string, key: Buffer) => (trace: Record<string, string>) =>
      post(url, { ...signedHeaders(key, d.eventId, Math.floor(now / 1000), d.body), ...trace }, d.body, {
        timeoutMs: this.spec.timeoutMs,
        stop: this.stopping.signal,
      });
    const outcome =
      subscriber === undefined
        ? { status: null, ok: false, error: `no subscriber "${d.subscriber}" in this server's svc.toml` }
        : this.spans === null
          ? await send(subscriber.url, subscriber.key)({})
          : await this.spans.client(`POST ${d.subscriber}`, deliveryAttributes(subscriber.url, d, number), d.emittedBy, send(subscriber.url, subscriber.key));
    // Cut short by a stop: not an attempt; the lease is given back with the others.
    if (this.stopping.signal.aborted && outcome.error === "stopped") return;
    const durationMs = Math.round(performance.now() - started);
    const state = outcome.ok ? "delivered" : number >= this.spec.maxAttempts ? "failed" : "pending";
    const delay = state === "pending" ? retryDelayMs({ firstMs: this.spec.firstRetryMs, maxMs: this.spec.maxRetryMs }, number) : 0;
    const fields = {
      event_id: d.eventId,
      event: d.type,
      subscriber: d.subscriber,
      attempt: number,
      status: outcome.status,
      duration_ms: durationMs,
      outcome: state,
      ...(outcome.error !== null && { error: outcome.error }),
      ...(state === "pending" && { retry_in_ms: delay }),
    };
    if (state === "failed") this.log.warn("event delivery", fields);
    else this.log.info("event delivery", fields);
    try {
      const settledAt = this.clock();
      await this.db.run(sql.settle, [state, number, settledAt + delay, outcome.status, outcome.error, d.id, this.owner]);
    } catch (err) {
      // The lease expires by itself and the delivery is tried again: at least once.
      this.log.warn("outbox: could not record a delivery attempt", { event_id: d.eventId, subscriber: d.subscriber, error: message(err) });
      return;
    }
    if (state === "pending" && !this.stopping.signal.aborted) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.wake();
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }

  private async measure(now: number): Promise<void> {
    const rows = await this.db.all(sql.depth, []);
    const unfanned = await this.db.one(sql.unfannedCount, []);
    const depth: OutboxDepth = { pending: Number(unfanned?.n ?? 0), failed: 0, delivered: 0, oldestPendingSeconds: null };
    for (const row of rows) {
      const n = Number(row.n);
      if (row.state === "pending") {
        depth.pending += n;
        depth.oldestPendingSeconds = Math.max(0, Math.floor((now - Number(row.oldest)) / 1000));
      } else if (row.state === "failed") depth.failed = n;
      else if (row.state === "delivered") depth.delivered = n;
    }
    this.lastDepth = depth;
  }
}

/**
 * A delivery's client span attributes (HTTP client conventions). The URL without its userinfo
 * and query, which may hold a subscriber's token; the retry count as `http.request.resend_count`.
 */
function deliveryAttributes(url: string, d: Leased, attempt: number): Record<string, string | number> {
  // svc.toml's URL was checked at build; a span's attributes must not be what fails a delivery.
  const u = URL.canParse(url) ? new URL(url) : null;
  return {
    "http.request.method": "POST",
    ...(u !== null && {
      "server.address": u.hostname,
      "server.port": Number(u.port || (u.protocol === "https:" ? 443 : 80)),
      "url.full": `${u.protocol}//${u.host}${u.pathname}`,
    }),
    ...(attempt > 1 && { "http.request.resend_count": attempt - 1 }),
    "svc.subscriber": d.subscriber,
    "svc.event": d.type,
    "svc.event.id": d.eventId,
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
