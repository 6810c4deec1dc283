// The model the analyzer hands to the generator: plain, serializable, resolved.
// The generator never sees the AST; golden tests snapshot this as JSON.

import type { Position, Span } from "../../parse/ast.js";
import type { ActionModel, FnModel, PreparedSql, ScheduleModel, StatementModel } from "./action-model.js";
import type { AppModel, RouteExprModel } from "./app-model.js";
import type { EndpointModel, RouteEntryModel } from "./route-table-model.js";
import type { LimitModel, ThrottleModel } from "../config/limits.js";
import type { UploadsModel } from "../config/uploads.js";
import type { Backend } from "../../project/config/schema.js";

export type * from "./app-model.js";
export type * from "./action-model.js";
export type * from "./route-table-model.js";
export type { Backend };

export type Dialect = "sqlite" | "postgres" | "mysql";

export type ScalarType = "id" | "text" | "int" | "float" | "bool" | "timestamp" | "json" | "enum" | "file";

/** A literal value as it appears in a default. */
export type Literal = string | number | boolean | null;

/** A JSON value written as a literal, e.g. a json field's default `[]` or `{"tags": []}`. */
export type JsonValue = Literal | JsonValue[] | { [key: string]: JsonValue };

/** A default: a literal of the declared type; for `json`, any constant JSON value. */
export type DefaultLiteral = JsonValue;

export type DefaultValue = { kind: "value"; value: DefaultLiteral } | { kind: "now" };

export interface FieldModel {
  name: string;
  type: ScalarType;
  /** A `password` field: stored as text, hashed on every write, never in an answer. */
  password?: true;
  /** Members for `enum`; empty otherwise. */
  enumValues: string[];
  nullable: boolean;
  default: DefaultValue | null;
  doc: string | null;
  /**
   * A key the server or the database makes on insert (docs/language.md §2.1, Keys): `id` and
   * `id(ulid)` a ULID, `id(uuid)` a UUID v4, `id(uuid7)` a UUID v7 (type `id`, text), `id(int)`
   * an integer identity the database counts (type `int`). Absent for other fields.
   */
  generated?: KeyGeneration;
}

export type KeyGeneration = "ulid" | "uuid" | "uuid7" | "identity";

export interface IndexModel {
  /** Deterministic name: `<table>_<col>_<col>_idx` (or `_key` for unique). */
  name: string;
  unique: boolean;
  columns: { name: string; desc: boolean }[];
  /** `unique (…) fail 422 "…"`: what a violation of this index answers (§2.1); absent for svc's 409. */
  fail?: { status: number; message: string };
}

/** Where a declaration or a statement is written: for messages that point back into the source. */
export interface SourceRef {
  file: string;
  /** A declaration's name, or a whole `sql { … }` statement. */
  span: Span;
}

/**
 * Where SQL written in a .svc file is: `start` is where its trimmed text (`SqlModel.source`)
 * begins, `params` the [start, end) offsets of each `@name` in that text, so a place a
 * database points at in the SQL it was sent maps back to a line and column.
 */
export interface SqlSourceRef extends SourceRef {
  text: { start: Position; params: [number, number][] };
}

export interface ResourceModel {
  module: string;
  name: string;
  doc: string | null;
  at: SourceRef;
  /** The primary key's fields, in key order: the `id` field, or those of `key (…)`. */
  primaryKey: string[];
  fields: FieldModel[];
  indexes: IndexModel[];
  /** DDL per dialect, made at build time; the runtime only executes it. */
  ddl: Partial<Record<Dialect, TableDdl>>;
  /** How the table changes beyond additive (docs/language.md §2.1, Changing a resource); absent when nothing is declared. */
  changes?: TableChangesModel;
}

/** A SQL expression per dialect in which a column of the row is written `{name}` (runtime/contract/evolve.ts RowExpression). */
export type RowExpression = Record<Dialect, string>;

