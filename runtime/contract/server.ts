// The contract between a generated server and the runtime. Generated code builds a
// ServerSpec out of these plain objects (precomputed at build time) and hands it to
// `main` / `createServer`; the runtime never parses source or compiles anything.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppSpec, PageSpec, RouteFileSpec } from "./pages.js";
import type { ErrorShape, RespondInput, ShapedAnswer, StreamSpec } from "./answers.js";
import type { WebhookSpec } from "./webhooks.js";
import type { Limiter, LimitsSpec, PasswordOutcome, RateLimitSpec } from "../limits/index.js";
import type { TableKey } from "./keys.js";
import type { SpecUploads, TakesFiles } from "./uploads.js";
import type { Isolation, TransactionOptions } from "./transactions.js";
import type { ServerOptions } from "./options.js";
import type { JobsSpec } from "./jobs.js";
import type { EventsSpec, OutboxWake } from "./events.js";
import type { SchemaSpec, TableChanges } from "./evolve.js";
import type { CurrentSpan } from "../lang/trace-context.js";

export type Dialect = "sqlite" | "postgres" | "mysql";

/** SQL text for one dialect's driver parameters; `slots[i]` is the index into `args` bound at slot i. */
export interface DialectSql {
  /** postgres numbers its parameters (`$1`); sqlite and mysql take one positional `?` per slot. */
  text: string;
  /** For each parameter slot, in order, the index into the statement's `args`. */
  slots: number[];
  /**
   * Where the dialect has no RETURNING (mysql: MySQL and TiDB have none, MariaDB none on
   * UPDATE), the read that yields the rows RETURNING would have: run by the adapter on the
   * same connection, in the same transaction. `before` (a delete) reads them first,
   * locking them; `after` (an insert, an update) reads them once the statement ran.
   */
  returning?: ReturningRead;
  /**
   * sqlite, for a statement that returns rows: its result columns as the build saw them, and
   * the row made from the values SQLite gives in that order (an object literal). The adapter
   * reads values as arrays and builds rows with it, which costs far less than the driver
   * naming every value of every row; it checks the names against the live statement first.
   */
  columns?: readonly string[];
  row?: (values: unknown[]) => Row;
  /** sqlite: the rows as JSON text SQLite writes, one a row, bound as `text` (docs/language.md, "Generated code"). */
  json?: string;
}

/** The `columns` and `row` of a sqlite statement, shared by the statements of one resource. */
export type RowLiteral = Required<Pick<DialectSql, "columns" | "row">>;

