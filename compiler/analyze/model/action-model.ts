// The actions part of the model (docs/language.md §2.3): what an action body was analyzed
// into (IR expressions and statements), the statements it runs, and actions and fns
// themselves. Re-exported by model.ts, where the rest of the model is.

import type { Literal, ParamModel, SourceRef, SqlModel, SqlSourceRef, ValueType } from "./model.js";
import type { EndpointModel } from "./route-table-model.js";
import type { LimitModel } from "../config/limits.js";

export type Requirement = { kind: "auth" } | { kind: "role"; role: string };

export type BuiltinName =
  | "now"
  | "trim"
  | "lower"
  | "upper"
  | "len"
  | "coalesce"
  // Text (docs/language.md §2.3, Built-in functions)
  | "slug"
  | "replace"
  | "starts_with"
  | "ends_with"
  | "substr"
  // Text or lists
  | "contains"
  // Lists (docs/language.md §2.3, Lists)
  | "unique"
  | "sort"
  | "join"
  // Values made in code (docs/language.md §2.3, Built-in functions; runtime/values/)
  | "random"
  | "random_int"
  | "parse_int"
  | "parse_float"
  | "parse_bool"
  | "clamp"
  | "min"
  | "max"
  | "range"
  | "has"
  // Identity (docs/language.md, Identity)
  | "verify_password"
  | "issue_token"
  | "start_session"
  | "end_session"
  | "revoke"
  // Jobs (docs/language.md §2.8): the running job's id, in a job's body only.
  | "job_id";

/** A typed, resolved expression. Every name is already bound to what it means. */
export type IrExpr = (
  | { kind: "literal"; value: Literal }
  /** `absent`: a `T??` parameter, `undefined` when the call left it out. */
  | { kind: "param"; name: string; absent?: true }
  | { kind: "local"; name: string }
  /** `auth`: the caller the server resolved before the action ran. */
  | { kind: "caller" }
  /** `absent`: a `T??` member of a record type, `undefined` when the client left it out. */
  | { kind: "member"; object: IrExpr; property: string; optional: boolean; absent?: true }
  | { kind: "object"; entries: { key: string; value: IrExpr }[] }
  | { kind: "array"; items: IrExpr[] }
  | { kind: "binary"; op: IrBinaryOp; left: IrExpr; right: IrExpr }
  | { kind: "unary"; op: "not" | "neg"; operand: IrExpr }
  /**
   * `rehash`, on verify_password only: how a matching stored hash weaker than new ones is
   * written back (docs/auth.md, Upgrading stored hashes): the statement, and the row the
   * stored hash was read from (a local) with its primary key field. `throttled`: a
   * verify_password in an action, which the sign-in throttle wraps (runtime/limits).
   */
  | { kind: "builtin"; name: BuiltinName; args: IrExpr[]; rehash?: Rehash; throttled?: true }
  | { kind: "query"; module: string; query: string; args: { name: string; value: IrExpr }[] }
  /** Another action of the module, run on the caller's executor: one transaction (§2.3, Calling an action). */
  | { kind: "action"; module: string; action: string; args: { name: string; value: IrExpr }[] }
  /** A fn, by the instance made for its argument types (`FnModel.id`); `mayFail` when its body has a `fail`. */
  | { kind: "fn"; fn: string; args: { name: string; value: IrExpr }[]; mayFail: boolean }
  /** `key`: one value per key field, in key order. */
  | { kind: "record"; op: Extract<RecordOp, "get" | "delete">; resource: string; statement: string; key: IrExpr[] }
  | { kind: "record"; op: "insert"; resource: string; statement: string; fields: RecordWrite[] }
  | { kind: "record"; op: "update" | "patch"; resource: string; statement: string; key: IrExpr[]; fields: RecordWrite[] }
  /**
   * `enqueue job(args) after 10m unique key priority 5` (§2.8): one INSERT into the jobs table on
   * the caller's transaction. `delayMs` and `priority` absent when not written.
   */
  | { kind: "enqueue"; module: string; job: string; args: { name: string; value: IrExpr }[]; delayMs?: number; unique?: IrExpr; priority?: number }
  /** A value read from json meeting a typed slot: checked at run time, a 400 naming `path` when it does not fit. */
  | { kind: "expect"; value: IrExpr; as: ExpectKind; orNull: boolean; path: string }
) & { type: ValueType };

