// Where the spans below the request come from, made at start: each statement of the database
// (a wrapper, as metrics/statements.ts times them) and each action or query the route table
// leads to (its `run` wrapped). Statement spans carry the declared name and the database
// system, never an argument value; the SQL text they carry has placeholders only.

import { ATTR_DB_OPERATION_NAME, ATTR_DB_SYSTEM_NAME } from "@opentelemetry/semantic-conventions";
import type { Attributes } from "@opentelemetry/api";
import type { Awaitable, Database, Dialect, EndpointSpec, Executor, Row, RouteSpec, SchemaSpec, ServerSpec, StatementSpec, TableSpec, TransactionOptions } from "../contract/index.js";
import type { Tracing } from "./tracing.js";

/** `db.system.name` values (OpenTelemetry database semantic conventions). */
const SYSTEMS: Record<Dialect, string> = { sqlite: "sqlite", postgres: "postgresql", mysql: "mysql" };

/** The spec with each endpoint's `run` in an `action …` or `query …` span. */
export function tracedSpec(spec: ServerSpec, tracing: Tracing): ServerSpec {
  const traced = new Map<EndpointSpec, EndpointSpec>();
  const wrap = (endpoint: EndpointSpec): EndpointSpec => {
    let out = traced.get(endpoint);
    if (out === undefined) {
      const run = endpoint.run;
      const name = `${endpoint.kind} ${endpoint.name}`;
      const attributes = { "svc.endpoint": endpoint.name, "svc.endpoint.kind": endpoint.kind };
      out = { ...endpoint, run: (db, input, ctx) => tracing.within(name, attributes, () => run(db, input, ctx)) };
      // A query SQLite would answer with its own JSON (answers/json-text.ts) goes through `run`
      // instead, the same answer by the general path, so that it has its query span too.
      delete out.answer;
      traced.set(endpoint, out);
    }
    return out;
  };
  const routes: RouteSpec[] = spec.routes.map((route) =>
    route.target.kind === "endpoint" ? { ...route, target: { ...route.target, endpoint: wrap(route.target.endpoint) } } : route,
  );
  return { ...spec, routes };
}

class TracedExecutor implements Executor {
  constructor(
    protected readonly inner: Executor,
    protected readonly tracing: Tracing,
    readonly dialect: Dialect,
  ) {}

  all(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row[]> {
    return this.tracing.within(stmt.name, this.attributes(stmt), () => this.inner.all(stmt, args));
  }

  one(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row | null> {
    return this.tracing.within(stmt.name, this.attributes(stmt), () => this.inner.one(stmt, args));
  }

  run(stmt: StatementSpec, args: readonly unknown[]): Promise<number> {
    return this.tracing.within(stmt.name, this.attributes(stmt), () => this.inner.run(stmt, args)) as Promise<number>;
  }

  protected attributes(stmt: StatementSpec): Attributes {
    const text = stmt.sql[this.dialect]?.text ?? "";
    const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase();
    return {
      "db.system": SYSTEMS[this.dialect],
      [ATTR_DB_SYSTEM_NAME]: SYSTEMS[this.dialect],
      ...(operation !== undefined && { [ATTR_DB_OPERATION_NAME]: operation }),
      "svc.statement": stmt.name,
      "db.query.text": text,
    };
  }
}

export class TracedDatabase extends TracedExecutor implements Database {
  readonly nested?: true;
  readonly json?: Database["json"];
  readonly stream?: Database["stream"];

  constructor(
    private readonly db: Database,
    tracing: Tracing,
  ) {
    super(db, tracing, db.dialect);
    if (db.nested === true) this.nested = true;
    if (db.json !== undefined) {
      const json = db.json.bind(db);
      this.json = (stmt, args, one) => tracing.within(stmt.name, this.attributes(stmt), () => json(stmt, args, one));
    }
    if (db.stream !== undefined) {
      const stream = db.stream.bind(db);
      this.stream = (stmt, args, batch, each) => tracing.within(stmt.name, this.attributes(stmt), () => stream(stmt, args, batch, each)) as Promise<void>;
    }
  }

  migrate(tables: readonly TableSpec[], schema?: SchemaSpec): Promise<void> {
    return this.db.migrate(tables, schema);
  }

  prepare(stmts: readonly StatementSpec[]): void | Promise<void> {
    return this.db.prepare(stmts);
  }

  transaction<T>(fn: (tx: Executor) => Awaitable<T>, options?: TransactionOptions): Promise<T> {
    return this.db.transaction((tx) => fn(new TracedExecutor(tx, this.tracing, this.dialect)), options);
  }

  ping(): Promise<void> | void {
    return this.db.ping();
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
