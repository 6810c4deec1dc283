// Password work never runs inside a transaction (docs/language.md, Transactions). A hash
// costs a second of CPU on a small machine, and a transaction holds what others wait for:
// on SQLite the one connection of the process and the file's write lock, elsewhere a pooled
// connection and the rows it locked. So an action that hashes or verifies runs in
// `passwordTransaction`, and its first hash or verify that has no result yet ends the
// attempt: the transaction rolls back (nothing else waits any longer), the hash runs on
// the thread pool with nothing held, and the action runs again from the start in a new
// transaction, where that call answers from memory. Whatever an attempt read is read
// again, so the transaction that commits saw exactly the values the hash was made for or
// checked against: a stored hash that changed in between misses the memory and is checked
// again. An action with k password calls runs k + 1 times (its reads are cheap next to a
// hash); past MAX_ATTEMPTS a call hashes in place, correct but holding the transaction.
//
// A salted hash made early is as good as one made late, so a hash made for attempt 1 is the
// one attempt 2 writes. Outside `passwordTransaction` (an action with one statement, which
// runs on the database directly) nothing is held and the calls hash in place.

import type { Awaitable, CallContext, Database, Executor, Isolation, Row, StatementSpec } from "../contract/index.js";
import { checkPassword, hashPassword as hash } from "./password.js";

/** Writes `next` where the row still holds `old`; the generated code binds the row's key. */
export type Rehash = (old: string, next: string) => Promise<unknown>;

/** Attempts of one call of an action; one more password call than this hashes inside the transaction. */
export const MAX_ATTEMPTS = 8;

type Step =
  | { kind: "hash"; plain: string; result: Promise<string> }
  | { kind: "verify"; stored: string | null; given: string | null; result: Promise<{ ok: boolean; next: string | null }> };

/** An attempt stopped for a password call that has no result yet; `passwordTransaction` runs it. */
class PasswordPending extends Error {
  constructor(readonly step: Step) {
    super("password work pending (runs outside the transaction)");
  }
}

/** The results of one action call's password calls, in the order the action makes them. */
class PasswordWork {
  readonly steps: Step[] = [];
  cursor = 0;
  attempts = 0;

  /** The memory of this call's step, or a pending stop (or, past the limit, the work done in place). */
  take<S extends Step>(matches: (s: Step) => s is S, make: () => S): S {
    const at = this.cursor++;
    const known = this.steps[at];
    if (known !== undefined && matches(known)) return known;
    // A different call at this turn (the data changed between attempts): what followed is stale too.
    this.steps.length = at;
    const step = make();
    this.steps.push(step);
    if (this.attempts >= MAX_ATTEMPTS) return step;
    throw new PasswordPending(step);
  }
}

/** The action's executor inside `passwordTransaction`: the transaction's, plus the call's password memory. */
class PasswordTx implements Executor {
  /** The transaction's span, when traced: what the action enqueues or emits links to it. */
  readonly span: Executor["span"];

  constructor(
    private readonly inner: Executor,
    readonly work: PasswordWork,
  ) {
    this.span = inner.span;
  }

  all(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row[]> {
    return this.inner.all(stmt, args);
  }

  one(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row | null> {
    return this.inner.one(stmt, args);
  }

  run(stmt: StatementSpec, args: readonly unknown[]): Promise<number> {
    return this.inner.run(stmt, args);
  }
}

/**
 * `db.transaction(fn)` for an action that hashes or verifies a password: each such call
 * that has no result yet rolls the attempt back, is worked out with nothing held, and the
 * action runs again (see the top of this file).
 */
export async function passwordTransaction<T>(
  db: Database,
  fn: (tx: Executor) => Awaitable<T>,
  ctx?: CallContext,
  isolation?: Isolation,
): Promise<T> {
  // Inside a transaction already open (the idempotency store's, bound.ts) an attempt cannot be
  // rolled back alone: hash in place. An action that hashes handles credentials and is never
  // run there from HTTP (server.ts drops its key); this holds if one ever is.
  if (db.nested === true) return db.transaction(fn);
  const work = new PasswordWork();
  // Every attempt keeps the first one's deadline: past it the client has its 503, which must mean "not written".
  const options = isolation === undefined ? { startedAt: Date.now() } : { startedAt: Date.now(), isolation };
  // A rolled-back attempt's cookies (start_session before a verify) must not reach the answer.
  const cookies = ctx?.cookies?.length ?? 0;
  for (;;) {
    work.cursor = 0;
    work.attempts++;
    if (ctx?.cookies !== undefined) ctx.cookies.length = cookies;
    try {
      return await db.transaction((tx) => fn(new PasswordTx(tx, work)), options);
    } catch (err) {
      if (!(err instanceof PasswordPending) || !work.steps.includes(err.step)) throw err;
      // Awaited with nothing held; a failure here is the action's failure, as it would have been inside.
      await err.step.result;
    }
  }
}

const isHash = (plain: string) => (s: Step): s is Extract<Step, { kind: "hash" }> => s.kind === "hash" && s.plain === plain;

/** A password field's value as written (`password: …` in insert/update): hashed with nothing held. */
export async function hashPassword(plain: string, tx?: Executor): Promise<string> {
  if (!(tx instanceof PasswordTx)) return hash(plain);
  return tx.work.take(isHash(plain), () => ({ kind: "hash", plain, result: settled(hash(plain)) })).result;
}

/** `hashPassword` for a nullable field: null stays null (no password set). */
export async function hashPasswordOrNull(plain: string | null, tx?: Executor): Promise<string | null> {
  return plain === null ? null : hashPassword(plain, tx);
}

/**
 * `verify_password(stored, given)`: does `given` match? When it does and `stored` is weaker
 * than new hashes are, `rehash` writes a new hash of `given` (made with nothing held) in the
 * action's transaction, where the row still holds `stored`.
 */
export async function verifyPassword(
  stored: string | null | undefined,
  given: string | null | undefined,
  tx?: Executor,
  rehash?: Rehash,
): Promise<boolean> {
  const s = stored ?? null;
  const g = given ?? null;
  const work = async () => {
    const verdict = await checkPassword(s, g);
    return { ok: verdict.ok, next: verdict.weak && rehash !== undefined && g !== null ? await hash(g) : null };
  };
  const found =
    tx instanceof PasswordTx
      ? await tx.work.take(
          (x): x is Extract<Step, { kind: "verify" }> => x.kind === "verify" && x.stored === s && x.given === g,
          () => ({ kind: "verify", stored: s, given: g, result: settled(work()) }),
        ).result
      : await work();
  if (found.ok && found.next !== null && s !== null) await rehash?.(s, found.next);
  return found.ok;
}

/** A promise that is also awaited later: marked handled now, so a rejection before then is not "unhandled". */
function settled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}