/** Where verify_password writes back an upgraded hash: `UPDATE … SET f = new WHERE pk = row.pk AND f = old`. */
export interface Rehash {
  statement: string;
  row: IrExpr;
  /** The key fields, in key order. */
  key: string[];
}

/** The run-time checks on json members (runtime/lang/expect.ts); `sized` is text or a list (for `len`). */
export type ExpectKind = "text" | "id" | "int" | "float" | "bool" | "timestamp" | "file" | "sized" | "list" | "textList";

export type IrBinaryOp = "or" | "and" | "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "add" | "concat" | "sub" | "mul" | "div";

/**
 * One field written by insert/update. `check` says which runtime check the value needs
 * before it is written (a static type that already guarantees it needs none).
 */
export interface RecordWrite {
  field: string;
  value: IrExpr;
  check: "none" | "notNull" | "enum" | "enumOrNull" | "password" | "passwordOrNull";
  /** The value is a `T??` argument or member as it is: absent writes nothing (an insert's default; an update keeps the field). */
  absent?: true;
}

export type IrStmt =
  | { kind: "let"; name: string; value: IrExpr }
  | { kind: "if"; cond: IrExpr; then: IrStmt[]; else: IrStmt[] }
  /** `challenge`: the `WWW-Authenticate` of a `fail 401` (RFC 9110 §15.5.2), the identity's first scheme word. */
  | { kind: "fail"; status: number; message: IrExpr; challenge?: string }
  | { kind: "return"; value: IrExpr | null }
  | { kind: "expr"; expr: IrExpr }
  | { kind: "sql"; statement: string; args: IrExpr[] }
  /**
   * `for name in list { … }`; a null list runs the body no time. `collect`: the loop is the
   * value of `let into = for …`, a list of what its `yield`s give, at most `max` items of `item`.
   */
  | { kind: "for"; name: string; list: IrExpr; body: IrStmt[]; collect?: { into: string; max: number; item: ValueType } }
  /** `yield value` into the list `into` that a collecting `for` builds, bounded by its `max`. */
  | { kind: "yield"; into: string; value: IrExpr; max: number }
  /** `emit event { … }` (§2.9): one row into the outbox, in the action's transaction; `data` is an object of every member. */
  | { kind: "emit"; event: string; data: IrExpr };

/** A named statement the server prepares once at start. */
export interface PreparedSql {
  name: string;
  sql: SqlModel;
}

/** `patch` is an `update` given a `T??` value: a field whose value is absent keeps what it holds. */
/** `rehash` is no operation of the language: verify_password's upgrade of a weak stored hash. */
export type RecordOp = "get" | "insert" | "update" | "delete" | "rehash" | "patch";

/** What a statement was made for: which generated code runs it, and what a message about it names. */
export type StatementOwner =
  | { kind: "record"; resource: string; op: RecordOp; fields: string[] }
  /** The `index`-th `sql { … }` of an action (from 1, in source order, `then` before `else`). */
  | { kind: "sql"; module: string; action: string; index: number };

/** A statement an action runs: record operations and `sql { … }` blocks, prepared once at start. */
export interface StatementModel extends PreparedSql {
  owner: StatementOwner;
  /** The `sql { … }` as written; a record operation's resource declaration. */
  at: SourceRef | SqlSourceRef;
}

/** An isolation an action may ask for; `serializable` is the default and never written into the model. */
export type Isolation = "repeatable read" | "read committed";