export interface ReturningRead {
  text: string;
  slots: number[];
  when: "before" | "after";
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

export interface TableDdl extends TableKey {
  createTable: string;
  columns: TableColumnDdl[];
  createIndexes: string[];
}

export interface TableSpec {
  name: string;
  ddl: Partial<Record<Dialect, TableDdl>>;
  /** `unique (…) fail …` of the resource: what a violation of each such index answers instead of svc's 409. */
  uniqueAnswers?: { columns: string[]; status: number; message: string }[];
  /** How the table changes beyond additive (docs/migrations.md); absent when its resource declares nothing. */
  changes?: TableChanges;
}

export type Row = Record<string, unknown>;

/** A value, or a promise of it; `await` takes either. */
export type Awaitable<T> = T | Promise<T>;

/**
 * Runs prepared statements; inside an action it is bound to the action's transaction. Reads
 * answer at once where the database can (SQLite outside a transaction: no promise, nor the
 * turn of the microtask queue awaiting one costs) and with a promise otherwise.
 */
export interface Executor {
  all(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row[]>; // every row
  one(stmt: StatementSpec, args: readonly unknown[]): Awaitable<Row | null>; // the first row, or null
  run(stmt: StatementSpec, args: readonly unknown[]): Promise<number>; // the number of rows changed
  /** Traced (runtime/traces): the span its statements are children of, which `enqueue` and `emit` store; wrappers pass it on. */
  readonly span?: CurrentSpan;
  /** Traced (runtime/traces): this executor with its statements children of `span` (an action's, a page's). */
  under?(span: CurrentSpan): Executor;
}

export interface Database extends Executor {
  readonly dialect: Dialect;
  /** Bound to a transaction already open (idempotency/bound.ts): `transaction` joins it, no rollback alone. */
  readonly nested?: true;
  /** Create missing tables, columns and indexes, and expand the changes `schema`'s build declares
   * (docs/migrations.md); throw a MigrationError on a difference no declaration explains. */
  migrate(tables: readonly TableSpec[], schema?: SchemaSpec): Promise<void>;
  /**
   * Prepare every statement once; a statement that fails to prepare is a start-up error.
   * Adapters whose database is across a network check the statements there, asynchronously.
   */
  prepare(stmts: readonly StatementSpec[]): void | Promise<void>;
  /**
   * Run `fn` in one transaction: commit when it resolves, roll back when it throws. `startedAt`
   * (default now): an action run again (auth/password-work.ts) keeps its first attempt's deadline.
   */
  transaction<T>(fn: (tx: Executor) => Awaitable<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Proves the database answers. An in-process database answers at once and returns nothing
   * (a failure throws); a networked one returns a promise, which /health bounds with a timeout.
   */
  ping(): Promise<void> | void;
  close(): Promise<void>;
  /** SQLite: `stmt`'s rows as the JSON its `json` SQL writes, `[…]`, or with `one` the first row or `null`. */
  json?(stmt: StatementSpec, args: readonly unknown[], one: boolean): Awaitable<string>;
  /** A streamed answer's rows, `batch` at a time (runtime/core/answer/stream): `each` says whether to go on. */
  stream?(stmt: StatementSpec, args: readonly unknown[], batch: number, each: (rows: Row[]) => boolean | Promise<boolean>): Promise<void>;
  /** The connection pools of a networked adapter, which metrics read (none for SQLite's one connection). */
  readonly pools?: readonly ConnectionPool[];
  /** Traced (runtime/traces): this database with its statements children of `span` (a request's, an action's). */
  under?(span: CurrentSpan): Database;
}

/** One pool of connections as metrics see it (docs/operations.md, Metrics: svc_db_pool_*). */
export interface ConnectionPool {
  /** The `pool` label: `statements` and `transactions` on PostgreSQL, `shared` on MySQL. */
  readonly name: string;
  /** Connections handed out and not given back. */
  readonly inUse: number;
  /** Of the pool's `pool_size`, those not handed out (opened on demand, so some may not be open yet). */
  readonly idle: number;
  /** Callers waiting for a connection. */
  readonly queued: number;
  /** Told each wait for a connection that got one, in seconds; null while metrics are off (one null check). */
  acquired: { observe(seconds: number): void } | null;
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
   * merged into a JSON body. Validators ask `isText(input, name)` (runtime/lang/args.ts).
   */
  textArgs?: readonly string[];
  /** The body's bytes as they arrived, unparsed: set only for endpoints with `rawBody` (webhooks). */
  raw?: Buffer;
}

export interface CallContext {
  req: IncomingMessage;
  requestId: string;
  /**
   * Who is calling (runtime/auth): resolved once per request, before any endpoint runs,
   * from a bearer token, a JWT or a session cookie; null when anonymous. Undefined in a
   * server without identity: `authorize` fails closed either way.
   */
  caller?: Caller | null;
  /** What issues tokens and starts and ends sessions; absent without `[auth]`. */
  identity?: IdentityService | null;
  /**
   * `Set-Cookie` values an action asked for (a session started or ended): sent only when
   * the call succeeds, since a failed action's session row was rolled back with it.
   */
  cookies?: string[];
  /** Rate limits and the sign-in throttle, and this call's password checks it writes once the call is over (runtime/limits). */
  limits?: Limiter | null;
  passwords?: PasswordOutcome[];
  /** The delivery loop (runtime/outbox), woken once a call that emitted has committed; absent without events. */
  outbox?: OutboxWake | null;
  /** Set by `emit`: the call stored an event. */
  emitted?: true;
  /** Traced (runtime/traces): the request's span, for the features that reach the database themselves (pages, limits). */
  span?: CurrentSpan;
}

/** The `auth` value of actions, route files and page views: the caller's subject, roles and claims. */
export interface Caller {
  id: string;
  roles: string[];
  /** The JWT's payload; `{}` for a bearer-list token or a session. */
  claims: Record<string, unknown>;
}

/** `requires auth` / `requires role "r"` of an action (docs/language.md §2.3, §6). */
export type Requirement = { kind: "auth" } | { kind: "role"; role: string };

/** What actions call for `issue_token`, `start_session` and `end_session` (runtime/auth/identity.ts). */
export interface IdentityService {
  /** The caller of `req`: null when anonymous; throws the 401 (or 400) of a credential sent and refused. `span`: the request's, when traced. */
  resolve(req: IncomingMessage, res: ServerResponse, span?: CurrentSpan): Caller | null | Promise<Caller | null>;
  issueToken(subject: string, roles: readonly string[] | null): Promise<string>;
  startSession(tx: Executor, ctx: CallContext, subject: string, roles: readonly string[] | null): Promise<string>;
  endSession(tx: Executor, ctx: CallContext): Promise<boolean>;
  /** `revoke(subject)`: ends the subject's other sessions, refuses its JWTs issued before now; the sessions ended. */
  revoke(tx: Executor, ctx: CallContext, subject: string): Promise<number>;
}

/** One callable thing: an action (runs in a transaction) or a query (reads). */
export interface EndpointSpec extends TakesFiles {
  kind: "action" | "query";
  /** `task_tracker.create_task` */
  name: string;
  /** Validate and coerce the input, then run. Throws HttpError for a bad argument or a `fail`. */
  run(db: Database, input: CallInput, ctx: CallContext): Awaitable<unknown>;
  /** The result's JSON text, JSON.stringify's, by a function made for its row type (answers/json-text.ts). */
  json?: (result: unknown) => string;
  /**
   * A query whose SQL has a `json` form: its answer as the database writes it (`Database.json`),
   * the text `json(run(…))` gives; undefined from a database without `json`.
   */
  answer?: (db: Database, input: CallInput) => Awaitable<string> | undefined;
  /** Give `run` the body's bytes in `input.raw` instead of parsed arguments (webhooks verify them before parsing). */
  rawBody?: boolean;
  /**
   * An action's `requires`, which `run` checks too: a call with an Idempotency-Key is
   * authorized before a stored answer may be replayed to it.
   */
  requires?: Requirement;
  /** Its answers carry a token or a session (decided at build time): all are `Cache-Control: no-store`. */
  noStore?: true;
  /**
   * The action handles credentials (it calls issue_token, start_session, end_session or
   * verify_password, or writes a password field, itself or through what it calls): never
   * recorded under an Idempotency-Key; a call with one runs as without it (docs/auth.md).
   */
  credentials?: true;
  /** The action's (or query's) `limit`s: counted before it runs wherever it is called from (runtime/limits). */
  limits?: RateLimitSpec<CallInput>[];
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What an entry of the route table leads to. */
export type RouteTarget =
  /** A module query or action, at `/api/<module>:<name>` or at a declared route. */
  | {
      kind: "endpoint";
      endpoint: EndpointSpec;
      /** `respond …`: the answer without the envelope; errors take the app's error shape. */
      respond?: (result: unknown, input: RespondInput) => ShapedAnswer;
      /** `respond csv|ndjson` to a query's rows: written as they are read (runtime/core/answer/stream). */
      stream?: StreamSpec;
      /** The declared route's own `limit`s, counted before the endpoint's. */
      limits?: RateLimitSpec<CallInput>[];
    }
  /** A declared webhook, by name (ServerSpec.webhooks): its verifier is made at start, with its secret. */
  | { kind: "webhook"; name: string }
  /** A route file of the app folder; each of its methods has an entry. */
  | { kind: "file"; file: RouteFileSpec }
  | { kind: "page"; page: PageSpec }
  /** A file the server serves itself: public/, and svc's own assets (Unpoly), by the request's path. */
  | { kind: "asset" };

/**
 * One entry of the route table, which the compiler emits in precedence order (docs/language.md
 * §2.4): webhooks, module endpoints, declared routes, route files, pages, public/ files.
 */
export interface RouteSpec {
  method: HttpMethod;
  /** As declared, for logs and messages: `/v1/tasks/:id/start`. Matched exactly without `segments`. */
  path: string;
  /** A path with parameters, split at build time: `["v1", "tasks", ":id", "start"]`. */
  segments?: string[];
  target: RouteTarget;
}

export interface ServerSpec extends SpecUploads {
  name: string;
  version: string;
  tables: TableSpec[];
  /** The build's schema hash and the resources it drops (docs/migrations.md). */
  schema?: SchemaSpec;
  statements: StatementSpec[];
  /** Every path the server answers, in precedence order: the first entry whose path and method match wins. */
  routes: RouteSpec[];
  /** Defaults from svc.toml `[server]` and `[database]`; command-line flags win over them. */
  defaults: Partial<ServerOptions>;
  /** Credentials the server reads at start (webhook secrets, `[auth]`); absent when it reads none. */
  credentials?: CredentialSpec[];
  /** svc.toml `[auth]`; absent without one. */
  auth?: AuthSpec;
  /** Declared webhooks: each answers `POST <path>` (runtime/webhooks). */
  webhooks?: WebhookSpec[];
  /** Route files, pages, layout and public/ of a project's app folder (runtime/pages); absent without one. */
  app?: AppSpec;
  /**
   * True when action calls with an `Idempotency-Key` run once (runtime/idempotency, which owns
   * the table of their answers); absent when no action is called over HTTP.
   */
  idempotency?: true;
  /** svc.toml `[errors]`: the error body of routes that shape their answer; absent, they keep the envelope. */
  errors?: ErrorShape;
  /** Present when something is limited or throttled: the server keeps counters (runtime/limits). */
  limits?: LimitsSpec;
  /** Present when the app declares events: the outbox's tables and its delivery loop (runtime/outbox). */
  events?: EventsSpec;
  /**
   * The text of openapi.json, where there is no file beside the server to read it from
   * (`svc dev` builds in memory). Never emitted by the generator; see runtime/api-docs.ts.
   */
  openapi?: string;
  /** Declared jobs and schedules (runtime/jobs); absent when the app has none. */
  jobs?: JobsSpec;
}

/**
 * The statements on `svc_idempotency_keys` (runtime/idempotency/table.ts). All but `sweep`
 * run inside the call's transaction.
 */
export interface IdempotencySpec {
  /** Args `(id, scope, key, fingerprint, expires_at)`: one row changed when new, none when the id is there; `key` is always empty. */
  claim: StatementSpec;
  /** Args `(id)`: the row's `fingerprint`, `status`, `body`, `expires_at`. */
  lookup: StatementSpec;
  /** Args `(id, now)`: deletes the row if it has expired. */
  expire: StatementSpec;
  /** Args `(status, body, id)`: stores the answer. */
  settle: StatementSpec;
  /** Args `(now)`: deletes every expired row. */
  sweep: StatementSpec;
}

/** Where a credential's value comes from (docs/language.md §6); the value itself is never in the spec. */
export interface CredentialSpec {
  name: string;
  from: { env: string } | { file: string };
  /** False when svc.toml does not declare it and `from` is the fallback `SVC_CREDENTIAL_<NAME>`. */
  declared: boolean;
}

/**
 * svc.toml `[auth]`: the mechanisms that say who is calling (docs/language.md §6). Each is
 * optional; a request may use any one of them, never two at once.
 */
export interface AuthSpec {
  /** `[auth] bearer`: the credential holding the accepted tokens. */
  bearer?: { credential: string };
  /** Accepted scheme words of `Authorization` (case-insensitive); default `["Bearer"]`. */
  schemes?: string[];
  /** `[auth.jwt]`. */
  jwt?: JwtSpec;
  /** `[auth.sessions]`. */
  sessions?: SessionSpec;
}

export interface JwtSpec {
  /** HS256: the credential holding the shared secret (at least 32 bytes). */
  secret?: string;
  /** EdDSA (Ed25519) or ES256: the credential holding a PKCS#8 PEM private key; the algorithm comes from the key. */
  privateKey?: string;
  /** An outside identity provider's key set: its tokens are verified, never issued. */
  jwksUrl?: string;
  /** How long after one fetch of the key set (answered or failed) the next may be made. */
  jwksCooldownMs?: number;
  issuer?: string;
  audience?: string;
  /** Seconds of clock difference forgiven on exp, nbf and iat; default 30. */
  leewayS?: number;
  /** `exp` = `iat` + this. */
  lifetimeS: number;
  /** The claim holding the roles (a list of strings, or one string). */
  rolesClaim: string;
  /** Declared claims: a token whose claim has another type is refused. */
  claims?: Record<string, ClaimType>;
}

export type ClaimType = "text" | "int" | "float" | "bool" | "json" | "list<text>";

export interface SessionSpec {
  /** Absolute: a session ends this long after it started, however much it is used. */
  lifetimeS: number;
  /** `[auth.sessions] idle`: a session unused this long ends; absent, only the lifetime counts. */
  idleS?: number;
  /** The cookie's name; `__Host-` is put before it when the cookie is Secure. */
  cookie: string;
}
