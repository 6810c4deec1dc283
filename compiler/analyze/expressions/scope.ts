import type { ActionModel, EventModel, FnModel, ParamModel, QueryModel, RecordTypeModel, Requirement, ResourceModel, StatementModel, ExpressionType, ValueType } from "../model/model.js";
import type { Span } from "../../parse/ast.js";
import type { Reporter } from "../shared/context.js";
import type { SqlChecker } from "../sql/dialect.js";
import type { IdentityFeatures } from "../config/credentials.js";

/** What an action body can see: its module's declarations, its parameters and its variables. */
export interface ModuleScope {
  module: string;
  file: string;
  resources: ReadonlyMap<string, ResourceModel>;
  queries: ReadonlyMap<string, QueryModel>;
  /** Statements made for record operations and `sql` blocks, shared across actions by name. */
  statements: Map<string, StatementModel>;
  checker: SqlChecker;
  reporter: Reporter;
  /** Given, every expression typed is added to it with its place (CheckOptions.expressionTypes). */
  typed?: ExpressionType[];
  /** The module's record types (`type NewUser { … }`), for list and record arguments. */
  types: ReadonlyMap<string, RecordTypeModel>;
  /** Every module's events, by name (§2.9): what `emit` may name. */
  events: ReadonlyMap<string, EventModel>;
  /** What svc.toml configures for identity: which of `auth`, issue_token and sessions are allowed. */
  identity: IdentityFeatures;
  /** The module's actions, analyzed on their first call (action-table.ts); absent where none can be called. */
  actions?: ActionCalls;
  /** The module's fns (fn.ts). */
  fns?: FnCalls;
  /** The module's jobs, by name: what `enqueue` checks its arguments against (§2.8). */
  jobs?: ReadonlyMap<string, { module: string; name: string; params: ParamModel[] }>;
  /** Set while a job's body is lowered: `job_id()` is known there. */
  job?: string;
  /** Set while a fn body is lowered: the database is out of reach there (SVC2073). */
  pure?: string;
  /** Who is being lowered: for cycle messages and the `requires` a call skips. */
  caller?: { kind: "action"; name: string; requires: Requirement | null } | { kind: "fn"; name: string; instance: string };
}

export interface CallSite {
  file: string;
  span: Span;
}

export interface ActionCalls {
  has(name: string): boolean;
  names(): string[];
  /** The callee's model; null when calling it would close a cycle (reported at `at`). */
  resolve(name: string, at: CallSite): ActionModel | null;
}

export interface FnCalls {
  has(name: string): boolean;
  names(): string[];
  params(name: string): { name: string; type: ValueType | null }[];
  /** The instance for these parameter types; null when the call would recurse (reported at `at`). */
  instance(name: string, types: ValueType[], at: CallSite, caller: string | null): FnModel | null;
}

export interface Binding {
  /** `caller` is `auth`, bound in an action's outermost scope when the project has identity. */
  kind: "param" | "local" | "caller";
  type: ValueType;
  /** A `T??` parameter: absent (`undefined`) is told apart from null. */
  absent?: true;
}

/**
 * Lexical scope of one block. Narrowing (`if x == null { fail … }` makes `x` non-null
 * below) is recorded as a shadowing binding of the same name with a narrower type.
 */
export class Scope {
  private readonly names = new Map<string, Binding>();

  constructor(private readonly parent: Scope | null) {}

  static forParams(params: ParamModel[], paramType: (p: ParamModel) => ValueType): Scope {
    const s = new Scope(null);
    for (const p of params) s.names.set(p.name, { kind: "param", type: paramType(p) });
    return s;
  }

  lookup(name: string): Binding | undefined {
    return this.names.get(name) ?? this.parent?.lookup(name);
  }

  define(name: string, binding: Binding): void {
    this.names.set(name, binding);
  }

  /** Every visible name, for "did you mean" hints. */
  visible(): string[] {
    return [...new Set([...(this.parent?.visible() ?? []), ...this.names.keys()])];
  }

  child(): Scope {
    return new Scope(this);
  }
}
