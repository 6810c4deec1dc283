// mysql2's callback API as promises, for one pooled connection, and the pool itself with
// a deadline on getting a connection. The callback API rather than mysql2/promise: the
// promise wrapper allocates a wrapper object and a promise chain per call, and this is
// the path of every request.
//
// Values go only through `execute()` (binary protocol, a prepared statement per
// connection, cached by mysql2); `query()` is used only for the constant statements of
// mysql/session.ts, BEGIN/COMMIT/ROLLBACK and the migration, never with a value.

import type { Connection, ExecuteValues, FieldPacket, Pool, PoolConnection, ResultSetHeader } from "mysql2";
import { performance } from "node:perf_hooks";
import type { ConnectionPool, Row } from "../../contract/index.js";
import type { Scalar } from "../net/args.js";
import { busyError } from "../net/errors.js";
import { mysqlErrno } from "./errors.js";
import { isoRows } from "./rows.js";
import { type ServerKind, serverKind, sessionStatements } from "./session.js";

export type { Connection, PoolConnection } from "mysql2";

/**
 * What mysql2 sends: a number goes as a DOUBLE, exact for every integer a JS number holds
 * exactly; where MySQL wants an integer (`LIMIT ?`), mysql2 sends it as the integer type
 * the server reported for the placeholder. A bigint goes as its decimal text.
 */
function wireValues(values: readonly Scalar[]): ExecuteValues[] {
  const out = new Array<ExecuteValues>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = typeof v === "bigint" ? v.toString() : v;
  }
  return out;
}

/** Rows of a statement that returns rows, with timestamps as ISO text. */
export function execRows(conn: PoolConnection, text: string, values: readonly Scalar[]): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    conn.execute(text, wireValues(values), (err, result, fields) => {
      if (err) reject(err);
      else resolve(Array.isArray(result) ? isoRows(result as Row[], fields as FieldPacket[]) : []);
    });
  });
}

/** Rows matched by a statement that changes rows (FOUND_ROWS: an UPDATE that sets a row to what it held counts it). */
export function execCount(conn: PoolConnection, text: string, values: readonly Scalar[]): Promise<number> {
  return new Promise((resolve, reject) => {
    conn.execute(text, wireValues(values), (err, result) => {
      if (err) reject(err);
      else resolve(Array.isArray(result) ? result.length : (result as ResultSetHeader).affectedRows);
    });
  });
}

/** A constant statement through the text protocol (no values, ever). */
export function queryConstant<T = unknown>(conn: Connection, text: string): Promise<T> {
  return new Promise((resolve, reject) => {
    conn.query(text, (err, result) => (err ? reject(err) : resolve(result as T)));
  });
}

export interface PoolSettings {
  poolSize: number;
  acquireTimeoutMs: number;
  queueLimit: number;
  requestTimeoutMs: number;
}

/** The pool: a connection within the deadline, set up (mysql/session.ts) before its first use. */
export class MysqlPool implements ConnectionPool {
  /** One pool serves statements and transactions alike. */
  readonly name = "shared";
  acquired: ConnectionPool["acquired"] = null;
  private kind: ServerKind | null = null;
  /** Each connection set up, with the default database it was set up with (null: the URL's). */
  private readonly ready = new WeakMap<PoolConnection, string | null>();
  /**
   * The default database of connections set up from now on: a build's view database while it
   * retypes a column in place on MariaDB (migrate/mysql-views.ts), else null.
   */
  private database: string | null = null;
  /** Callers of `acquire` not answered yet: those beyond the free connections wait in mysql2's queue, in order. */
  private pending = 0;
  /** Connections handed out and not released. */
  private held = 0;

  constructor(
    readonly pool: Pool,
    private readonly settings: PoolSettings,
  ) {}

  get inUse(): number {
    return this.held;
  }

  get idle(): number {
    return Math.max(0, this.settings.poolSize - this.held);
  }

  get queued(): number {
    return Math.max(0, this.pending - this.idle);
  }

  /** The view database connections use, or null. */
  get viewDatabase(): string | null {
    return this.database;
  }

