// Taking ready jobs (docs/language.md §2.8). PostgreSQL and MySQL 8 / MariaDB 10.6 read the
// ready rows `FOR UPDATE SKIP LOCKED`, so servers claiming at once each take different rows
// and none waits for another; SQLite claims in one UPDATE … RETURNING under the write lock
// its transactions take. A claim sets a lease (the row's `run_at`, timeout plus a margin):
// a process that dies holding it loses the job to the next claim after it ends.

import type { Database, Row, TraceCarrier } from "../contract/index.js";
import { jobStatements as sql } from "./table.js";

export interface Claimed {
  id: string;
  job: string;
  args: string;
  attempt: number;
  maxAttempts: number;
  timeoutMs: number;
  /** The span that enqueued it (W3C), when it was traced. */
  enqueuedBy: TraceCarrier | null;
}

/** Up to `limit` ready jobs, now leased to `owner`. */
export async function claim(db: Database, owner: string, limit: number, now: number): Promise<Claimed[]> {
  if (db.dialect === "sqlite") {
    const rows = await db.transaction((tx) => tx.all(sql.claimBatch, [owner, now, limit]));
    return rows.map(claimed);
  }
  if (db.dialect === "postgres") {
    const rows = await db.transaction((tx) => tx.all(sql.claimBatch, [owner, now, limit]), { isolation: "read committed" });
    return rows.map(claimed);
  }
  return db.transaction(
    async (tx) => {
      const ready = await tx.all(sql.ready, [now, limit]);
      const out: Claimed[] = [];
      for (const r of ready) {
        await tx.run(sql.claimOne, [owner, now, r.id]);
        const row = await tx.one(sql.claimed, [r.id]);
        if (row !== null) out.push(claimed(row));
      }
      return out;
    },
    // Read committed: SKIP LOCKED is what keeps claims apart; serializable would only add retries.
    { isolation: "read committed" },
  );
}

function claimed(r: Row): Claimed {
  return {
    id: String(r.id),
    job: String(r.job),
    args: String(r.args),
    attempt: Number(r.attempt),
    maxAttempts: Number(r.max_attempts),
    timeoutMs: Number(r.timeout_ms),
    enqueuedBy: typeof r.traceparent === "string" ? { traceparent: r.traceparent, tracestate: typeof r.tracestate === "string" ? r.tracestate : null } : null,
  };
}
