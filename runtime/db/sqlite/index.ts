// The SQLite adapter: one better-sqlite3 connection per process (per worker), WAL so
// that readers in other workers never wait for a writer.

import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { StartupError } from "../../core/errors.js";
import type { Awaitable, Database, Executor, Row, SchemaSpec, StatementSpec, TableSpec } from "../../contract/index.js";
import { retryWhileBusy } from "./busy-retry.js";
import { migrateSqlite } from "./migrate.js";
import { busyError, isBusy, mapSqliteError } from "./errors.js";
import { getAll, getAllJson, getOne, getOneJson, runChanges, StatementCache, type Prepared } from "./statements.js";
import { SqliteTx } from "./tx.js";
import { TxGate } from "../tx-gate.js";
import { UniqueAnswers } from "../unique-answers.js";
import { type Each, streamOwnConnection, streamPaged } from "./stream.js";

type Exec<T> = (p: Prepared, args: readonly unknown[]) => T;

/** How long a statement waits for another process's write lock before a 503. */
export const BUSY_TIMEOUT_MS = 5000;

export interface SqliteOptions {
  /** Default BUSY_TIMEOUT_MS. */
  busyTimeoutMs?: number;
}

/** Opens (creating it and its folder when missing) `path`, or `:memory:`. */
export function openSqlite(path: string, options: SqliteOptions = {}): SqliteDatabase {
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  if (path.trim() === "") throw new StartupError("SVC_ERR_DB_OPEN", "the sqlite database path is empty; pass --db FILE or --db :memory:");
  const memory = path === ":memory:";
  let db: BetterSqlite3.Database | undefined;
  try {
    if (!memory) mkdirSync(dirname(resolve(path)), { recursive: true });
    // The constructor's timeout is SQLite's busy_timeout: at open, blocking is fine
    // (nothing is served yet) and switching a new file to WAL may wait for another
    // server opening it at the same moment.
    db = new BetterSqlite3(path, { timeout: busyTimeoutMs });
    if (!memory) {
      const mode = switchToWal(db, busyTimeoutMs);
      if (mode !== "wal")
        throw new StartupError("SVC_ERR_DB_OPEN", `sqlite database ${path} cannot use WAL journal mode (got ${String(mode)})`);
      // NORMAL is durable across application crashes in WAL mode; only a power loss
      // may drop the last commits, never corrupt the file.
      db.pragma("synchronous = NORMAL");
    }
    db.pragma("foreign_keys = ON");
    // From here on, waits happen in busy-retry.ts without blocking the event loop.
    db.pragma("busy_timeout = 0");
  } catch (err) {
    db?.close();
    if (err instanceof StartupError) throw err;
    throw new StartupError("SVC_ERR_DB_OPEN", `cannot open sqlite database ${path}: ${(err as Error).message}`);
  }
  return new SqliteDatabase(db, path, busyTimeoutMs);
}

/**
 * `journal_mode = WAL`, tried again while busy, up to `busyTimeoutMs`: servers starting at the
 * same moment on a new file each read it and then want it to themselves for the switch, and
 * SQLite answers one of two such readers busy at once instead of waiting (it would deadlock).
 * At open, blocking the thread for the retry's pause is fine: nothing is served yet.
 */
