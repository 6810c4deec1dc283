// The AST of `.svc` module files. Plain data: every node is JSON-serializable and
// carries the span of the source text it came from, so golden tests can snapshot it
// and every diagnostic can point at the exact characters.

/** A point in a source file. `line` and `column` are 1-based; `offset` is 0-based. */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

/** A range of source text; `end` is exclusive. The file is known from the enclosing ModuleFile. */
export interface Span {
  start: Position;
  end: Position;
}

export interface Ident {
  name: string;
  span: Span;
}

export interface ModuleFile {
  kind: "ModuleFile";
  /** Path of the file as given to the parser (relative to the project root). */
  file: string;
  /** The `module <name>` header; null when it is missing (a diagnostic says so). */
  module: Ident | null;
  decls: Decl[];
  span: Span;
}

export type Decl =
  | ResourceDecl
  | QueryDecl
  | ActionDecl
  | RouteDecl
  | WebhookDecl
  | TypeDecl
  | EventDecl
  | FnDecl
  | JobDecl
  | ScheduleDecl
  | DropResourceDecl;

interface DeclBase {
  /** Text of the `///` doc comments right above the declaration, joined by "\n"; null if none. */
  doc: string | null;
  span: Span;
}

// ---------------------------------------------------------------- resources

export type TypeName = "id" | "text" | "int" | "float" | "bool" | "timestamp" | "json" | "enum";

export interface TypeRef {
  kind: "TypeRef";
  /** The type keyword as written; the analyzer rejects names outside TypeName. */
  name: Ident;
  /** Members of `enum(a, b, c)`; empty for other types. */
  values: Ident[];
  /** `T?` (and `T??`) */
  nullable: boolean;
  /** `T??`: may also be absent, which a caller can tell from null (`has(x)`). */
  absent?: true;
  /** The item type of `list<T>`; absent for other types. */
  item?: TypeRef;
  /** `max N` after `list<T>`; absent when not written. */
  max?: IntLit;
  span: Span;
}

export interface FieldDecl {
  kind: "Field";
  doc: string | null;
  name: Ident;
  type: TypeRef;
  default: Expr | null;
  /** How the field changed (docs/language.md §2.1, Changing a resource); absent when it declares nothing. */
  change?: FieldChange;
  span: Span;
}

/**
 * `renamed from old`, `changed from T using (…) back (…) lossy`, `backfill …`: each clause
 * absent when not written. The SQL expressions are SqlBody nodes (the text between the parentheses).
 */
export interface FieldChange {
  renamedFrom?: Ident;
  changedFrom?: TypeRef;
  using?: SqlBody;
  back?: SqlBody;
  /** The `lossy` keyword. */
  lossy?: Span;
  backfill?: { value: Expr; span: Span } | { sql: SqlBody; span: Span };
  /** From the first clause's keyword to the end of the last. */
  span: Span;
}

/** `drop legacy_notes` in a resource: a column dropped with its data. */
export interface DropColumnDecl {
  kind: "DropColumn";
  name: Ident;
  span: Span;
}

export interface IndexColumn {
  name: Ident;
  desc: boolean;
  span: Span;
}

export interface IndexDecl {
  kind: "Index";
  unique: boolean;
  columns: IndexColumn[];
  /** `unique (…) fail 422 "…"`: what a violation answers; absent when not written. */
  fail?: { status: IntLit | null; message: StringLit | null; span: Span };
  span: Span;
}

/** `key (a, b)`: the primary key when it is not one `id` field (docs/language.md §2.1, Keys). */
export interface KeyDecl {
  kind: "Key";
  columns: Ident[];
  span: Span;
}

export interface ResourceDecl extends DeclBase {
  kind: "Resource";
  name: Ident;
  fields: FieldDecl[];
  indexes: IndexDecl[];
  keys: KeyDecl[];
  /** `drop name` members, in order; absent when none. */
  drops?: DropColumnDecl[];
}

/** `drop resource audit_old`: a table dropped with its data (docs/language.md §2.1, Changing a resource). */
export interface DropResourceDecl extends DeclBase {
  kind: "DropResource";
  name: Ident;
}

