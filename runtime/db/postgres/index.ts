// The PostgreSQL adapter, on postgres.js: two pools of `pool_size` connections per server
// process, one for statements outside a transaction and one for transactions, each a set
// of one-connection postgres.js clients that postgres/gate.ts hands out one statement (or
// transaction) at a time, queueing the rest; every statement a named prepared statement on
// each connection (prepared there on first use, checked at start by `prepare`).
//
// Each session runs in UTC with statement_timeout set to the request deadline, so a
// runaway statement is stopped by the server once its client has had a 503 anyway; the
// gate cancels one sooner, and a transaction too late to commit rolls back (net/deadline.ts).
// Action transactions are SERIALIZABLE: an action reads, decides, then writes, and
// SQLite runs that alone (BEGIN IMMEDIATE); here concurrent actions run side by side and
// PostgreSQL aborts the one that would see a state no serial order gives (40001), which
// is then run again from the start (retry.ts). The same holds for deadlocks (40P01).

import postgres, { type RowList, type Sql, type TransactionSql } from "postgres";
import { StartupError } from "../../core/errors.js";
import type { Awaitable, ConnectionPool, Database, Executor, Isolation, Row, SchemaSpec, StatementSpec, TableSpec, TransactionOptions } from "../../contract/index.js";
import { type Scalar, bindSlots } from "../net/args.js";
import { type Constraints, constraintsOf, emptyConstraints } from "../net/constraints.js";
import { commitMarginMs, lateCommitError } from "../net/deadline.js";
import { NetStatements } from "../net/statements.js";
import { type NetSettings, type NetTarget, parseNetUrl, redactUrl } from "../net/url.js";
import { withRetries } from "../retry.js";
import { SendGate, beginning } from "./gate.js";
import { completed, isRetryablePostgres, isUnavailablePostgres, mapPostgresError } from "./errors.js";
import { takeRows } from "./rows.js";
import { migratePostgres, quoteIdent } from "./migrate.js";
import { PREPARED, PostgresTx, pgValues } from "./tx.js";
import { POSTGRES_TYPES } from "./types.js";

/** What BEGIN says, by the action's isolation (docs/language.md §2.3, Transactions). */
const TX_MODES: Record<Isolation, string> = {
  serializable: "isolation level serializable",
  "repeatable read": "isolation level repeatable read",
  "read committed": "isolation level read committed",
};

const count = (rows: RowList<Row[]>): number => rows.count;

export interface PostgresOpenOptions {
  /** The request deadline (--write-timeout), in ms. */
  requestTimeoutMs?: number;
}

/** How long a streamed answer may hold its lane: a day, no deadline in practice. */
const STREAM_SPAN_MS = 24 * 60 * 60 * 1000;

/** Connects lazily: the first statement (the migration, at start) opens the first connection. */
export function openPostgres(db: string, options: PostgresOpenOptions = {}): PostgresDatabase {
  const target = parseNetUrl(db, "postgres", options.requestTimeoutMs);
  const s = target.settings;
  const connection: Record<string, string> = {
    // `?application_name=` in the URL names the server in pg_stat_activity instead.
    application_name: target.params.get("application_name") ?? "svc",
    TimeZone: "UTC",
    DateStyle: "ISO, MDY",
    statement_timeout: String(s.requestTimeoutMs),
    // A transaction left open by a stuck client holds its locks; the server closes it.
    idle_in_transaction_session_timeout: String(s.requestTimeoutMs * 2),
  };
  if (target.schema !== null) connection.search_path = target.schema;
  const driver = {
    max: s.poolSize,
    connect_timeout: deadlines(s).connectTimeoutMs / 1000,
    idle_timeout: 60,
    prepare: true,
    // postgres.js waits before reopening a connection that failed, up to 20 s as failures
    // add up; a database back from an outage would answer only that much later. A short
    // cap gets the first request after its return through at once (issue 15, part 5).
    backoff: reconnectDelaySeconds,
    // svc binds no arrays, and fetching array types costs a query per connection.
    fetch_types: false,
    // CREATE … IF NOT EXISTS says "already exists, skipping" on every start.
    onnotice: () => undefined,
    types: POSTGRES_TYPES,
    connection,
  };
  // Statements outside a transaction run one at a time per connection, never pipelined:
  // when PostgreSQL refuses a prepared statement whose plan went stale (a column added
  // under `SELECT *`), postgres.js prepares it again after the statements already sent
  // behind it, and the answers that follow are matched to the wrong queries (issue 15).
  // sql.begin needs pipelining to reserve its connection, so transactions have a pool of
  // their own, where nothing is ever sent behind a transaction's statement.
  const lanes = (options: typeof driver): Lanes => {
    const live = new Set<Sql>();
    const client = (): Sql => postgres(target.driverUrl, { ...options, max: 1 });
    const pool: Lanes = {
      lanes: [],
      open: () => {
        const sql: Sql = postgres(target.driverUrl, { ...options, max: 1, onclose: () => pool.closed(sql) });
        live.add(sql);
        return sql;
      },
      live,
      client,
      closed: () => undefined,
    };
    pool.lanes = Array.from({ length: s.poolSize }, pool.open);
    return pool;
  };
  return new PostgresDatabase(lanes({ ...driver, max_pipeline: 0 } as typeof driver), lanes(driver), target, connection);
}

