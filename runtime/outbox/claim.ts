// Finding work: events emitted since the last pass are fanned out to their subscribers
// (one delivery row each), then due deliveries are leased one by one.

import { createHash } from "node:crypto";
import type { Database, Row, TraceCarrier } from "../contract/index.js";
import { takeLease } from "./lease.js";
import { outboxStatements as sql } from "./table.js";

/** Who gets which events: `events` holds names, or `*` for every event. */
export interface SubscriberEvents {
  name: string;
  events: readonly string[];
}

/** The key of the delivery of event `eventId` to `subscriber`: 64 hex digits, whatever the lengths. */
export function deliveryId(eventId: string, subscriber: string): string {
  return createHash("sha256").update(eventId).update("\n").update(subscriber).digest("hex");
}

export function wants(subscriber: SubscriberEvents, type: string): boolean {
  return subscriber.events.includes("*") || subscriber.events.includes(type);
}

/**
 * Makes the delivery rows of events not fanned out yet, each event in one transaction
 * (its rows and its mark). Two processes doing it at once make each row once. Returns how
 * many events it fanned out.
 */
export async function fanOut(db: Database, subscribers: readonly SubscriberEvents[], now: number): Promise<number> {
  const events = await db.all(sql.unfanned, []);
  for (const event of events) {
    const id = String(event.id);
    const type = String(event.type);
    const created = Number(event.created_at);
    await db.transaction(async (tx) => {
      for (const s of subscribers) {
        if (wants(s, type)) await tx.run(sql.addDelivery, [deliveryId(id, s.name), id, s.name, now, created]);
      }
      await tx.run(sql.fannedOut, [id]);
    });
  }
  return events.length;
}

/** A delivery this process holds the lease of, with its event. */
export interface Leased {
  id: string;
  eventId: string;
  subscriber: string;
  /** Attempts made before this one. */
  attempts: number;
  type: string;
  body: string;
  /** The emitting span (W3C), when it was traced. */
  emittedBy: TraceCarrier | null;
}

/** Leases up to a batch of due deliveries; the ones another process took first are skipped. */
export async function claimDue(db: Database, owner: string, now: number, until: number, room: number): Promise<Leased[]> {
  const due = await db.all(sql.due, [now]);
  const claimed: Leased[] = [];
  for (const row of due) {
    if (claimed.length >= room) break;
    const id = String(row.id);
    if (!(await takeLease(db, owner, id, now, until))) continue;
    const leased = await db.one(sql.leased, [id]);
    if (leased !== null) claimed.push(toLeased(leased));
  }
  return claimed;
}

function toLeased(row: Row): Leased {
  return {
    id: String(row.id),
    eventId: String(row.event_id),
    subscriber: String(row.subscriber),
    attempts: Number(row.attempts),
    type: String(row.type),
    body: String(row.body),
    emittedBy: typeof row.traceparent === "string" ? { traceparent: row.traceparent, tracestate: typeof row.tracestate === "string" ? row.tracestate : null } : null,
  };
}
