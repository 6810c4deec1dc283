// The MySQL adapter, for MySQL 8, MariaDB (10.5+) and TiDB, on mysql2: a pool of
// `pool_size` connections per server process; every value bound through `execute()`
// (a prepared statement per connection, prepared once and cached by mysql2); every
// connection set up alike (mysql/session.ts). `--backend tidb` adds TiDB's retryable
// error codes and, on a TiDB server, optimistic transactions.

import mysql from "mysql2";
import { StartupError } from "../../core/errors.js";
import type { Awaitable, ConnectionPool, Database, Executor, Row, SchemaSpec, StatementSpec, TableSpec, TransactionOptions } from "../../contract/index.js";
import { bindSlots } from "../net/args.js";
import { type Constraints, constraintsOf, emptyConstraints } from "../net/constraints.js";
import { commitMarginMs, lateCommitError } from "../net/deadline.js";
import { NetStatements } from "../net/statements.js";
import { type NetTarget, parseNetUrl, redactUrl } from "../net/url.js";
import { withRetries } from "../retry.js";
import { MysqlPool, type PoolConnection, execCount, execRows, queryConstant } from "./conn.js";
import { type MysqlFlavor, isRetryableMysql, isUnavailableMysql, isViewGoneMysql, mapMysqlError } from "./errors.js";
import { type MysqlViews, checkNames, migrateMysql } from "./migrate.js";
import { beginStatements } from "./session.js";
import { MysqlTx, rowsOf } from "./tx.js";
import { withReturning } from "../net/returning.js";
import { type Each, streamRows } from "./stream.js";

export interface MysqlOpenOptions {
  flavor?: MysqlFlavor;
  /** The request deadline (--write-timeout), in ms. */
  requestTimeoutMs?: number;
}

/** Connects lazily: the migration, at start, opens the first connection. */
export function openMysql(db: string, options: MysqlOpenOptions = {}): MysqlDatabase {
  const target = parseNetUrl(db, "mysql", options.requestTimeoutMs);
  const s = target.settings;
  const pool = mysql.createPool({
    uri: target.driverUrl,
    connectionLimit: s.poolSize,
    maxIdle: s.poolSize,
    idleTimeout: 60_000,
    waitForConnections: true,
    queueLimit: 0,
    connectTimeout: s.connectTimeoutMs,
    enableKeepAlive: true,
    charset: "UTF8MB4_BIN",
    timezone: "Z",
    jsonStrings: true,
    decimalNumbers: true,
    supportBigNumbers: false,
    multipleStatements: false,
  });
  return new MysqlDatabase(new MysqlPool(pool, s), target, options.flavor ?? "mysql");
}

export class MysqlDatabase implements Database {
  readonly dialect = "mysql" as const;
  private readonly statements = new NetStatements("mysql");
  private constraints: Constraints = emptyConstraints();
  private closed = false;
  /** This build's view database while it retypes a column in place on MariaDB (migrate/mysql-views.ts). */
  private views: MysqlViews | null = null;
  readonly pools: readonly ConnectionPool[];

  constructor(
    private readonly pool: MysqlPool,
    private readonly target: NetTarget,
    readonly flavor: MysqlFlavor,
  ) {
    this.pools = [pool];
  }

  async migrate(tables: readonly TableSpec[], schema?: SchemaSpec): Promise<void> {
    try {
      // The migration's connection stays on the app database; those set up afterwards use the view database.
      await this.withConnection(async (conn) => {
        this.views = await migrateMysql(conn, tables, schema);
        const c = constraintsOf(tables, "mysql");
        c.checkNames = await checkNames(conn, c);
        this.constraints = c;
      });
      // A connection opened once the view database is gone (1049) asks the same as a statement meeting it gone.
      this.pool.useDatabase(this.views?.database ?? null, (conn) => this.shadowsGone(conn));
    } catch (err) {
      throw this.startupError(err, "cannot bring the schema up to date");
    }
  }

  /** Checks every statement against the live schema: each is prepared (never run) on one connection. */
  async prepare(stmts: readonly StatementSpec[]): Promise<void> {
    const fresh = this.statements.add(stmts);
    if (fresh.length === 0) return;
    await this.withConnection(async (conn) => {
      for (const s of fresh) {
        for (const text of s.returning ? [s.text, s.returning.text] : [s.text]) {
          try {
            await prepareOn(conn, text);
          } catch (err) {
            throw this.startupError(err, `statement ${s.name} does not prepare`);
          }
        }
      }
    });
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
    const values = bindSlots(s.name, s.slots, args);
    const by = this.sendBy();
    return this.retrying(() => this.withConnection((conn) => execCount(conn, s.text, values), by));
  }

