// Each statement's duration by its declared name (`task_tracker.list_tasks`, `task.insert`):
// the database the handler is given when metrics are on is this wrapper around the real one,
// so the adapters carry no metrics code and a server without metrics runs none of it. Traced,
// the statement's span times it instead (traces/spans.ts: StatementTimer), with its own two
// readings of the clock, where this wrapper would read it twice more.

import { performance } from "node:perf_hooks";
import type { Awaitable, Database, Executor, Row, SchemaSpec, StatementSpec, TableSpec, TransactionOptions } from "../contract/index.js";
import { type Family, HistogramCell, histogramFamily } from "./family.js";

export class StatementSeries {
  private readonly cells = new Map<StatementSpec, HistogramCell>();

  /** Hot path when on: a statement found by identity, its cell made at its first run. */
  observe(stmt: StatementSpec, seconds: number): void {
    let cell = this.cells.get(stmt);
    if (cell === undefined) {
      cell = new HistogramCell({ statement: stmt.name }, STATEMENT_BOUNDS);
      this.cells.set(stmt, cell);
    }
    cell.observe(seconds);
  }

  /** `started` from performance.now(); the result passed through, a promise observed when it settles. */
  timed<T>(stmt: StatementSpec, started: number, result: Awaitable<T>): Awaitable<T> {
    if (!(result instanceof Promise)) {
      this.observe(stmt, (performance.now() - started) / 1000);
      return result;
    }
    return result.then(
      (value) => {
        this.observe(stmt, (performance.now() - started) / 1000);
        return value;
      },
      (err: unknown) => {
        this.observe(stmt, (performance.now() - started) / 1000);
        throw err;
      },
    );
  }

  families(): Family[] {
    return [
      histogramFamily(
        "svc_db_statement_duration_seconds",
        "Time a statement took on the database, by its declared name (argument values are never labels).",
        () => this.cells.values(),
        STATEMENT_BOUNDS,
      ),
    ];
  }
}

/** Statements are faster than requests: the buckets start lower. */
const STATEMENT_BOUNDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The statements of `inner`, timed; everything else passed through as it is. */
class MeasuredExecutor implements Executor {
  constructor(
    protected readonly inner: Executor,
    protected readonly series: StatementSeries,
  ) {}

  all(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row[]> {
    return this.series.timed(stmt, performance.now(), this.inner.all(stmt, args));
  }

  one(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row | null> {
    return this.series.timed(stmt, performance.now(), this.inner.one(stmt, args));
  }

  run(stmt: StatementSpec, args: readonly unknown[]): Promise<number> {
    return this.series.timed(stmt, performance.now(), this.inner.run(stmt, args)) as Promise<number>;
  }
}

export class MeasuredDatabase extends MeasuredExecutor implements Database {
  readonly dialect: Database["dialect"];
  readonly nested?: true;
  readonly json?: Database["json"];
  readonly stream?: Database["stream"];

  constructor(
    private readonly db: Database,
    series: StatementSeries,
  ) {
    super(db, series);
    this.dialect = db.dialect;
    if (db.nested === true) this.nested = true;
    // Optional abilities stay absent where the adapter has none: callers test for them.
    if (db.json !== undefined) {
      const json = db.json.bind(db);
      this.json = (stmt, args, one) => series.timed(stmt, performance.now(), json(stmt, args, one));
    }
    if (db.stream !== undefined) {
      const stream = db.stream.bind(db);
      this.stream = (stmt, args, batch, each) => series.timed(stmt, performance.now(), stream(stmt, args, batch, each)) as Promise<void>;
    }
  }

  migrate(tables: readonly TableSpec[], schema?: SchemaSpec): Promise<void> {
    return this.db.migrate(tables, schema);
  }

  prepare(stmts: readonly StatementSpec[]): void | Promise<void> {
    return this.db.prepare(stmts);
  }

  transaction<T>(fn: (tx: Executor) => Awaitable<T>, options?: TransactionOptions): Promise<T> {
    return this.db.transaction((tx) => fn(new MeasuredExecutor(tx, this.series)), options);
  }

  ping(): Promise<void> | void {
    return this.db.ping();
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