/** `type NewUser { username: text, bio: text? }`: a named record type for arguments. */
export interface TypeDecl extends DeclBase {
  kind: "Type";
  name: Ident;
  members: Param[];
}

/** `event task_completed { id: id, title: text }`: an event's name and the members of its data (§2.9). */
export interface EventDecl extends DeclBase {
  kind: "Event";
  name: Ident;
  members: Param[];
}

// ---------------------------------------------------------------- queries

export interface Param {
  kind: "Param";
  name: Ident;
  type: TypeRef;
  default: Expr | null;
  span: Span;
}

/** One `@name` occurrence inside SQL text. */
export interface SqlParamRef {
  name: string;
  /** Span of `@name` including the `@`. */
  span: Span;
}

/** SQL between `{` and `}`, kept verbatim. */
export interface SqlBody {
  kind: "Sql";
  /** The exact source text between the braces (braces excluded). */
  text: string;
  /** Span of `text` in the file: offsets inside `text` map to `span.start.offset + i`. */
  span: Span;
  params: SqlParamRef[];
}

/** `private` or `public` written before `query`/`action`; absent when neither is (public, §2.3, Private queries and actions). */
export interface Visibility {
  visibility?: Ident;
}

export interface QueryDecl extends DeclBase, Visibility {
  kind: "Query";
  name: Ident;
  params: Param[];
  one: boolean;
  sql: SqlBody;
}

// ---------------------------------------------------------------- actions

export type Requires =
  | { kind: "auth"; span: Span }
  | { kind: "role"; role: StringLit; span: Span };

export interface ActionDecl extends DeclBase, Visibility {
  kind: "Action";
  name: Ident;
  params: Param[];
  requires: Requires | null;
  /** `limit …` clauses, before or after `requires`, in source order; absent when none. */
  limits?: LimitClause[];
  /** `transaction read committed` and the like, as written (the analyzer checks the words); absent when not written. */
  transaction?: TransactionClause[];
  body: Block;
}

/** `transaction <words>`: an action's isolation, or `none` (docs/language.md §2.3, Transactions). */
export interface TransactionClause {
  kind: "Transaction";
  words: Ident[];
  span: Span;
}

/**
 * `limit 5 per 1m by email burst 10` (docs/language.md §2.6). As written: the analyzer
 * checks the unit, the key and the numbers.
 */
export interface LimitClause {
  kind: "Limit";
  count: IntLit;
  /** The whole number before the unit (`1m`, `10 s`); null for a unit alone (`per minute`). */
  amount: IntLit | null;
  unit: Ident;
  /** `by address`, `by auth.id`, `by email`; null keys by client address. */
  key: { name: Ident; member: Ident | null; span: Span } | null;
  burst: IntLit | null;
  span: Span;
}

export interface Block {
  kind: "Block";
  stmts: Stmt[];
  span: Span;
}

export type Stmt = LetStmt | IfStmt | FailStmt | ReturnStmt | ExprStmt | SqlStmt | ForStmt | CollectStmt | YieldStmt | EnqueueStmt | EmitStmt;

// ---------------------------------------------------------------- jobs and schedules (§2.8)

/** `attempts 5`, `timeout 30s`, `queue "mail"`, `after 10m`, `priority -1`: as written, checked by the analyzer. */
export interface OptionClause {
  word: Ident;
  /** The number, negative when written with `-`; null for a text value. */
  amount: IntLit | null;
  unit: Ident | null;
  text: StringLit | null;
  span: Span;
}

export interface JobDecl extends DeclBase {
  kind: "Job";
  name: Ident;
  params: Param[];
  options: OptionClause[];
  transaction?: TransactionClause[];
  body: Block;
}

/** `enqueue job(args) after 10m unique key priority 5`. */
export interface EnqueueStmt {
  kind: "Enqueue";
  /** The job and its named arguments; null when what follows `enqueue` is no call (reported). */
  call: CallExpr | null;
  unique: Expr | null;
  options: OptionClause[];
  span: Span;
}