/** A pool: one-connection postgres.js clients, and how to make another like them. */
export interface Lanes {
  lanes: readonly Sql[];
  open: () => Sql;
  /** Told each time a lane's connection closes (its gate settles what postgres.js lost there). */
  closed: (sql: Sql) => void;
  /** Every client not ended yet: the lanes, or those that replaced them. */
  live: Set<Sql>;
  /** A client like the lanes that is no part of the pool: its user ends it. */
  client: () => Sql;
}

/**
 * A client of the pool for checking statements at start (prepare), which `svc dev` does again on
 * each rebuild: a live one, since the first lane may have been replaced since.
 */
function anyLive(pool: Lanes): Sql {
  const [sql] = pool.live;
  return sql!;
}

/**
 * The gate of a pool. A lane whose connection was lost is replaced by a new client:
 * postgres.js hands the error PostgreSQL sent as it closed a connection (57P01 when it was
 * terminated) to the next statement on the reopened one, which would fail for nothing.
 */
function gateOf(pool: Lanes, acquireTimeoutMs: number, queueLimit: number, name: string): SendGate<Sql> {
  const gate = new SendGate(pool.lanes, acquireTimeoutMs, queueLimit, (sql, err) => {
    if (!isUnavailablePostgres(err)) return sql;
    pool.live.delete(sql);
    sql.end({ timeout: 0 }).catch(() => undefined);
    return pool.open();
  }, name);
  pool.closed = (sql) => gate.closed(sql);
  return gate;
}

/** The longest wait before postgres.js reopens a connection (reconnectDelaySeconds). */
const MAX_RECONNECT_DELAY_MS = 250;

/**
 * The bounds that make a 503 mean "not written" for a statement outside a transaction.
 * It is asked for a little after its request began and must be done, or cancelled, before
 * the write timeout: within `spanMs` (the write timeout less commitMarginMs). It waits for
 * a free connection at most `acquireTimeoutMs`, then for its connection to open at most
 * `connectTimeoutMs` after postgres.js's reconnect delay, so it is sent within the span or
 * not at all; still running at the span's end, it is cancelled (postgres/gate.ts).
 */
export function deadlines(s: NetSettings): { spanMs: number; acquireTimeoutMs: number; connectTimeoutMs: number } {
  const spanMs = s.requestTimeoutMs - commitMarginMs(s.requestTimeoutMs);
  // Waiting may take what opening a connection (and postgres.js's reconnect delay) leaves of the
  // span, and at least half of it.
  const waitMs = Math.max(Math.floor(spanMs / 2), spanMs - s.connectTimeoutMs - MAX_RECONNECT_DELAY_MS);
  const acquireTimeoutMs = Math.max(1, Math.min(s.acquireTimeoutMs, waitMs));
  const connectTimeoutMs = Math.max(
    100,
    Math.min(s.connectTimeoutMs, spanMs - acquireTimeoutMs - MAX_RECONNECT_DELAY_MS),
  );
  return { spanMs, acquireTimeoutMs, connectTimeoutMs };
}

/** postgres.js's reconnect delay, in seconds: full jitter, doubling from 20 ms up to 250 ms. */
export function reconnectDelaySeconds(failures: number): number {
  return (Math.random() * Math.min(MAX_RECONNECT_DELAY_MS, 20 * 2 ** Math.min(failures, 8))) / 1000;
}

export class PostgresDatabase implements Database {
  readonly dialect = "postgres" as const;
  private readonly statements = new NetStatements("postgres");
  private readonly gate: SendGate<Sql>;
  private readonly txGate: SendGate<Sql>;
  readonly pools: readonly ConnectionPool[];
  /** A statement outside a transaction is done within this of being asked for, or cancelled (deadlines()). */
  private readonly spanMs: number;
  private constraints: Constraints = emptyConstraints();
  private closed = false;

