// The model the analyzer hands to the generator: plain, serializable, resolved.
// The generator never sees the AST; golden tests snapshot this as JSON.

import type { AppModel } from "./app-model.js";

export type * from "./app-model.js";

export type Backend = "sqlite" | "postgres" | "mysql" | "tidb";
export type Dialect = "sqlite" | "postgres" | "mysql";

export type ScalarType = "id" | "text" | "int" | "float" | "bool" | "timestamp" | "json" | "enum";

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
  /** Members for `enum`; empty otherwise. */
  enumValues: string[];
  nullable: boolean;
  default: DefaultValue | null;
  doc: string | null;
}

export interface IndexModel {
  /** Deterministic name: `<table>_<col>_<col>_idx` (or `_key` for unique). */
  name: string;
  unique: boolean;
  columns: { name: string; desc: boolean }[];
}

export interface ResourceModel {
  module: string;
  name: string;
  doc: string | null;
  /** Name of the `id` field (the primary key). */
  primaryKey: string;
  fields: FieldModel[];
  indexes: IndexModel[];
  /** DDL per dialect, made at build time; the runtime only executes it. */
  ddl: Partial<Record<Dialect, TableDdl>>;
}

/** What the server needs at start to create or extend one table in one dialect. */
export interface TableDdl {
  /** `CREATE TABLE IF NOT EXISTS …` with every column, the primary key and enum CHECKs. */
  createTable: string;
  /** Per field, in declaration order: its column definition and its SQL type as the database reports it back. */
  columns: { name: string; definition: string; sqlType: string; nullable: boolean; hasDefault: boolean }[];
  /** `CREATE [UNIQUE] INDEX IF NOT EXISTS …`, one per declared index. */
  createIndexes: string[];
}

/** The type of a value flowing through actions and endpoints. */
export type ValueType =
  | { kind: "scalar"; type: ScalarType; enumValues: string[]; nullable: boolean }
  | { kind: "row"; resource: string; nullable: boolean }
  | { kind: "rows"; resource: string }
  | { kind: "queryRow"; query: string; nullable: boolean }
  | { kind: "queryRows"; query: string }
  | { kind: "object"; fields: { name: string; type: ValueType }[] }
  | { kind: "array"; item: ValueType }
  | { kind: "null" }
  | { kind: "unknown" };

export interface ParamModel {
  name: string;
  type: ScalarType;
  enumValues: string[];
  nullable: boolean;
  /** The value used when the caller leaves the argument out. */
  default: DefaultLiteral | undefined;
  /** Required = not nullable and no default. */
  required: boolean;
}

/** A result column of a query, typed from the declared resources. */
export interface ColumnModel {
  name: string;
  /** "unknown" where the checker cannot tell (an expression it does not type). */
  type: ScalarType | "unknown";
  enumValues: string[];
  nullable: boolean;
}

/** SQL rewritten for one dialect's driver parameters, decided at build time. */
export interface DialectSql {
  /** e.g. `… WHERE status = ?1` (sqlite), `$1` (postgres), `?` (mysql). */
  text: string;
  /**
   * For each driver parameter slot, the index into the statement's `args` list.
   * Numbered dialects (sqlite `?N`, postgres `$N`) bind `args` as they are and this is
   * the identity; mysql's positional `?` repeats a name used twice.
   */
  slots: number[];
  /** A dialect without RETURNING: the read that yields its rows (runtime/types.ts `ReturningRead`). */
  returning?: { text: string; slots: number[]; when: "before" | "after" };
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
   * as svc's JSON (offsets in the SQL body's text, `source` before trimming); absent when none.
   */
  jsonValues?: { start: number; end: number; type: "bool" | "timestamp" }[];
}

export interface QueryModel {
  module: string;
  name: string;
  doc: string | null;
  params: ParamModel[];
  one: boolean;
  sql: SqlModel;
  columns: ColumnModel[];
  /** When every column comes straight from one resource with all its fields: its name. */
  rowResource: string | null;
}

// ---------------------------------------------------------------- actions

export type Requirement = { kind: "auth" } | { kind: "role"; role: string };

export type BuiltinName =
  | "now"
  | "trim"
  | "lower"
  | "upper"
  | "len"
  | "coalesce"
  | "slug"
  | "replace"
  | "starts_with"
  | "ends_with"
  | "contains"
  | "substr"
  | "join";