export interface ScheduleDecl extends DeclBase {
  kind: "Schedule";
  name: Ident;
  every: { cron: StringLit } | { amount: IntLit; unit: Ident };
  zone: StringLit | null;
  /** The job it enqueues, with constant arguments; null when no call follows `runs` (reported). */
  call: CallExpr | null;
  missed: Ident | null;
}

/** `emit name { member: value, … }`: the event `name` stored in the action's transaction (§2.9). */
export interface EmitStmt {
  kind: "Emit";
  event: Ident;
  data: ObjectExpr;
  span: Span;
}

/** `let name = for x in list [max N] { … yield v … }`: the list of what the loop yields. */
export interface CollectStmt {
  kind: "Collect";
  name: Ident;
  loop: ForStmt;
  /** `max N`; null: the default bound. */
  max: IntLit | null;
  span: Span;
}

/** `yield value`, inside a collecting `for`. */
export interface YieldStmt {
  kind: "Yield";
  value: Expr;
  span: Span;
}

export interface LetStmt {
  kind: "Let";
  name: Ident;
  value: Expr;
  span: Span;
}

export interface IfStmt {
  kind: "If";
  cond: Expr;
  then: Block;
  /** `else { … }` is a Block; `else if …` is an IfStmt; null when there is no else. */
  else: Block | IfStmt | null;
  span: Span;
}

export interface FailStmt {
  kind: "Fail";
  /** `fail 404 "…"`; null means the default (400). */
  status: IntLit | null;
  message: Expr;
  span: Span;
}

export interface ReturnStmt {
  kind: "Return";
  value: Expr | null;
  span: Span;
}

export interface ExprStmt {
  kind: "ExprStmt";
  expr: Expr;
  span: Span;
}

/** `for name in list { … }` */
export interface ForStmt {
  kind: "For";
  name: Ident;
  list: Expr;
  body: Block;
  span: Span;
}

export interface SqlStmt {
  kind: "SqlStmt";
  sql: SqlBody;
  span: Span;
}

// ---------------------------------------------------------------- expressions

export type Expr =
  | StringLit
  | IntLit
  | FloatLit
  | BoolLit
  | NullLit
  | NameExpr
  | MemberExpr
  | ObjectExpr
  | ArrayExpr
  | BinaryExpr
  | UnaryExpr
  | CallExpr
  | RecordOpExpr;

export interface StringLit {
  kind: "String";
  /** The decoded value (escapes `\" \\ \n \t` resolved). */
  value: string;
  span: Span;
}
export interface IntLit {
  kind: "Int";
  value: number;
  span: Span;
}
export interface FloatLit {
  kind: "Float";
  value: number;
  span: Span;
}
export interface BoolLit {
  kind: "Bool";
  value: boolean;
  span: Span;
}
export interface NullLit {
  kind: "Null";
  span: Span;
}
export interface NameExpr {
  kind: "Name";
  name: string;
  span: Span;
}
export interface MemberExpr {
  kind: "Member";
  object: Expr;
  property: Ident;
  span: Span;
}
export interface ObjectEntry {
  key: Ident;
  value: Expr;
  span: Span;
}
export interface ObjectExpr {
  kind: "Object";
  entries: ObjectEntry[];
  span: Span;
}
export interface ArrayExpr {
  kind: "Array";
  items: Expr[];
  span: Span;
}

export type BinaryOp = "or" | "and" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "+" | "-" | "*" | "/";

export interface BinaryExpr {
  kind: "Binary";
  op: BinaryOp;
  left: Expr;
  right: Expr;
  span: Span;
}
export interface UnaryExpr {
  kind: "Unary";
  op: "not" | "-";
  operand: Expr;
  span: Span;
}

/** `name: value` (named, for query calls) or a bare `value` (positional, for built-ins). */
export interface CallArg {
  name: Ident | null;
  value: Expr;
  span: Span;
}
export interface CallExpr {
  kind: "Call";
  callee: Ident;
  args: CallArg[];
  span: Span;
}

