// The contract between a generated server and the runtime. Generated code builds a
// ServerSpec out of these plain objects (precomputed at build time) and hands it to
// `main` / `createServer`; the runtime never parses source or compiles anything.

import type { IncomingMessage } from "node:http";

export type Dialect = "sqlite" | "postgres" | "mysql";

/** SQL text for one dialect's driver parameters; `slots[i]` is the index into `args` bound at slot i. */
export interface DialectSql {
  text: string;
  slots: number[];
}

/** A statement known at build time. Adapters prepare each one once, at start. */
export interface StatementSpec {
  /** Unique and readable, e.g. `task_tracker.list_tasks` or `task.insert`. */
  name: string;
  sql: Partial<Record<Dialect, DialectSql>>;
}

export interface TableColumnDdl {
  name: string;
  definition: string;
  sqlType: string;
  nullable: boolean;
  hasDefault: boolean;
}

export interface TableDdl {
  createTable: string;
  columns: TableColumnDdl[];
  createIndexes: string[];
}

export interface TableSpec {
  name: string;
  ddl: Partial<Record<Dialect, TableDdl>>;
}

export type Row = Record<string, unknown>;

/** Runs prepared statements; inside an action it is bound to the action's transaction. */
export interface Executor {
  /** Every row. */
  all(stmt: StatementSpec, args: readonly unknown[]): Promise<Row[]>;
  /** The first row, or null. */
  one(stmt: StatementSpec, args: readonly unknown[]): Promise<Row | null>;
  /** Number of rows changed. */
  run(stmt: StatementSpec, args: readonly unknown[]): Promise<number>;
}

export interface Database extends Executor {
  readonly dialect: Dialect;
  /** Create missing tables, columns and indexes; throw a MigrationError on a destructive difference. */
  migrate(tables: readonly TableSpec[]): Promise<void>;
  /** Prepare every statement once; a statement that fails to prepare is a start-up error. */
  prepare(stmts: readonly StatementSpec[]): void;
  /** Run `fn` in one transaction: commit when it resolves, roll back when it throws. */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial statement. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Arguments as they arrived. `text` is true when every value came as a string (query
 * string, urlencoded or multipart form) and must be coerced to the declared type;
 * false for JSON, whose values must already have the declared type.
 */
export interface CallInput {
  args: Record<string, unknown>;
  text: boolean;
  /**
   * Arguments that arrived as text although `text` is false: path parameters of a route
   * merged into a JSON body. Validators ask `isText(input, name)` (runtime/args.ts).
   */
  textArgs?: readonly string[];
}

export interface CallContext {
  req: IncomingMessage;
  requestId: string;
}

/** One callable thing: an action (runs in a transaction) or a query (reads). */
export interface EndpointSpec {
  kind: "action" | "query";
  /** `task_tracker.create_task` */
  name: string;
  /** Validate and coerce the input, then run. Throws HttpError for a bad argument or a `fail`. */
  run(db: Database, input: CallInput, ctx: CallContext): Promise<unknown>;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** `/api/<module>:<name>`: matched by exact path. */
export interface StaticRoute {
  method: HttpMethod;
  path: string;
  endpoint: EndpointSpec;
}

/** A declared `route`: segments precomputed at build time; `:x` segments are parameters. */
export interface ParamRoute {
  method: HttpMethod;
  /** As declared, for logs and 405s: `/v1/tasks/:id/start` */
  path: string;
  /** `["v1", "tasks", ":id", "start"]` */
  segments: string[];
  endpoint: EndpointSpec;
}

export interface ServerSpec {
  name: string;
  version: string;
  tables: TableSpec[];
  statements: StatementSpec[];
  staticRoutes: StaticRoute[];
  /** In declaration order: first match wins. */
  paramRoutes: ParamRoute[];
  /** Defaults from svc.toml `[server]` and `[database]`; command-line flags win over them. */
  defaults: Partial<ServerOptions>;
}

export type LogLevel = "error" | "warn" | "info" | "debug" | "trace";

export interface ServerOptions {
  listen: string;
  backend: "sqlite" | "postgres" | "mysql" | "tidb";
  db: string;
  maxBodySize: number;
  logLevel: LogLevel;
}
