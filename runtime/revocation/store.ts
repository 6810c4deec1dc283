// Revocation (docs/auth.md "Revocation"): `revoke(subject)` in an action writes the moment
// before which the subject's JWTs are refused into `svc_revocations`; every process reads
// the live rows into a map, at most REFRESH_MS old, so a verified JWT costs one Map lookup
// more (usually a miss), never a database read. The refresh is awaited by the JWT request
// that finds the map too old, never in the background, so no process accepts a revoked
// token more than REFRESH_MS after the revoking transaction committed. The process that
// revokes learns it at once.
//
// A row lives as long as a token it refuses could: the JWT lifetime (at least a day, for an
// outside provider's tokens, whose lifetime svc does not set); expired rows are swept at
// most once a minute per process, like the idempotency store's.

import { createHash } from "node:crypto";
import type { Logger } from "../core/log.js";
import type { Database, Executor } from "../contract/index.js";
import { revocationStatements as sql } from "./table.js";

/** How old a process's copy of the revocations may be: the documented staleness bound. */
export const REFRESH_MS = 2_000;
/** The least time between two sweeps of expired rows by one process. */
export const SWEEP_INTERVAL_MS = 60_000;
/** The least time a row is kept: outside providers' tokens live for an hour, rarely a day. */
export const MIN_RETENTION_MS = 24 * 60 * 60 * 1000;

export type MsClock = () => number;

export class Revocations {
  /** Subject → not-before (ms). Replaced whole at each refresh. */
  private notBefore = new Map<string, number>();
  private freshUntil = 0;
  private refreshing: Promise<void> | null = null;
  private nextSweep = 0;
  private readonly retentionMs: number;

  constructor(
    private readonly db: Database,
    private readonly log: Logger | null,
    jwtLifetimeS: number,
    private readonly clock: MsClock = Date.now,
  ) {
    this.retentionMs = Math.max(jwtLifetimeS * 1000, MIN_RETENTION_MS);
  }

  /**
   * Whether a JWT issued at `iatS` (seconds, may be fractional) to `subject` still stands.
   * This is the hot path of every JWT request: a clock read and a Map lookup; a Promise only
   * when the copy is older than REFRESH_MS.
   */
  stands(subject: string, iatS: unknown): boolean | Promise<boolean> {
    if (this.clock() < this.freshUntil) return this.judge(subject, iatS);
    return this.refresh().then(() => this.judge(subject, iatS));
  }

  private judge(subject: string, iatS: unknown): boolean {
    const notBefore = this.notBefore.get(subject);
    if (notBefore === undefined) return true;
    // A token without iat cannot show it came after the revocation.
    return typeof iatS === "number" && iatS * 1000 >= notBefore;
  }

  /** One refresh at a time; every request that finds the copy old waits for the same one. */
  private refresh(): Promise<void> {
    return (this.refreshing ??= this.load().finally(() => (this.refreshing = null)));
  }

  private async load(): Promise<void> {
    const now = this.clock();
    const rows = await this.db.all(sql.live, [now]);
    const next = new Map<string, number>();
    for (const row of rows) {
      const subject = String(row.subject);
      const at = Number(row.not_before);
      if (at > (next.get(subject) ?? -Infinity)) next.set(subject, at);
    }
    // Revocations this process made while the read ran may not be in it yet.
    for (const [subject, at] of this.notBefore) {
      if (at > now - REFRESH_MS && at > (next.get(subject) ?? -Infinity)) next.set(subject, at);
    }
    this.notBefore = next;
    this.freshUntil = now + REFRESH_MS;
    this.maybeSweep(now);
  }

  /**
   * Refuses every JWT of `subject` issued before now, on `tx` (the action's transaction);
   * this process refuses them at once, the others within REFRESH_MS of the commit.
   */
  async revoke(tx: Executor, subject: string): Promise<void> {
    const now = this.clock();
    await tx.run(sql.revoke, [rowId(subject), subject, now, now + this.retentionMs]);
    if (now > (this.notBefore.get(subject) ?? -Infinity)) this.notBefore.set(subject, now);
  }

  /** Deletes expired rows at most once per SWEEP_INTERVAL_MS, in the background; a failure is logged and retried later. */
  private maybeSweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    this.db.run(sql.sweep, [now]).then(
      (deleted) => {
        if (deleted > 0) this.log?.debug("expired revocations deleted", { deleted });
      },
      (err: unknown) => this.log?.warn("could not delete expired revocations", { error: err instanceof Error ? err.message : String(err) }),
    );
  }
}

/** The row's key: the subject's SHA-256, 64 hex digits whatever its length. */
export function rowId(subject: string): string {
  return createHash("sha256").update(subject, "utf8").digest("hex");
}