/** One field's declared change, as runtime/contract/evolve.ts ColumnChange, with where it is declared. */
export interface ColumnChangeModel {
  column: string;
  renamedFrom?: string;
  retype?: {
    from: Record<Dialect, { declared: string; reported: string }>;
    up: RowExpression;
    down: RowExpression;
    lossy: boolean;
  };
  backfill?: RowExpression;
  /** The history table's name of the change, e.g. `task.headline renamed from title` (one per clause kind the field declares). */
  keys: string[];
  at: SourceRef;
}

export interface TableChangesModel {
  columns: ColumnChangeModel[];
  dropColumns: { name: string; at: SourceRef }[];
}

/** What the build declares about its schema as a whole (runtime/contract/evolve.ts SchemaSpec). */
export interface SchemaModel {
  /** First 12 hex digits of the sha256 of every table's DDL and declared changes. */
  build: string;
  dropTables: { name: string; at: SourceRef }[];
}

/** What the server needs at start to create or extend one table in one dialect. */
export interface TableDdl {
  /** `CREATE TABLE IF NOT EXISTS …` with every column, the primary key and enum CHECKs. */
  createTable: string;
  /** Per field, in declaration order: its column definition and its SQL type as the database reports it back. */
  columns: { name: string; definition: string; sqlType: string; nullable: boolean; hasDefault: boolean }[];
  /** `CREATE [UNIQUE] INDEX IF NOT EXISTS …`, one per declared index. */
  createIndexes: string[];
  /** The primary key's columns, in key order; the start-time check compares them with the live table's. */
  primaryKey?: string[];
  /** The column the database numbers itself (`id(int)`: identity, AUTO_INCREMENT, INTEGER PRIMARY KEY AUTOINCREMENT); absent when none. */
  identity?: string;
}

/** The type of a value flowing through actions and endpoints. */
export type ValueType =
  | { kind: "scalar"; type: ScalarType; enumValues: string[]; nullable: boolean }
  | { kind: "row"; resource: string; nullable: boolean }
  | { kind: "rows"; resource: string }
  | { kind: "queryRow"; query: string; nullable: boolean }
  | { kind: "queryRows"; query: string }
  /** An object literal, or a value of a record type (`type` names it; `nullable` for `T?`). */
  | { kind: "object"; fields: { name: string; type: ValueType; absent?: true }[]; module?: string; type?: string; nullable?: boolean }
  /** A list literal, or a `list<T>` value (`nullable` for `list<T>?`). */
  | { kind: "array"; item: ValueType; nullable?: boolean }
  /** `auth`: `{ id: text, roles: list<text>, claims: json }`, null when anonymous. */
  | { kind: "caller"; nullable: boolean }
  | { kind: "null" }
  /**
   * A value whose type is known only at run time. `from` is set when it was read out of a
   * json value (a member of a `json` argument or webhook payload): the member path as
   * written (`payload.issue.title`), which a typed slot checks it against (an `expect`).
   */
  | { kind: "unknown"; from?: string };

export interface ParamModel {
  name: string;
  type: ScalarType;
  enumValues: string[];
  nullable: boolean;
  /** The value used when the caller leaves the argument out. */
  default: DefaultLiteral | undefined;
  /** Required = not nullable and no default. */
  required: boolean;
  /** `T??`: an absent argument is `undefined`, told apart from null (`has(x)`; §2.3, Absent arguments). */
  absent?: true;
  /**
   * A `list<T>` or record-type argument: what the edge checks (runtime/lang/shape.ts). Such an
   * argument travels as JSON, so `type` is then "json"; absent for single values.
   */
  shape?: ShapeModel;
}

/** The structure of a list or record argument, or of a member of a record type. */
export type ShapeModel =
  | { kind: "scalar"; type: ScalarType; enumValues: string[]; nullable: boolean; absent?: true }
  /** At most `max` items: longer is a 400 (docs/language.md §2.3, Lists). */
  | { kind: "list"; item: ShapeModel; max: number; nullable: boolean }
  | { kind: "record"; module: string; type: string; nullable: boolean };

