import type { ActionModel, ParamModel, QueryModel, RecordTypeModel, Requirement, ResourceModel, StatementModel, ValueType } from "./model.js";
import type { Reporter } from "./shared/context.js";
import type { SqlChecker } from "./sql/dialect.js";
import type { IdentityFeatures } from "./credentials.js";

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
  /** The module's record types (`type NewUser { … }`), for list and record arguments. */
  types: ReadonlyMap<string, RecordTypeModel>;
  /** What svc.toml configures for identity: which of `auth`, issue_token and sessions are allowed. */
  identity: IdentityFeatures;
  /** The action whose body is analyzed: the caller of any action it calls (set by analyzeAction). */
  caller?: { name: string; requires: Requirement | null };
  /**
   * An action of the module by name, analyzed on first use so that its callers know its
   * result type; "cycle" while it is being analyzed (a call back into it); undefined when
   * the module has no such action.
   */
  callee(name: string): ActionModel | "cycle" | undefined;
  /** The module's action names, for "did you mean" hints. */
  actionNames: readonly string[];
}

export interface Binding {
  /** `caller` is `auth`, bound in an action's outermost scope when the project has identity. */
  kind: "param" | "local" | "caller";
  type: ValueType;
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