  constructor(
    /** Statements outside a transaction. */
    private readonly pool: Lanes,
    /** Transactions (openPostgres says why there are two pools). */
    private readonly txPool: Lanes,
    private readonly target: NetTarget,
    /** The session parameters every new connection of both pools opens with. */
    private readonly connection: Record<string, string> = {},
  ) {
    const d = deadlines(target.settings);
    this.spanMs = d.spanMs;
    this.gate = gateOf(pool, d.acquireTimeoutMs, target.settings.queueLimit, "statements");
    this.txGate = gateOf(txPool, d.acquireTimeoutMs, target.settings.queueLimit, "transactions");
    this.pools = [this.gate, this.txGate];
  }

  // Start-up work (before the first request, and on each rebuild of `svc dev`) uses a client directly.
  // The migration's is a client of its own, ended once it is done: a pool's lane would keep its
  // connection a minute after (postgres.js's idle timeout) though a server whose actions need
  // no transaction never uses it, and that close, a minute into serving, is the first time
  // such a process closes a database socket, which throws out the optimized code of Node's
  // stream functions (V8 deoptimizes them for the new kind of object) on a busy server.
  async migrate(tables: readonly TableSpec[], schema?: SchemaSpec): Promise<void> {
    const sql = this.txPool.client();
    let viewSchema: string | null;
    try {
      ({ viewSchema } = await migratePostgres(sql, tables, this.target.schema, schema));
    } catch (err) {
      throw this.startupError(err, "cannot bring the schema up to date");
    } finally {
      await sql.end({ timeout: 5 });
    }
    this.useViews(viewSchema);
    this.constraints = constraintsOf(tables, "postgres");
  }

  /**
   * While a column is retyped in place, this build reads and writes the table through a view
   * showing the new type (runtime/migrate/postgres.ts): its connections look in the view schema
   * first. Connections open lazily, after the migration, so they open with it (one already open,
   * on a rebuild of `svc dev`, takes it when it reconnects).
   */
  private useViews(viewSchema: string | null): void {
    const base = this.target.schema ?? "\"$user\", public";
    const path = viewSchema === null ? (this.target.schema ?? null) : `${quoteIdent(viewSchema)}, ${this.target.schema === null ? base : quoteIdent(this.target.schema)}`;
    const current = this.connection.search_path ?? null;
    if (path === current) return;
    if (path === null) delete this.connection.search_path;
    else this.connection.search_path = path;
    for (const sql of [...this.pool.live, ...this.txPool.live]) {
      const options = (sql as unknown as { options: { connection: Record<string, string> } }).options;
      if (path === null) delete options.connection.search_path;
      else options.connection.search_path = path;
    }
  }

  /** Checks every statement against the live schema (parse and describe, never run). */
  async prepare(stmts: readonly StatementSpec[]): Promise<void> {
    const fresh = this.statements.add(stmts);
    const texts = fresh.flatMap((s) => [
      { name: s.name, text: s.text },
      ...(s.returning ? [{ name: s.name, text: s.returning.text }] : []),
    ]);
    await Promise.all(
      texts.map(async ({ name, text }) => {
        try {
          await anyLive(this.pool).unsafe(text, [], PREPARED).describe();
        } catch (err) {
          throw this.startupError(err, `statement ${name} does not prepare`);
        }
      }),
    );
  }

  // all/one/run outside a transaction are the hot path of every query endpoint.
  async all(spec: StatementSpec, args: readonly unknown[]): Promise<Row[]> {
    return this.rows(spec, args);
  }

  async one(spec: StatementSpec, args: readonly unknown[]): Promise<Row | null> {
    return (await this.rows(spec, args))[0] ?? null;
  }

  async run(spec: StatementSpec, args: readonly unknown[]): Promise<number> {
    const s = this.statements.get(spec);
    return this.retrying(s.text, bindSlots(s.name, s.slots, args)).then(count);
  }

  private rows(spec: StatementSpec, args: readonly unknown[]): Promise<Row[]> {
    const s = this.statements.get(spec);
    // PostgreSQL has RETURNING, so svc never builds a `returning` read for it; should a
    // statement carry one, the two run in a transaction, the one way to keep them on one
    // connection with a pipelining pool.
    if (s.returning !== undefined) return this.returningRows(spec, args);
    return this.retrying(s.text, bindSlots(s.name, s.slots, args)).then(takeRows);
  }

  private returningRows(spec: StatementSpec, args: readonly unknown[]): Promise<Row[]> {
    return this.transaction((tx) => tx.all(spec, args));
  }