/** `event name { … }` (docs/language.md §2.9): its members are checked as an action's parameters are. */
export interface EventModel {
  name: string;
  /** The module that declares it; event names are global. */
  module: string;
  doc: string | null;
  members: ParamModel[];
}

/** Declared events, svc.toml's subscribers and the delivery settings (runtime/outbox's EventsSpec). */
export interface EventsModel {
  declared: EventModel[];
  subscribers: { name: string; url: string; secret: string; events: string[] }[];
  firstRetryMs: number;
  maxRetryMs: number;
  maxAttempts: number;
  timeoutMs: number;
  pollMs: number;
}

/** `type NewUser { … }`: a named record type of a module, checked member by member at the edge. */
export interface RecordTypeModel {
  module: string;
  name: string;
  doc: string | null;
  members: { name: string; shape: ShapeModel; default: DefaultLiteral | undefined; required: boolean }[];
}

/** A result column of a query, typed from the declared resources. */
export interface ColumnModel {
  name: string;
  /** The column reads a `password` field (the analyzer refuses it, SVC7009). */
  password?: true;
  /** "unknown" where the checker cannot tell (an expression it does not type). */
  type: ScalarType | "unknown";
  enumValues: string[];
  nullable: boolean;
}

/** SQL rewritten for one dialect's driver parameters, decided at build time. */
export interface DialectSql {
  /** e.g. `… WHERE status = ?` (sqlite and mysql, one `?` per occurrence), `$1` (postgres). */
  text: string;
  /**
   * For each driver parameter slot, the index into the statement's `args` list. postgres's
   * numbered `$N` bind `args` as they are and this is the identity; sqlite's and mysql's
   * positional `?` repeat a name used twice.
   */
  slots: number[];
  /** A dialect without RETURNING: the read that yields its rows (runtime/contract/server.ts `ReturningRead`). */
  returning?: { text: string; slots: number[]; when: "before" | "after" };
  /** sqlite, a query's: its rows as JSON text, written by SQLite, with the same slots (sql/sqlite/json-rows.ts). */
  json?: string;
}

export interface SqlModel {
  /** The source text as written, for docs and comments. */
  source: string;
  /** Distinct `@name`s in order of first appearance: the order the generated code passes values. */
  args: string[];
  dialects: Partial<Record<Dialect, DialectSql>>;
  /** True when the statement only reads (SELECT / WITH … SELECT). */
  readonly: boolean;
  /**
   * Booleans and timestamps inside JSON built by the SQL, which the dialects' texts write
   * as svc's JSON (offsets in `source`, as SqlSourceRef's `params` are); absent when none.
   */
  jsonValues?: { start: number; end: number; type: "bool" | "timestamp" | "intDivision" }[];
}

export interface QueryModel {
  module: string;
  name: string;
  doc: string | null;
  at: SqlSourceRef;
  params: ParamModel[];
  /** Arguments that may arrive as text even inside a JSON call (see `ActionModel.textArgs`). */
  textArgs: string[];
  one: boolean;
  sql: SqlModel;
  columns: ColumnModel[];
  /** When every column comes straight from one resource with all its fields: its name. */
  rowResource: string | null;
  /** `private query`: no `/api/<module>:<name>` endpoint and no module `route` (§2.3, Private queries and actions); absent when public. */
  private?: true;
  /** How a request reaches it; null: nothing does (route-table.ts). */
  endpoint: EndpointModel | null;
}

// ---------------------------------------------------------------- routes, webhooks, project

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface TargetRef {
  kind: "action" | "query";
  module: string;
  name: string;
}

/**
 * `respond …` on a module route or a route-file block (docs/language.md §2.4, §4): the
 * answer without the envelope, decided at build time; errors take the app's error shape.
 */
