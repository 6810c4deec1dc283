// Leases on deliveries: a process sends a delivery only while it holds the row's lease, so
// two servers on one database do not both send it. A lease outlives the attempt it covers
// (the attempt's timeout plus a margin); a process that dies leaves its leases to expire,
// and its deliveries are taken by whoever polls next. At least once: a process that dies
// after the subscriber answered but before the row was settled sends again.

import { randomBytes } from "node:crypto";
import type { Executor } from "../contract/index.js";
import { outboxStatements as sql } from "./table.js";

/** Extra time a lease holds past its attempt's timeout: settling the row takes a moment too. */
export const LEASE_MARGIN_MS = 30_000;

/** A name for this process's leases, unique among processes on the database. */
export function leaseOwner(): string {
  return `${process.pid}-${randomBytes(8).toString("hex")}`;
}

export function leaseMs(timeoutMs: number): number {
  return timeoutMs + LEASE_MARGIN_MS;
}

/** Takes the lease of delivery `id` until `until`; false when another process holds it or it is settled. */
export async function takeLease(db: Executor, owner: string, id: string, now: number, until: number): Promise<boolean> {
  return (await db.run(sql.lease, [owner, until, id, now])) === 1;
}

/** Gives back every lease `owner` holds (a graceful stop): the deliveries are due again at once, for any process. */
export async function releaseLeases(db: Executor, owner: string): Promise<number> {
  return db.run(sql.release, [owner]);
}