  /** The statement, run again after a serialization failure or a deadlock (retryStatement). */
  private retrying(text: string, values: Scalar[]): Promise<RowList<Row[]>> {
    const deadline = Date.now() + this.spanMs;
    return this.statement(text, values, deadline).then(undefined, (err: unknown) =>
      this.retryStatement(err, deadline, () => this.statement(text, values, deadline)),
    );
  }

  // This is the hot path: while a lane is free, the gate hands the statement to it at once
  // (postgres/gate.ts).
  private statement(text: string, values: Scalar[], deadline: number): Promise<RowList<Row[]>> {
    return this.gate
      .run((sql) => sql.unsafe<Row[]>(text, pgValues(values), PREPARED), deadline)
      .then(completed);
  }

  /**
   * After a statement outside a transaction failed: a serialization failure or a deadlock
   * had no effect, so it runs again, as a transaction would, within the request's
   * deadline; any other error is final.
   */
  private async retryStatement<T>(first: unknown, deadline: number, attempt: () => Promise<T>): Promise<T> {
    if (!isRetryablePostgres(first)) throw mapPostgresError(first, this.constraints);
    try {
      return await withRetries(attempt, isRetryablePostgres, { deadline });
    } catch (err) {
      throw mapPostgresError(err, this.constraints);
    }
  }

  /**
   * A streamed answer's rows through a cursor (runtime/core/answer/stream): a lane is held for the
   * whole answer and `batch` rows are fetched at a time, the next only once `each` is done with
   * the last. A client gone away closes the cursor, and the lane is free again. The answer
   * has no deadline of its own: a day stands for none (each fetch keeps statement_timeout).
   */
  async stream(spec: StatementSpec, args: readonly unknown[], batch: number, each: (rows: Row[]) => boolean | Promise<boolean>): Promise<void> {
    const s = this.statements.get(spec);
    const values = pgValues(bindSlots(s.name, s.slots, args));
    try {
      await this.gate.run(
        (sql) => sql.unsafe<Row[]>(s.text, values, PREPARED).cursor(batch, async (rows: Row[]) => ((await each(takeRows(rows))) ? undefined : sql.CLOSE)),
        Date.now() + STREAM_SPAN_MS,
      );
    } catch (err) {
      throw mapPostgresError(err, this.constraints);
    }
  }

  async transaction<T>(fn: (tx: Executor) => Awaitable<T>, options?: TransactionOptions): Promise<T> {
    const deadline = (options?.startedAt ?? Date.now()) + this.target.settings.requestTimeoutMs;
    const commitBy = deadline - commitMarginMs(this.target.settings.requestTimeoutMs);
    try {
      const mode = TX_MODES[options?.isolation ?? "serializable"];
      return await withRetries(() => this.attempt(fn, commitBy, mode), isRetryablePostgres, { deadline });
    } catch (err) {
      throw mapPostgresError(err, this.constraints);
    }
  }

  /**
   * One try: BEGIN (once a lane is free, within the wait for a connection), `fn`, COMMIT;
   * ROLLBACK when it throws, or when `fn` ends past `commitBy`: by then the client has its
   * 503 (the write timeout), which must mean nothing was written, so the work is rolled back.
   * A transaction still waiting for a lane at the end of its wait never starts (503).
   */
  private attempt<T>(fn: (tx: Executor) => Awaitable<T>, commitBy: number, mode: string): Promise<T> {
    return this.txGate.run(
      (sql) =>
        beginning(
          (began) =>
            sql.begin(mode, async (tx: TransactionSql) => {
              began();
              const executor = new PostgresTx(tx, this.statements, this.constraints);
              try {
                const result = await fn(executor);
                if (Date.now() >= commitBy) throw lateCommitError();
                return result;
              } finally {
                executor.end();
              }
            }) as Promise<T>,
        ),
      commitBy,
    );
  }

  async ping(): Promise<void> {
    await this.gate.run((sql) => sql.unsafe("SELECT 1", [], PREPARED), Date.now() + this.spanMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.gate.stop();
    this.txGate.stop();
    await Promise.all([...this.pool.live, ...this.txPool.live].map((sql) => sql.end({ timeout: 5 })));
  }

  /** A start-up failure with the reason and where, never the password. */
  private startupError(err: unknown, what: string): StartupError {
    if (err instanceof StartupError) return err;
    const where = `postgres ${this.target.host}${this.target.port === null ? "" : `:${this.target.port}`}/${this.target.database}`;
    const message = err instanceof Error ? err.message : String(err);
    const why = isUnavailablePostgres(err) ? `cannot connect to ${where}: ${message}` : `${where}: ${message}`;
    return new StartupError("SVC_ERR_DB_OPEN", `${what}: ${redactUrl(why)}`);
  }
}