export interface ResponseModel {
  status: SuccessStatus;
  /** What the body is built from; null for a 204, and where the body is the result (or route data) itself. */
  body: RouteExprModel | null;
  /** True for 204: no body at all. */
  empty: boolean;
  headers: { name: string; value: RouteExprModel }[];
  /** A module route to a `one` query: no row is a 404, as `fetch` is in route files. */
  notFoundOnNull: boolean;
  /** `file:line:col` of the respond clause. */
  source: string;
  /**
   * `respond text|html|csv|type "…"` (compiler/analyze/answers/respond-media.ts): the Content-Type, and
   * whether the body is written as text ("text") or as JSON (a JSON media type); absent for JSON.
   */
  media?: {
    contentType: string;
    encoding: "text" | "json";
    /** `respond html`: values that are not literals of the respond are HTML-escaped. */
    escape?: "html";
  };
  /**
   * `respond csv` (no body) or `respond ndjson` to a query that returns rows
   * (compiler/analyze/answers/respond-stream.ts): the rows are streamed, one line each, with these columns.
   */
  stream?: {
    format: "csv" | "ndjson";
    columns: { name: string; kind: "bool" | "json" | "value" }[];
  };
}

export const SUCCESS_STATUSES = [200, 201, 202, 204] as const;
export type SuccessStatus = (typeof SUCCESS_STATUSES)[number];

/** svc.toml `[errors]`: how a shaped route's error bodies look, compiled into one function. */
export interface ErrorShapeModel {
  /** The body template as a JSON value; strings may hold {message} and {status}. */
  body: unknown;
  /** What argument-check 400s become on shaped routes. */
  validationStatus: number;
}

export interface RouteModel {
  module: string;
  method: HttpMethod;
  path: string;
  /** `["v1", "tasks", ":id"]`, precomputed for the router. */
  segments: string[];
  target: TargetRef;
  /** Absent: the route answers with the envelope, as `/api/<module>:<name>` does. */
  respond?: ResponseModel;
  /** `unsafe route GET …`: a GET that may reach a write (docs/language.md §3); absent otherwise. */
  unsafe?: true;
  /** The route's own `limit …` clauses (§2.6), counted before its target's; absent when none. */
  limits?: LimitModel[];
  /** `file:line` of the declaration, for messages and generated comments. */
  source: string;
}

export interface WebhookModel {
  module: string;
  name: string;
  provider: "github" | "stripe" | "slack" | "standard" | "hmac";
  credential: string;
  path: string;
  handler: TargetRef;
  source: string;
}

/** Where the server reads a credential at start (docs/language.md §6): never its value. */
export interface CredentialModel {
  name: string;
  from: { env: string } | { file: string };
  /** False when svc.toml does not declare it: then `from` is the variable `SVC_CREDENTIAL_<NAME>`. */
  declared: boolean;
}

/** svc.toml `[auth]`: each mechanism present only when configured (runtime/contract/server.ts AuthSpec). */
export interface AuthModel {
  bearer?: { credential: string };
  /** Accepted `Authorization` scheme words; absent means `["Bearer"]`. */
  schemes?: string[];
  jwt?: JwtModel;
  sessions?: SessionStoreModel;
}

export type ClaimType = "text" | "int" | "float" | "bool" | "json" | "list<text>";

export interface JwtModel {
  /** Credential names, never values. */
  secret?: string;
  privateKey?: string;
  jwksUrl?: string;
  jwksCooldownMs?: number;
  issuer?: string;
  /** Absent when not configured or written `audience = false`: then `aud` is not checked. */
  audience?: string;
  /** `[auth.jwt] leeway`; absent: the runtime's default, 30 s. */
  leewayS?: number;
  lifetimeS: number;
  rolesClaim: string;
  /** Declared claims: checked in every verified token, typed in `auth.claims.<name>`. */
  claims?: Record<string, ClaimType>;
}