export interface ActionModel {
  module: string;
  name: string;
  doc: string | null;
  params: ParamModel[];
  requires: Requirement | null;
  /**
   * Arguments that may arrive as text even inside a JSON call, so the validator must ask
   * whether each value is text: path parameters of the routes that call it, and path and
   * query values route files pass it.
   */
  textArgs: string[];
  body: IrStmt[];
  /**
   * Runs in an explicit transaction: it has two or more statements, or a `fail` after a
   * statement that would have to undo it. One statement alone is atomic without one.
   */
  transaction: boolean;
  /**
   * `transaction repeatable read` or `transaction read committed` (§2.3, Transactions): the
   * isolation its transaction runs at; absent for the default, serializable.
   */
  isolation?: Isolation;
  /** `transaction none`: each statement commits on its own (`transaction` is then false). */
  autocommit?: true;
  returns: ValueType;
  /**
   * The action hashes or verifies a password, itself or through an action it calls: its
   * transaction runs that work outside, rolling back and running again (runtime/auth/password-work.ts).
   */
  passwords?: true;
  /** The body uses the call's context (`auth`, issue_token, sessions): the action takes `ctx`. */
  context?: true;
  /**
   * The first write the action reaches, in source order (a record insert, update or delete,
   * an `sql { … }` that is not a SELECT, a session started or ended), and the actions called
   * on the way to it; absent when it only reads. A GET may not reach one (docs/language.md §3).
   */
  writes?: WriteModel;
  /**
   * Its answer carries a token or a session: it calls issue_token, start_session or
   * end_session, itself or through an action it calls. Every answer of it is
   * `Cache-Control: no-store` (docs/auth.md).
   */
  issuesCredentials?: true;
  /**
   * Handles credentials: calls issue_token, start_session, end_session or verify_password,
   * or writes a `password` field, itself or through the actions and fns it calls
   * (credential-actions.ts). Never recorded under an Idempotency-Key: a call with one
   * runs as without it; absent otherwise.
   */
  credentials?: true;
  /** The body calls verify_password, which the sign-in throttle wraps (docs/auth.md); absent otherwise. */
  verifiesPassword?: true;
  /** `limit …` clauses (§2.6): counted wherever the action is called from; absent when none. */
  limits?: LimitModel[];
  /** `private action`: no `/api/<module>:<name>` endpoint and no module `route` (§2.3, Private queries and actions); absent when public. */
  private?: true;
  /** How a request reaches it; null: nothing does (route-table.ts). */
  endpoint: EndpointModel | null;
  /**
   * The statuses its `fail`s answer, and 400 for a json member that does not fit, through the
   * actions and fns it calls, ascending (action-reach.ts).
   */
  failStatuses: number[];
  /** It reads the caller (`auth`), itself or through what it calls: a credential changes its answer. */
  readsCaller: boolean;
  /** A `job` (§2.8): run by the server's job runner, never over HTTP (`private` is set too); absent for an action. */
  job?: JobOptionsModel;
}

/** A job's options with their defaults filled in (docs/language.md §2.8). */
export interface JobOptionsModel {
  queue: string;
  attempts: number;
  timeoutMs: number;
  priority: number;
  /** `file:line:col` of the declaration. */
  source: string;
}

/** `schedule name every … runs job(args) missed …` (§2.8). */
export interface ScheduleModel {
  module: string;
  name: string;
  doc: string | null;
  every: { cron: string; zone: string } | { intervalMs: number };
  job: string;
  args: Record<string, Literal>;
  missed: "skip" | "run_once";
  source: string;
}

/** Where an action writes: `what` as a message names it (`insert note`, `sql { … }`, `end_session()`), `through` the called actions, outermost first. */
export interface WriteModel {
  what: string;
  through: string[];
}

/**
 * One instance of a `fn` (§2.3, Functions): a parameter written without a type takes the type of the
 * argument, so a fn called with different types is checked, and generated, once per set.
 */
export interface FnModel {
  /** `<module>.<name>#<n>`: the n-th set of argument types the fn is called with. */
  id: string;
  module: string;
  name: string;
  doc: string | null;
  params: { name: string; type: ValueType }[];
  body: IrStmt[];
  returns: ValueType;
  mayFail: boolean;
}