/** A typed, resolved expression. Every name is already bound to what it means. */
export type IrExpr = (
  | { kind: "literal"; value: Literal }
  | { kind: "param"; name: string }
  | { kind: "local"; name: string }
  | { kind: "member"; object: IrExpr; property: string; optional: boolean }
  | { kind: "object"; entries: { key: string; value: IrExpr }[] }
  | { kind: "array"; items: IrExpr[] }
  | { kind: "binary"; op: IrBinaryOp; left: IrExpr; right: IrExpr }
  | { kind: "unary"; op: "not" | "neg"; operand: IrExpr }
  | { kind: "builtin"; name: BuiltinName; args: IrExpr[] }
  | { kind: "query"; module: string; query: string; args: { name: string; value: IrExpr }[] }
  | { kind: "action"; module: string; action: string; args: { name: string; value: IrExpr }[] }
  | { kind: "record"; op: "get" | "delete"; resource: string; statement: string; key: IrExpr }
  | { kind: "record"; op: "insert"; resource: string; statement: string; fields: RecordWrite[] }
  | { kind: "record"; op: "update"; resource: string; statement: string; key: IrExpr; fields: RecordWrite[] }
) & { type: ValueType };

export type IrBinaryOp = "or" | "and" | "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "add" | "concat" | "sub" | "mul" | "div";

/**
 * One field written by insert/update. `check` says which runtime check the value needs
 * before it is written (a static type that already guarantees it needs none).
 */
export interface RecordWrite {
  field: string;
  value: IrExpr;
  check: "none" | "notNull" | "enum" | "enumOrNull";
}

export type IrStmt =
  | { kind: "let"; name: string; value: IrExpr }
  | { kind: "if"; cond: IrExpr; then: IrStmt[]; else: IrStmt[] }
  | { kind: "fail"; status: number; message: IrExpr }
  | { kind: "return"; value: IrExpr | null }
  | { kind: "expr"; expr: IrExpr }
  | { kind: "sql"; statement: string; args: IrExpr[] };

/** A statement an action runs: record operations and `sql { … }` blocks, prepared once at start. */
export interface StatementModel {
  name: string;
  sql: SqlModel;
}

export interface ActionModel {
  module: string;
  name: string;
  doc: string | null;
  params: ParamModel[];
  requires: Requirement | null;
  body: IrStmt[];
  returns: ValueType;
}

// ---------------------------------------------------------------- routes, webhooks, project

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface TargetRef {
  kind: "action" | "query";
  module: string;
  name: string;
}

export interface RouteModel {
  module: string;
  method: HttpMethod;
  path: string;
  /** `["v1", "tasks", ":id"]`, precomputed for the router. */
  segments: string[];
  target: TargetRef;
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

/** Where the server reads a credential at start (LANGUAGE §6): never its value. */
export interface CredentialModel {
  name: string;
  from: { env: string } | { file: string };
  /** False when svc.toml does not declare it: then `from` is the variable `SVC_CREDENTIAL_<NAME>`. */
  declared: boolean;
}

/** svc.toml `[auth]`. */
export interface AuthModel {
  bearer: { credential: string };
}

/** The table of handled webhook deliveries (exactly once, LANGUAGE §2.4) and the statement that records one. */
export interface DeliveryStoreModel {
  table: string;
  ddl: Partial<Record<Dialect, TableDdl>>;
  /** Inserts `(id, webhook, delivery)` unless the id is there: one row changed when new, none when handled before. */
  record: StatementModel;
}

/** svc.toml `[server]` and `[database]`, named as the runtime's ServerOptions (runtime/types.ts) names them. */
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
}

export interface Model {
  name: string;
  version: string;
  mode: "module" | "app" | "project";
  /** Every source file, relative to the project root, sorted. */
  sources: string[];
  modules: string[];
  resources: ResourceModel[];
  queries: QueryModel[];
  actions: ActionModel[];
  /** Record-operation and `sql { … }` statements of all actions, deduplicated by name. */
  statements: StatementModel[];
  routes: RouteModel[];
  webhooks: WebhookModel[];
  defaults: ServerDefaults;
  /** Credentials the server reads at start (webhook secrets, `[auth]`), by name; absent when none. */
  credentials?: CredentialModel[];
  /** svc.toml `[auth]`; absent without one. */
  auth?: AuthModel;
  /** Absent without webhooks. */
  deliveryStore?: DeliveryStoreModel;
  /** Project mode with an app folder or public/: route files, pages, layout, static files (app-model.ts). */
  app?: AppModel;
}