/**
 * `[auth.sessions]`. The runtime owns the session table and its statements
 * (runtime/auth/sessions-table.ts); `table` is the name no resource may take.
 */
export interface SessionStoreModel {
  lifetimeS: number;
  /** `idle`: a session unused this long ends; absent, only the lifetime counts. */
  idleS?: number;
  cookie: string;
  table: string;
}

/**
 * The table of handled webhook deliveries (exactly once, docs/language.md §2.4), present with a
 * webhook. The runtime owns it and its statement (runtime/webhooks/table.ts); `table` is the
 * name no resource may take.
 */
export interface DeliveryStoreModel {
  table: string;
}

/**
 * The table of answers to action calls made with an `Idempotency-Key`, present when an action
 * is called over HTTP. The runtime owns it and its statements (runtime/idempotency/table.ts);
 * `table` is the name no resource may take.
 */
export interface IdempotencyStoreModel {
  table: string;
}

/** svc.toml `[server]` and `[database]`, named as the runtime's ServerOptions (runtime/contract/server.ts) names them. */
export interface ServerDefaults {
  listen?: string;
  backend?: Backend;
  db?: string;
  corsOrigin?: string;
  readTimeoutMs?: number;
  writeTimeoutMs?: number;
  maxBodySize?: number;
  workers?: number;
  logLevel?: "error" | "warn" | "info" | "debug" | "trace";
  publicUrl?: string;
  trustProxy?: boolean;
  openapi?: boolean;
  serverHeader?: string;
  metrics?: boolean;
  metricsListen?: string;
  /** A credential's name (it is among the model's credentials). */
  metricsToken?: string;
}

export interface Model {
  name: string;
  version: string;
  mode: "module" | "app" | "project";
  /** Every source file, relative to the project root, sorted. */
  sources: string[];
  modules: string[];
  resources: ResourceModel[];
  /** Present when some resource declares a change, or a module a `drop resource` (docs/language.md §2.1, Changing a resource). */
  schema?: SchemaModel;
  queries: QueryModel[];
  actions: ActionModel[];
  /** Record-operation and `sql { … }` statements of all actions, deduplicated by name. */
  statements: StatementModel[];
  routes: RouteModel[];
  webhooks: WebhookModel[];
  /**
   * Every method and path the server answers, in the order it matches them: webhooks, the
   * `/api/<module>:<name>` endpoints, module routes as declared, route files, pages, public/ files.
   */
  routeTable: RouteEntryModel[];
  defaults: ServerDefaults;
  /** Credentials the server reads at start (webhook secrets, `[auth]`), by name; absent when none. */
  credentials?: CredentialModel[];
  /** svc.toml `[auth]`; absent without one. */
  auth?: AuthModel;
  /** Absent without webhooks. */
  deliveryStore?: DeliveryStoreModel;
  /** Record types (`type NewUser { … }`) of all modules; absent when none is declared. */
  types?: RecordTypeModel[];
  /** Events, their subscribers and delivery settings (§2.9); absent when no module declares an event. */
  events?: EventsModel;
  /** Present when some action is called over HTTP: where `Idempotency-Key` answers are kept. */
  idempotencyStore?: IdempotencyStoreModel;
  /** The fn instances actions call (§2.3, Functions); absent when there are none. */
  fns?: FnModel[];
  /** Project mode with an app folder or public/: route files, pages, layout, static files (app-model.ts). */
  app?: AppModel;
  /** svc.toml `[errors]`; absent: shaped routes answer errors with the envelope. */
  errorShape?: ErrorShapeModel;
  /** Present when something is limited or a password is verified: the server keeps rate counters (§2.6). */
  limits?: { throttle: ThrottleModel | null };
  /** svc.toml `[uploads]` with its defaults: present when an action takes a `file` or a resource stores one (§2.7). */
  uploads?: UploadsModel;
  /** `schedule …` declarations (§2.8); absent when none. Jobs are among `actions`, with `job` set. */
  schedules?: ScheduleModel[];
}