  /**
   * Connections from now on use `database` as their default database (null: the URL's). Those
   * set up before are closed as they are next handed out: a statement mysql2 prepared on one
   * keeps resolving its tables in the database current when it was prepared.
   */
  useDatabase(database: string | null, gone: ((conn: PoolConnection) => Promise<boolean>) | null = null): void {
    this.database = database;
    this.gone = gone;
  }

  /**
   * Asked when a new connection cannot use the view database (1049: contract dropped it):
   * whether the pool is to go on without it (then the connection stays on the URL's database).
   */
  private gone: ((conn: PoolConnection) => Promise<boolean>) | null = null;

  /** Whether `conn` was set up with a view database the pool has left since (it was being set up as the pool left it). */
  setUpBefore(conn: PoolConnection): boolean {
    const was = this.ready.get(conn);
    return was !== undefined && was !== null && was !== this.database;
  }

  /** The server's kind, known once a connection was made. */
  get serverKind(): ServerKind | null {
    return this.kind;
  }

  /**
   * A connection, once one is free, waiting at most acquire_timeout_ms and never past `deadline`
   * (a `Date.now()` time). A request beyond queue_limit waiting ones is refused at once.
   */
  acquire(deadline = Infinity): Promise<PoolConnection> {
    if (this.queued >= this.settings.queueLimit) {
      return Promise.reject(
        busyError(new Error(`${this.settings.queueLimit} requests are waiting for a connection already (queue_limit)`)),
      );
    }
    const waitMs = Math.max(1, Math.min(this.settings.acquireTimeoutMs, deadline - Date.now()));
    this.pending++;
    const since = this.acquired === null ? 0 : performance.now();
    return new Promise((resolve, reject) => {
      let waiting = true;
      const timer = setTimeout(() => {
        waiting = false;
        this.pending--;
        reject(busyError(new Error(`no connection free within ${waitMs} ms`)));
      }, waitMs);
      const got = (err: NodeJS.ErrnoException | null, conn: PoolConnection): void => {
        if (!err && waiting && this.ready.has(conn) && this.ready.get(conn) !== this.database) {
          conn.destroy();
          this.pool.getConnection(got);
          return;
        }
        clearTimeout(timer);
        if (!waiting) {
          // The caller has its 503 already; the connection goes back unused.
          if (!err) conn.release();
          return;
        }
        waiting = false;
        this.pending--;
        if (err) {
          reject(err);
          return;
        }
        this.held++;
        if (this.acquired !== null) this.acquired.observe((performance.now() - since) / 1000);
        if (this.ready.has(conn)) {
          resolve(conn);
          return;
        }
        this.setUp(conn).then(
          () => resolve(conn),
          (setupErr) => {
            this.held--;
            conn.destroy();
            reject(setupErr);
          },
        );
      };
      this.pool.getConnection(got);
    });
  }

  /** Back to the pool, or closed when the connection broke (a later statement on it would fail again). */
  release(conn: PoolConnection, broken: boolean): void {
    this.held--;
    if (broken) conn.destroy();
    else conn.release();
  }

  private async setUp(conn: PoolConnection): Promise<void> {
    // An error on an idle connection (the server closed it) must not crash the process;
    // the pool drops such a connection by itself.
    conn.on("error", () => undefined);
    if (this.kind === null) {
      const rows = await queryConstant<{ version: string }[]>(conn, "SELECT VERSION() AS version");
      this.kind = serverKind(String(rows[0]?.version ?? ""));
    }
    for (const statement of sessionStatements(this.kind, this.settings.requestTimeoutMs)) {
      await queryConstant(conn, statement);
    }
    let database = this.database;
    if (database !== null) {
      try {
        await queryConstant(conn, `USE \`${database.replace(/`/g, "``")}\``);
      } catch (err) {
        // The pool may have left the view database meanwhile: then so does this connection.
        const left = this.database !== database || (this.gone !== null && (await this.gone(conn)));
        if (mysqlErrno(err) !== 1049 || !left) throw err;
        database = null;
      }
    }
    this.ready.set(conn, database);
  }

  end(): Promise<void> {
    return new Promise((resolve) => this.pool.end(() => resolve()));
  }
}
