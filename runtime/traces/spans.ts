// Where the spans below the request come from, made at start: each statement of the database
// (a wrapper, as metrics/statements.ts times them) and each action or query the route table
// leads to (its `run` wrapped, and the answer SQLite writes itself). A span's parent is the
// `span` of the database view the code was handed (TracedDatabase.under): the server makes one
// per traced request, and the endpoint's span one below it. Statement spans carry the declared
// name and the database system, never an argument value; the SQL text they carry has
// placeholders only.

// Imported: the global `performance` is a getter, paid on every read.
import { performance } from "node:perf_hooks";
import { ATTR_DB_OPERATION_NAME, ATTR_DB_SYSTEM_NAME } from "@opentelemetry/semantic-conventions";
import type { Awaitable, Database, Dialect, EndpointSpec, Executor, Row, RouteSpec, SchemaSpec, ServerSpec, StatementSpec, TableSpec, TransactionOptions } from "../contract/index.js";
import type { CurrentSpan } from "../lang/trace-context.js";
import { flat, LeafShape } from "./span.js";
import type { StatementTimer, Tracing } from "./tracing.js";

/** `db.system.name` values (OpenTelemetry database semantic conventions). */
const SYSTEMS: Record<Dialect, string> = { sqlite: "sqlite", postgres: "postgresql", mysql: "mysql" };

/** The spec with each endpoint's `run` in an `action …` or `query …` span. */
export function tracedSpec(spec: ServerSpec, tracing: Tracing): ServerSpec {
  const traced = new Map<EndpointSpec, EndpointSpec>();
  const wrap = (endpoint: EndpointSpec): EndpointSpec => {
    let out = traced.get(endpoint);
    if (out === undefined) {
      const run = endpoint.run;
      const name = flat(`${endpoint.kind} ${endpoint.name}`);
      const attributes = { "svc.endpoint": endpoint.name, "svc.endpoint.kind": endpoint.kind };
      out = { ...endpoint, run: (db, input, ctx) => tracing.within(name, attributes, db, (under) => run(under, input, ctx)) };
      // A query SQLite answers with its own JSON (answers/json-text.ts) keeps that path, in its
      // query span: the general path would cost it more than the span does. A database without
      // `json` gets no span here, since the answer is then undefined and `run` follows.
      const answer = endpoint.answer;
      if (answer !== undefined) {
        out.answer = (db, input) => (db.json === undefined ? undefined : tracing.within(name, attributes, db, (under) => answer(under, input) as Awaitable<string>));
      }
      traced.set(endpoint, out);
    }
    return out;
  };
  const routes: RouteSpec[] = spec.routes.map((route) =>
    route.target.kind === "endpoint" ? { ...route, target: { ...route.target, endpoint: wrap(route.target.endpoint) } } : route,
  );
  return { ...spec, routes };
}

/**
 * Each statement's span name and attributes, made once: the spec's statements' at start, any
 * other's (idempotency's, jobs', limits') at its first run. Each span keeps the attributes
 * object, and the exporter encodes it once (otlp.ts), so one object serves every run.
 */
class StatementShapes {
  // Weak: a statement made while serving (none today) must not be kept by its shape.
  private readonly byStatement = new WeakMap<StatementSpec, LeafShape>();

  constructor(private readonly dialect: Dialect) {}

  of(stmt: StatementSpec): LeafShape {
    return this.byStatement.get(stmt) ?? this.make(stmt);
  }

  make(stmt: StatementSpec): LeafShape {
    const text = stmt.sql[this.dialect]?.text ?? "";
    const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase();
    const shape = new LeafShape(stmt.name, {
      "db.system": SYSTEMS[this.dialect],
      [ATTR_DB_SYSTEM_NAME]: SYSTEMS[this.dialect],
      ...(operation !== undefined && { [ATTR_DB_OPERATION_NAME]: operation }),
      "svc.statement": stmt.name,
      "db.query.text": text,
    });
    this.byStatement.set(stmt, shape);
    return shape;
  }
}

/**
 * `fn` in a span of its own named for `stmt`, child of `parent` (a leaf: Tracing.leafStart);
 * with no parent, just `fn`. `timer` (metrics on) is given the span's readings of the clock;
 * with no span it reads its own, as metrics/statements.ts does.
 */