/** `get R(key)`, `insert R { … }`, `update R(key) { … }`, `delete R(key)`. */
export interface RecordOpExpr {
  kind: "RecordOp";
  op: "get" | "insert" | "update" | "delete";
  resource: Ident;
  /** The key expression, `get r(expr)`; null for insert and for named key fields. */
  key: Expr | null;
  /** Named key fields, `get follow(follower: a, followee: b)`; null otherwise. */
  keyFields: ObjectEntry[] | null;
  /** The field values; null for get and delete. */
  fields: ObjectEntry[] | null;
  span: Span;
}

// ---------------------------------------------------------------- pure functions

/** A parameter of a fn: its type is inferred from each call when not written. */
export interface FnParam {
  name: Ident;
  type: TypeRef | null;
  /** Parsed so that the analyzer can say fns take none (SVC2074). */
  default: Expr | null;
  span: Span;
}

/** `fn name(a, b: bool) { … }`: a pure function of its arguments (docs/language.md §2.3, Functions). */
export interface FnDecl extends DeclBase {
  kind: "Fn";
  name: Ident;
  params: FnParam[];
  body: Block;
}

// ---------------------------------------------------------------- routes and webhooks

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteDecl extends DeclBase {
  kind: "Route";
  /** As written; the analyzer rejects methods outside HttpMethod. */
  method: Ident;
  path: StringLit;
  target: Ident;
  /** `respond …`: the route shapes its own answer; null answers with the envelope. */
  respond: RespondClause | null;
  /** `unsafe route GET …`: a GET allowed to reach a write (docs/language.md §3); null when not written. */
  unsafe: Span | null;
  /** `limit …` clauses of the route itself, in source order; absent when none. */
  limits?: LimitClause[];
}

/**
 * `respond [status] [body] (header "Name" = value)*` (docs/language.md §2.4, §4): the
 * success status, the body without the envelope, and response headers.
 */
export interface RespondClause {
  kind: "Respond";
  status: IntLit | null;
  /** `text`, `html`, `csv` or `type "media/type"`; null answers JSON. */
  media: RespondMedia | null;
  body: Expr | null;
  headers: HeaderClause[];
  span: Span;
}

/** What a respond answers besides JSON: a named kind, or any media type (`type "image/svg+xml"`). */
export interface RespondMedia {
  kind: "text" | "html" | "csv" | "ndjson" | "type";
  /** The media type as written after `type`; null for a named kind. */
  type: StringLit | null;
  span: Span;
}

/** `header "Location" = value` */
export interface HeaderClause {
  name: StringLit;
  value: Expr;
  span: Span;
}

export interface WebhookDecl extends DeclBase {
  kind: "Webhook";
  name: Ident;
  /** `key: value` lines in source order; the analyzer checks which keys are known. */
  fields: ObjectEntry[];
}

// ---------------------------------------------------------------- route files (app/api/**/route.svc)

export interface RouteFile {
  kind: "RouteFile";
  /** Path of the file as given to the parser (relative to the project root). */
  file: string;
  blocks: MethodBlock[];
  span: Span;
}

/** `GET { … }`, or `POST start_task { … }` (a named block, chosen by `?handler=start_task`). */
export interface MethodBlock {
  kind: "MethodBlock";
  /** As written; the analyzer rejects methods outside HttpMethod. */
  method: Ident;
  /** Null for the method's default block. */
  name: Ident | null;
  steps: RouteStep[];
  /** `unsafe GET { … }`: a GET allowed to reach a write (docs/language.md §3); null when not written. */
  unsafe: Span | null;
  /** `limit …` clauses of the block, in source order; absent when none. */
  limits?: LimitClause[];
  span: Span;
}

export type RouteStep = DataStep | RedirectStep | RespondClause;

/** `query M.q { … }`, `invoke M.a { … }`, `fetch M.q { … }`. */
export interface DataStep {
  kind: "DataStep";
  op: "query" | "invoke" | "fetch";
  module: Ident;
  target: Ident;
  /** The `{ k: expr }` entries, in source order. */
  args: ObjectEntry[];
  span: Span;
}

/** `redirect expr`. */
export interface RedirectStep {
  kind: "Redirect";
  to: Expr;
  span: Span;
}