function switchToWal(db: BetterSqlite3.Database, busyTimeoutMs: number): unknown {
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      return db.pragma("journal_mode = WAL", { simple: true });
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
      Atomics.wait(PAUSE, 0, 0, 10);
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

export class SqliteDatabase implements Database {
  readonly dialect = "sqlite" as const;
  private readonly statements: StatementCache;
  private readonly gate = new TxGate();
  private readonly beginStmt: BetterSqlite3.Statement;
  private readonly commitStmt: BetterSqlite3.Statement;
  private readonly rollbackStmt: BetterSqlite3.Statement;
  private readonly pingStmt: BetterSqlite3.Statement;
  private closed = false;
  /** `unique (…) fail …` of the resources, known once the schema is up to date. */
  private answers = UniqueAnswers.none();

  constructor(
    private readonly db: BetterSqlite3.Database,
    readonly path: string,
    private readonly busyTimeoutMs: number = BUSY_TIMEOUT_MS,
  ) {
    this.statements = new StatementCache(db);
    // IMMEDIATE takes the write lock at BEGIN: a deferred transaction that reads and
    // then writes could fail mid-action with SQLITE_BUSY_SNAPSHOT instead of waiting.
    this.beginStmt = db.prepare("BEGIN IMMEDIATE");
    this.commitStmt = db.prepare("COMMIT");
    this.rollbackStmt = db.prepare("ROLLBACK");
    // Plucked: the ping reads the one value, and making a row object of it (`{ "1": 1 }`) cost
    // some 2,100 instructions of a /health request, a thirtieth of all of it (callgrind).
    this.pingStmt = db.prepare("SELECT 1").pluck();
  }

  prepare(stmts: readonly StatementSpec[]): void {
    this.statements.add(stmts);
  }

  // all/one outside a transaction are the hot path of every query endpoint. better-sqlite3
  // answers at once, and so do they: a promise, and the turn of the microtask queue that
  // awaiting it takes, cost a get_task request some 1,200 instructions. They return a
  // promise only when they must wait: for a transaction holding the connection, or for
  // another process's write lock.
  all(spec: StatementSpec, args: readonly unknown[]): Awaitable<Row[]> {
    return this.execute(spec, args, getAll);
  }

  one(spec: StatementSpec, args: readonly unknown[]): Awaitable<Row | null> {
    return this.execute(spec, args, getOne);
  }

  /**
   * A query's rows as the JSON text SQLite writes (its `json` form): at once, as all/one. On
   * Node 20 better-sqlite3 hands a row's values to V8 one call each, some 900 instructions a
   * value; a get_task answer this way costs some 11 % fewer instructions (bench/README.md).
   */
  json(spec: StatementSpec, args: readonly unknown[], one: boolean): Awaitable<string> {
    return this.execute(spec, args, one ? getOneJson : getAllJson);
  }

  /** Rows a batch at a time, for a streamed answer (./stream.ts says how, file or memory). */
  stream(spec: StatementSpec, args: readonly unknown[], batch: number, each: Each): Promise<void> {
    const p = this.statements.get(spec);
    if (!this.db.memory) return streamOwnConnection(this.db.name, p, spec, args, batch, each);
    return streamPaged(this.db, p, spec, args, batch, each, () => (this.gate.open ? this.gate.whenClosed() : undefined));
  }

  // Writes keep their promise (Executor.run): callers may chain on it.
  async run(spec: StatementSpec, args: readonly unknown[]): Promise<number> {
    return this.execute(spec, args, runChanges);
  }

  /** `exec` on the statement, at once unless it must wait; a failure is always a rejection. */
  private execute<T>(spec: StatementSpec, args: readonly unknown[], exec: Exec<T>): Awaitable<T> {
    if (this.gate.open) return this.afterGate(spec, args, exec);
    let p: Prepared | undefined;
    try {
      p = this.statements.get(spec);
      return exec(p, args);
    } catch (err) {
      return p === undefined ? Promise.reject(err) : this.retryOutsideTx(err, p, args, exec);
    }
  }

  /** `exec` once the transaction holding the connection has ended. */
  private async afterGate<T>(spec: StatementSpec, args: readonly unknown[], exec: Exec<T>): Promise<T> {
    await this.gate.whenClosed();
    const p = this.statements.get(spec);
    try {
      return exec(p, args);
    } catch (err) {
      return this.retryOutsideTx(err, p, args, exec);
    }
  }

  /** A statement outside a transaction that failed busy had no effect: run it again. */
  private async retryOutsideTx<T>(
    err: unknown,
    p: Prepared,
    args: readonly unknown[],
    exec: Exec<T>,
  ): Promise<T> {
    if (!isBusy(err)) throw mapSqliteError(err, this.answers);
    try {
      return await retryWhileBusy(async () => {
        // The back-off sleeps, and a local transaction may have opened meanwhile.
        await this.gate.whenClosed();
        return exec(p, args);
      }, this.busyTimeoutMs);
    } catch (retryErr) {
      throw mapSqliteError(retryErr, this.answers);
    }
  }

  /**
   * Transactions on this connection run one at a time, in arrival order. `fn` must use
   * `tx`: a statement or a transaction on the database itself would wait for `fn`.
   */
  async transaction<T>(fn: (tx: Executor) => Awaitable<T>): Promise<T> {
    const turn = this.gate.acquire();
    if (turn !== undefined) await turn;
    try {
      await this.begin();
      const tx = new SqliteTx(this.statements, this.answers);
      let result: T;
      try {
        result = await fn(tx);
      } catch (err) {
        tx.end();
        this.rollbackQuietly();
        throw err;
      }
      tx.end();
      try {
        this.commitStmt.run();
      } catch (err) {
        // e.g. a deferred foreign key: COMMIT fails and leaves the transaction open.
        this.rollbackQuietly();
        throw mapSqliteError(err, this.answers);
      }
      return result;
    } finally {
      this.gate.markClosed();
      this.gate.release();
    }
  }

  private async begin(): Promise<void> {
    try {
      this.beginNow();
    } catch (err) {
      if (!isBusy(err)) throw err;
      try {
        await retryWhileBusy(() => this.beginNow(), this.busyTimeoutMs);
      } catch (retryErr) {
        throw isBusy(retryErr) ? busyError(retryErr) : retryErr;
      }
    }
  }

  /** Marks the gate open in the same turn as BEGIN, so no outside statement slips in between. */
  private beginNow(): void {
    this.beginStmt.run();
    this.gate.open = true;
  }

  /** The error that caused the rollback is the one worth reporting, so a failing ROLLBACK is not. */
  private rollbackQuietly(): void {
    // SQLite may already have rolled back by itself (e.g. on SQLITE_FULL or an I/O error).
    if (!this.db.inTransaction) return;
    try {
      this.rollbackStmt.run();
    } catch {
      // Left open, the next BEGIN fails with a clear "within a transaction" error.
    }
  }

  async migrate(tables: readonly TableSpec[], schema?: SchemaSpec): Promise<void> {
    const turn = this.gate.acquire();
    if (turn !== undefined) await turn;
    // Statements wait for the whole migration: they must not join its transaction.
    this.gate.open = true;
    try {
      await migrateSqlite(this.db, tables, undefined, schema);
      this.answers = UniqueAnswers.of(tables);
    } finally {
      this.gate.markClosed();
      this.gate.release();
    }
  }

  /** In process and synchronous: it answers at once or throws, so /health needs no timer for it. */
  ping(): void {
    this.pingStmt.get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