function inStatementSpan<T>(self: TracedExecutor, stmt: StatementSpec, fn: () => Awaitable<T>): Awaitable<T> {
  const { tracing, span: parent, timer } = self;
  const startMs = tracing.leafStart(parent);
  if (startMs < 0) return timer === null ? fn() : timer.timed(stmt, performance.now(), fn());
  let result: Awaitable<T>;
  try {
    result = fn();
  } catch (err) {
    // Not timed: metrics time a statement's result, so one that throws is not timed without traces either.
    tracing.leafFailed(parent!, stmt, self.shapes.of(stmt), startMs, err, null);
    throw err;
  }
  return tracing.leafSettled(parent!, stmt, self.shapes.of(stmt), startMs, result, timer);
}

/** Statements in spans, children of `span`: none without one (work outside a request). */
class TracedExecutor implements Executor {
  constructor(
    protected readonly inner: Executor,
    readonly tracing: Tracing,
    readonly shapes: StatementShapes,
    readonly dialect: Dialect,
    readonly span: CurrentSpan | undefined,
    /** Each statement's duration series when metrics are on: timed here, with the span, not by a wrapper of its own. */
    readonly timer: StatementTimer | null,
  ) {}

  all(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row[]> {
    return inStatementSpan(this, stmt, () => this.inner.all(stmt, args));
  }

  one(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row | null> {
    return inStatementSpan(this, stmt, () => this.inner.one(stmt, args));
  }

  run(stmt: StatementSpec, args: readonly unknown[]): Promise<number> {
    return inStatementSpan(this, stmt, () => this.inner.run(stmt, args)) as Promise<number>;
  }

  /** This transaction with its statements children of `span` (an action's, inside an `Idempotency-Key`'s transaction). */
  under(span: CurrentSpan): Executor {
    return new TracedExecutor(this.inner, this.tracing, this.shapes, this.dialect, span, this.timer);
  }
}

export class TracedDatabase extends TracedExecutor implements Database {
  /** The database made at start, the prototype of every view of it (a view inherits it). */
  private readonly root: TracedDatabase;
  readonly nested?: true;
  readonly json?: Database["json"];
  readonly stream?: Database["stream"];

  /** `statements`: the spec's, whose attributes are made here; `timer`: their duration series, when metrics are on. */
  constructor(
    private readonly db: Database,
    tracing: Tracing,
    statements: readonly StatementSpec[],
    timer: StatementTimer | null = null,
  ) {
    super(db, tracing, new StatementShapes(db.dialect), db.dialect, undefined, timer);
    this.root = this;
    for (const stmt of statements) this.shapes.make(stmt);
    if (db.nested === true) this.nested = true;
    // Unbound methods that read `this.span`: a view (under) inherits them as they are.
    if (db.json !== undefined) this.json = this.jsonInSpan;
    if (db.stream !== undefined) this.stream = this.streamInSpan;
  }

  /**
   * This database with its statements children of `span`: made for every traced request and
   * every span below it, so it is one object whose prototype is the database made at start,
   * every method shared. Always that one: a view made the prototype of the next would give
   * V8 a new hidden class for each, in the old generation, collected by major collections.
   */
  override under(span: CurrentSpan): Database {
    const view = Object.create(this.root) as { span: CurrentSpan };
    view.span = span;
    return view as unknown as Database;
  }

  /** The wrapped database's own JSON answer, in a statement span (SQLite: answers/json-text.ts). */
  private jsonInSpan(stmt: StatementSpec, args: readonly unknown[], one: boolean): Awaitable<string> {
    return inStatementSpan(this, stmt, () => this.db.json!(stmt, args, one));
  }

  /** The wrapped database's rows in batches, in a statement span (answers/stream). */
  private streamInSpan(stmt: StatementSpec, args: readonly unknown[], batch: number, each: (rows: Row[]) => boolean | Promise<boolean>): Promise<void> {
    return inStatementSpan(this, stmt, () => this.db.stream!(stmt, args, batch, each)) as Promise<void>;
  }

  migrate(tables: readonly TableSpec[], schema?: SchemaSpec): Promise<void> {
    return this.db.migrate(tables, schema);
  }

  prepare(stmts: readonly StatementSpec[]): void | Promise<void> {
    return this.db.prepare(stmts);
  }

  transaction<T>(fn: (tx: Executor) => Awaitable<T>, options?: TransactionOptions): Promise<T> {
    return this.db.transaction((tx) => fn(new TracedExecutor(tx, this.tracing, this.shapes, this.dialect, this.span, this.timer)), options);
  }

  ping(): Promise<void> | void {
    return this.db.ping();
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
