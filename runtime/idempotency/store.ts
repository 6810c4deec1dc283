// Answers of action calls made with an `Idempotency-Key`, kept in the table
// `svc_idempotency_keys` (compiler/analyze/stores/idempotency-store.ts) so that they hold across
// processes and restarts, as webhook deliveries do (runtime/webhooks/deliveries.ts).
//
// One transaction per call holds the key's row and the action's writes:
// - the row is claimed first, so a second call with the key (in this process or another)
//   waits at its claim for the first to end: SQLite's write lock, the unique primary key
//   elsewhere (PostgreSQL's serializable transaction then fails with a serialization error,
//   and the adapter runs it again, when it sees the committed row). It then replays the
//   first call's answer, or runs if the first rolled back;
// - the answer is stored before COMMIT: a committed action always has its answer stored,
//   and a call that did not commit (a `fail`, a bad argument, a 5xx) leaves no row, so a
//   retry runs it again; it wrote nothing the first time;
// - a row past its lifetime is deleted and claimed afresh; expired rows are also swept,
//   outside any call's transaction, at most once a minute per process.
//
// The row's id and its fingerprint are derived from the client's key (keyed.ts); the key
// column is left empty, so the table holds no key in clear. No call of an action that
// handles credentials comes here (server.ts, pages/route-request.ts).

import { HttpError } from "../core/errors.js";
import type { Logger } from "../core/log.js";
import type { Awaitable, CallContext, Database, IdempotencySpec } from "../contract/index.js";
import { boundTo } from "./bound.js";
import { type KeyedCall, rowKeys } from "./keyed.js";

/** How long a key's answer is kept: a day, as Stripe keeps them. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** The least time between two sweeps of expired rows by one process. */
export const SWEEP_INTERVAL_MS = 60 * 1000;

/** What a call answers: `replayed` when it is a stored answer and nothing ran. */
export interface IdempotentAnswer {
  status: number;
  /** The answer's data as JSON text. */
  body: string;
  replayed: boolean;
}

/** Milliseconds since the Unix epoch; tests pass a fake one. */
export type MsClock = () => number;

// A committed row always holds its answer; status 0 is only ever seen by the transaction
// that claimed the row.
const CLAIMED = 0;
// Rows hold no key in clear (keyed.ts); the column stays for the tables made before.
const NO_KEY = "";

export class IdempotencyStore {
  private nextSweep = 0;

  constructor(
    private readonly spec: IdempotencySpec,
    private readonly db: Database,
    private readonly log: Logger,
    private readonly clock: MsClock = Date.now,
  ) {}

  /**
   * Runs `run` once for the call's key: the first call runs it in a transaction with the
   * key's row and stores what `encode` makes of its result (text, with status 200 unless
   * `encode` gives one); a later call with the same request gets that answer back and runs
   * nothing. Another request with the key is a 422 for a signed-in caller, and a call of
   * its own for an anonymous one (keyed.ts). `run` gets a database bound to the
   * transaction. `db`: the request's view of the store's database, when traced (Database.under).
   */
  async call<T>(
    keyed: KeyedCall,
    run: (db: Database) => Awaitable<T>,
    encode: (result: T) => string | { status: number; body: string },
    db: Database = this.db,
  ): Promise<IdempotentAnswer> {
    const { id, fingerprint } = rowKeys(keyed);
    const answer = await db.transaction(async (tx): Promise<IdempotentAnswer> => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const now = this.clock();
        const claimed = await tx.run(this.spec.claim, [id, keyed.target, NO_KEY, fingerprint, now + KEY_LIFETIME_MS]);
        if (claimed > 0) {
          const encoded = encode(await run(boundTo(db, tx)));
          const { status, body } = typeof encoded === "string" ? { status: 200, body: encoded } : encoded;
          await tx.run(this.spec.settle, [status, body, id]);
          return { status, body, replayed: false };
        }
        const row = await tx.one(this.spec.lookup, [id]);
        if (row === null) continue;
        if (Number(row.expires_at) <= now) {
          await tx.run(this.spec.expire, [id, now]);
          continue;
        }
        if (row.fingerprint !== fingerprint) {
          throw new HttpError(422, "this Idempotency-Key was used with a different request; use a new key for a new request", { code: "SVC_ERR_IDEMPOTENCY_MISMATCH" });
        }
        const status = Number(row.status);
        if (status === CLAIMED || typeof row.body !== "string") {
          throw new HttpError(409, "a request with this Idempotency-Key is still being processed", { code: "SVC_ERR_IDEMPOTENCY_IN_PROGRESS" });
        }
        return { status, body: row.body, replayed: true };
      }
      // Claimed, deleted and claimed again by others between each of our statements.
      throw new HttpError(503, "this Idempotency-Key is contended; try again", { code: "SVC_ERR_IDEMPOTENCY_CONTENDED", headers: { "Retry-After": "1" } });
    });
    this.maybeSweep();
    return answer;
  }

  /** Deletes expired rows at most once per SWEEP_INTERVAL_MS, in the background; a failure is logged and retried later. */
  private maybeSweep(): void {
    const now = this.clock();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    this.db.run(this.spec.sweep, [now]).then(
      (deleted) => {
        if (deleted > 0) this.log.debug("expired idempotency keys deleted", { deleted });
      },
      (err: unknown) => this.log.warn("could not delete expired idempotency keys", { error: err instanceof Error ? err.message : String(err) }),
    );
  }
}