  private rows(spec: StatementSpec, args: readonly unknown[]): Promise<Row[]> {
    const s = this.statements.get(spec);
    // A statement and its returning read belong together: one connection, and but for an
    // insert's read (net/statements.ts) one transaction.
    if (s.returning !== undefined && !s.readWithoutTx) return this.transaction((tx) => tx.all(spec, args));
    const by = this.sendBy();
    const r = s.returning;
    if (r === undefined || this.views === null) return this.retrying(() => this.withConnection((conn) => rowsOf(conn, s, args), by));
    // An insert and its read, outside a transaction: once the insert ran, a read meeting the
    // view database gone runs again alone, on the same connection (LAST_INSERT_ID() is the
    // connection's), not the insert with it.
    const values = bindSlots(s.name, s.slots, args);
    const readValues = bindSlots(s.name, r.slots, args);
    return this.retrying(() =>
      this.withConnection(
        (conn) =>
          withReturning(
            r.when,
            () => execCount(conn, s.text, values),
            () => execRows(conn, r.text, readValues).catch((err: unknown) => this.againOnApp(conn, err, r.text, () => execRows(conn, r.text, readValues))),
          ),
        by,
      ),
    );
  }

  /**
   * `run` again on `conn`, moved to the app database, when `err` says the view database went
   * (leftViews); else `err`. mysql2's statement prepared in the view database is dropped first:
   * it would go on resolving its tables there.
   */
  private async againOnApp<T>(conn: PoolConnection, err: unknown, text: string, run: () => Promise<T>): Promise<T> {
    if (!(await this.leftViews(conn, err))) throw err;
    await queryConstant(conn, `USE \`${this.views!.app.replace(/`/g, "``")}\``);
    conn.unprepare(text);
    return run();
  }

  /**
   * A statement outside a transaction is sent a margin before its request's deadline or not at
   * all: waiting for a connection ends there (a 503 that wrote nothing).
   */
  private sendBy(): number {
    const timeout = this.target.settings.requestTimeoutMs;
    return Date.now() + timeout - commitMarginMs(timeout);
  }

  /** A streamed answer's rows (./stream.ts): one connection for the whole answer, destroyed when the client goes away. */
  async stream(spec: StatementSpec, args: readonly unknown[], batch: number, each: Each): Promise<void> {
    const s = this.statements.get(spec);
    const values = bindSlots(s.name, s.slots, args);
    const conn = await this.pool.acquire();
    let broken = true;
    let left = false;
    try {
      broken = await streamRows(conn, s.text, values, batch, each);
    } catch (err) {
      // The view database went before the first row: the stream starts again on the app database.
      left = await this.leftViews(conn, err);
      if (!left) throw mapMysqlError(err, this.constraints);
    } finally {
      this.pool.release(conn, broken);
    }
    if (left) await this.stream(spec, args, batch, each);
  }

  async transaction<T>(fn: (tx: Executor) => Awaitable<T>, options?: TransactionOptions): Promise<T> {
    const timeout = this.target.settings.requestTimeoutMs;
    const started = options?.startedAt ?? Date.now();
    const commitBy = started + timeout - commitMarginMs(timeout);
    const begin = (): readonly string[] => beginStatements(this.pool.serverKind ?? "mysql", options?.isolation);
    return this.retrying(() => this.withConnection((conn) => this.attempt(conn, fn, commitBy, begin()), commitBy), started);
  }

  /**
   * One try on `conn`: BEGIN, `fn`, COMMIT; ROLLBACK when anything throws, or when `fn`
   * ends past `commitBy`, when the client has its 503 already (net/deadline.ts).
   */
  private async attempt<T>(
    conn: PoolConnection,
    fn: (tx: Executor) => Awaitable<T>,
    commitBy: number,
    begin: readonly string[],
  ): Promise<T> {
    for (const statement of begin) await queryConstant(conn, statement);
    const tx = new MysqlTx(
      conn,
      this.statements,
      this.constraints,
      this.pool.serverKind === "tidb" ? "tidb" : this.flavor,
      // Also once the pool has left its views: this connection may have been set up before.
      this.views !== null,
    );
    let result: T;
    try {
      result = await fn(tx);
      tx.end();
      if (Date.now() >= commitBy) throw lateCommitError();
      await queryConstant(conn, "COMMIT");
    } catch (err) {
      tx.end();
      // A connection the error broke has no transaction left to roll back.
      if (tx.broken === null && !isUnavailableMysql(err)) await queryConstant(conn, "ROLLBACK").catch(() => undefined);
      throw err;
    }
    return result;
  }

  /** Runs `work` on a pooled connection; a connection an error broke is closed, not returned. */
  private async withConnection<T>(work: (conn: PoolConnection) => Promise<T>, deadline?: number): Promise<T> {
    const conn = await this.pool.acquire(deadline);
    let broken = false;
    try {
      return await work(conn);
    } catch (err) {
      broken = isUnavailableMysql(err) || (err as { cause?: { fatal?: unknown } })?.cause?.fatal === true;
      if (!broken && (await this.leftViews(conn, err))) throw new ViewsLeft(err);
      throw err;
    } finally {
      this.pool.release(conn, broken);
    }
  }

  /**
   * Whether `err`, met on `conn` through the view database, says contract has swapped this
   * build's retyped columns in (the view names a shadow no longer there) or dropped the view
   * database: then the pool moves to the app database, whose tables now have the new types
   * under the fields' names, and the caller runs its statement (or transaction: MariaDB's
   * failed statement ran nothing, and the attempt rolled back) once more there. Checked on
   * the live table rather than trusted to the error number: while a shadow this build reads
   * still exists (contract half-way through several retypes), the app database would show
   * the old type, so the error stands.
   */
  private async leftViews(conn: PoolConnection, err: unknown): Promise<boolean> {
    if (!isViewGoneMysql(err) || this.views === null) return false;
    // Another request moved the pool already, while this connection was being set up.
    if (this.pool.setUpBefore(conn)) return true;
    return this.shadowsGone(conn);
  }

  /** Whether none of the shadow columns the views show is left (then the pool leaves its view database). */
  private async shadowsGone(conn: PoolConnection): Promise<boolean> {
    const views = this.views;
    if (views === null || this.pool.viewDatabase === null) return false;
    const rows = await execRows(
      conn,
      `SELECT COUNT(*) AS n FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND CONCAT(TABLE_NAME, '.', COLUMN_NAME) IN (${views.shadows.map(() => "?").join(", ")})`,
      [views.app, ...views.shadows],
    ).catch(() => null);
    if (rows === null || Number(rows[0]?.n) !== 0) return false;
    this.pool.useDatabase(null);
    return true;
  }

  /** Deadlocks (and TiDB's conflicts) aborted the whole statement or transaction: run it again. */
  private async retrying<T>(attempt: () => Promise<T>, started = Date.now()): Promise<T> {
    // A TiDB server's conflicts are retried even when it was started as --backend mysql.
    const flavor = this.pool.serverKind === "tidb" ? "tidb" : this.flavor;
    try {
      return await attempt();
    } catch (first) {
      if (first instanceof ViewsLeft) return this.retrying(attempt, started);
      if (!isRetryableMysql(first, flavor)) throw mapMysqlError(first, this.constraints);
    }
    try {
      // ViewsLeft is thrown once at most: the pool has left its view database.
      return await withRetries(attempt, (err) => isRetryableMysql(err, flavor) || err instanceof ViewsLeft, {
        deadline: started + this.target.settings.requestTimeoutMs,
      });
    } catch (err) {
      throw mapMysqlError(err, this.constraints);
    }
  }

  async ping(): Promise<void> {
    await this.withConnection((conn) => queryConstant(conn, "SELECT 1"));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private startupError(err: unknown, what: string): StartupError {
    if (err instanceof StartupError) return err;
    const where = `mysql ${this.target.host}${this.target.port === null ? "" : `:${this.target.port}`}/${this.target.database}`;
    const cause = err instanceof Error && "cause" in err && err.cause instanceof Error ? err.cause : err;
    const message = cause instanceof Error ? cause.message : String(cause);
    const why = isUnavailableMysql(cause) ? `cannot connect to ${where}: ${message}` : `${where}: ${message}`;
    return new StartupError("SVC_ERR_DB_OPEN", `${what}: ${redactUrl(why)}`);
  }
}

/** The pool left its view database: the statement that met the error runs again on the app database. */
class ViewsLeft extends Error {
  constructor(override readonly cause: unknown) {
    super("the view database is gone; the statement runs again on the app database");
  }
}

/**
 * Prepares `text` on `conn`: the server checks it, nothing runs. mysql2 keeps it in the
 * connection's statement cache, where the first request on this connection finds it.
 */
function prepareOn(conn: PoolConnection, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    conn.prepare(text, (err) => (err ? reject(err) : resolve()));
  });
}
