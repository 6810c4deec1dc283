import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import { compositionCodes } from "../../diagnostics/codes/composition.js";
import { identityCodes } from "../../diagnostics/codes/identity.js";
import { listCodes } from "../../diagnostics/codes/lists.js";
import type { ActionDecl, Block, CollectStmt, Decl, ForStmt, IfStmt, SqlStmt, Stmt } from "../../parse/ast.js";
import { expressionCodes } from "../../diagnostics/codes/expressions.js";
import { DEFAULT_LIST_MAX, LIST_MAX_LIMIT } from "./record-types.js";
import { checkPasswordSql, passwordIn } from "../checks/passwords.js";
import { ExprAnalyzer } from "../expressions/expr.js";
import type { ActionModel, IrExpr, IrStmt, ParamModel, QueryModel, Requirement, ValueType } from "../model/model.js";
import { analyzeParams } from "./params.js";
import { type TypeTable, shapeType } from "./record-types.js";
import { type ModuleScope, Scope } from "../expressions/scope.js";
import { UNKNOWN, describe, isNullable, scalar, withNullable } from "../shared/types.js";
import { bindParams } from "../sql/params.js";
import { sqlTextRef } from "../sql/span.js";
import { needsTransaction } from "../transactions/transaction.js";
import { analyzeLimits } from "../config/limits.js";
import { declaredTransaction } from "../transactions/transaction-mode.js";
import { lowerEnqueue } from "../expressions/enqueue.js";
import { lowerEmit } from "./event.js";

const FAIL_STATUSES = [400, 401, 403, 404, 409, 422];

/** An action: parameters, `requires`, and its body lowered to typed, resolved statements. */
export function analyzeAction(decl: ActionDecl, m: ModuleScope): ActionModel {
  const params = analyzeParams(decl.params, m.file, m.reporter, { module: m.module, table: m.types }, true);
  let requires: Requirement | null = null;
  if (decl.requires) {
    if (!m.identity.any) m.reporter.add(codes.requiresWithoutAuth.at(m.file, decl.requires.span));
    requires = decl.requires.kind === "auth" ? { kind: "auth" } : { kind: "role", role: decl.requires.role.value };
  }
  const inner: ModuleScope = { ...m, caller: { kind: "action", name: decl.name.name, requires } };
  const lowering = new BodyLowering(inner, decl.name.name);
  const scope = paramScope(params, m.types);
  // `auth` is the caller, unless a parameter takes the name; below `requires` it is never null.
  if (m.identity.any && !scope.lookup("auth")) scope.define("auth", { kind: "caller", type: { kind: "caller", nullable: requires === null } });
  const body = lowering.block(decl.body, scope);
  const model: ActionModel = {
    module: m.module,
    name: decl.name.name,
    doc: decl.doc,
    params,
    requires,
    // Known once routes and route files are read (text-args.ts).
    textArgs: [],
    body,
    transaction: needsTransaction(body),
    returns: lowering.returnType(),
    // Known once every action and fn is, and the route files are read (action-reach.ts, route-table.ts).
    endpoint: null,
    failStatuses: [],
    readsCaller: false,
  };
  const declared = declaredTransaction(decl, m.file, m.reporter);
  if (declared?.mode === "none") {
    model.transaction = false;
    model.autocommit = true;
  } else if (declared?.mode === "repeatable read" || declared?.mode === "read committed") model.isolation = declared.mode;
  if (decl.visibility?.name === "private") model.private = true;
  if (lowering.usesContext) model.context = true;
  if (lowering.issuesCredentials) model.issuesCredentials = true;
  if (lowering.verifiesPassword) model.verifiesPassword = true;
  const owner = { describe: `action \`${decl.name.name}\``, policy: `${m.module}.${decl.name.name}`, params: params.map((p) => p.name), identity: m.identity.any, file: m.file };
  const limits = analyzeLimits(decl.limits ?? [], owner, m.reporter);
  if (limits.length > 0) model.limits = limits;
  return model;
}

/** An action's parameters in scope; a `T??` one is marked so that its reads can tell absent from null. */
function paramScope(params: ParamModel[], types: TypeTable): Scope {
  const scope = Scope.forParams(params, (p) => paramType(p, types));
  for (const p of params) if (p.absent) scope.define(p.name, { kind: "param", type: paramType(p, types), absent: true });
  return scope;
}

export function paramType(p: ParamModel, types: TypeTable = new Map()): ValueType {
  return p.shape ? shapeType(p.shape, types) : scalar(p.type, p.nullable, p.enumValues);
}

/** Lowers a body of statements (an action's, or a fn's with `m.pure` set) and collects what it returns. */
export class BodyLowering {
  private readonly exprs: ExprAnalyzer;
  private readonly returns: ValueType[] = [];
  /** The collecting `for`s the statement being lowered is inside, innermost last: where a `yield` goes. */
  private readonly collecting: { into: string; max: number; types: ValueType[] }[] = [];
  private sqlCount = 0;

  constructor(
    private readonly m: ModuleScope,
    private readonly action: string,
  ) {
    this.exprs = new ExprAnalyzer(m);
  }

  get verifiesPassword(): boolean {
    return this.exprs.verifiesPassword;
  }

  get usesContext(): boolean {
    return this.exprs.usesContext;
  }

  get issuesCredentials(): boolean {
    return this.exprs.issuesCredentials;
  }

  /** The declared result: the type every `return` agrees on, nullable if any may be null. */
  returnType(): ValueType {
    return agreed(this.returns);
  }

  block(b: Block, parent: Scope): IrStmt[] {
    const scope = parent.child();
    const out: IrStmt[] = [];
    let ended = false;
    for (const s of b.stmts) {
      if (ended) {
        this.m.reporter.add(codes.unreachable.at(this.m.file, s.span));
        break;
      }
      out.push(...this.stmt(s, scope));
      ended = s.kind === "Return" || s.kind === "Fail";
    }
    return out;
  }

  private stmt(s: Stmt, scope: Scope): IrStmt[] {
    switch (s.kind) {
      case "Let": {
        if (scope.lookup(s.name.name)) {
          this.m.reporter.add(codes.letShadows.at(this.m.file, s.name.span, s.name.name));
        }
        const value = this.exprs.expr(s.value, scope);
        scope.define(s.name.name, { kind: "local", type: value.type });
        return [{ kind: "let", name: s.name.name, value }];
      }
      case "If":
        return [this.ifStmt(s, scope)];
      case "Fail": {
        let status = 400;
        if (s.status) {
          if (FAIL_STATUSES.includes(s.status.value)) status = s.status.value;
          else this.m.reporter.add(codes.failStatus.at(this.m.file, s.status.span, s.status.value));
        }
        const message = this.exprs.checked(this.exprs.expr(s.message, scope), "text", false);
        this.exprs.expect(message, scalar("text"), "the message of `fail`", s.message.span);
        // A 401 names how to authenticate, as a failed `requires` does (docs/auth.md).
        return [status === 401 ? { kind: "fail", status, message, challenge: this.m.identity.challenge } : { kind: "fail", status, message }];
      }
      case "Return": {
        const value = s.value ? this.exprs.expr(s.value, scope) : null;
        const password = value ? passwordIn(value.type, this.m.resources) : null;
        if (password && s.value) this.m.reporter.add(identityCodes.passwordInAnswer.at(this.m.file, s.value.span, password.resource, password.field));
        this.returns.push(value?.type ?? { kind: "null" });
        return [{ kind: "return", value }];
      }
      case "ExprStmt":
        return [{ kind: "expr", expr: this.exprs.expr(s.expr, scope) }];
      case "SqlStmt":
        return [this.sql(s, scope)];
      case "For":
        return [this.forStmt(s, scope)];
      case "Collect":
        return [this.collect(s, scope)];
      case "Yield": {
        const value = this.exprs.expr(s.value, scope);
        const target = this.collecting[this.collecting.length - 1];
        if (target === undefined) {
          this.m.reporter.add(expressionCodes.yieldOutside.at(this.m.file, s.span));
          return [{ kind: "expr", expr: value }];
        }
        target.types.push(value.type);
        return [{ kind: "yield", into: target.into, value, max: target.max }];
      }
      case "Enqueue":
        return lowerEnqueue(s, scope, this.m, this.exprs);
      case "Emit":
        return lowerEmit(s, this.exprs, this.m, scope);
    }
  }

  /**
   * `let name = for x in list [max N] { … yield v … }`: the loop, whose `yield`s (in its body,
   * nested ifs and plain fors included) make the list `name`, typed by what they give.
   */
  private collect(s: CollectStmt, scope: Scope): IrStmt {
    if (scope.lookup(s.name.name)) this.m.reporter.add(codes.letShadows.at(this.m.file, s.name.span, s.name.name));
    let max = DEFAULT_LIST_MAX;
    if (s.max !== null) {
      if (s.max.value < 1 || s.max.value > LIST_MAX_LIMIT) this.m.reporter.add(expressionCodes.collectBound.at(this.m.file, s.max.span, s.max.value));
      else max = s.max.value;
    }
    const frame = { into: s.name.name, max, types: [] as ValueType[] };
    this.collecting.push(frame);
    const loop = this.forStmt(s.loop, scope);
    this.collecting.pop();
    if (frame.types.length === 0) this.m.reporter.add(expressionCodes.collectWithoutYield.at(this.m.file, s.name.span, s.name.name));
    const item = agreed(frame.types);
    scope.define(s.name.name, { kind: "local", type: { kind: "array", item } });
    return loop.kind === "for" ? { ...loop, collect: { into: s.name.name, max, item } } : loop;
  }

  /** `for x in list { … }`: `x` is each item in turn, a name of the body's scope. */
  private forStmt(s: ForStmt, scope: Scope): IrStmt {
    let list = this.exprs.expr(s.list, scope);
    const t = list.type;
    let item: ValueType = UNKNOWN;
    if (t.kind === "unknown" && t.from !== undefined) {
      // A json member: checked to be a list (or null) when the loop starts.
      list = { kind: "expect", value: list, as: "list", orNull: true, path: t.from, type: { kind: "array", item: { kind: "unknown", from: `${t.from}[]` }, nullable: true } };
      item = { kind: "unknown", from: `${t.from}[]` };
    } else if (t.kind === "array") {
      item = t.item;
    } else if (t.kind === "rows") {
      item = { kind: "row", resource: t.resource, nullable: false };
    } else if (t.kind === "queryRows") {
      item = { kind: "queryRow", query: t.query, nullable: false };
    } else if (t.kind !== "unknown" && t.kind !== "null") {
      this.m.reporter.add(listCodes.forOverNonList.at(this.m.file, s.list.span, describe(t)));
    }
    if (scope.lookup(s.name.name)) this.m.reporter.add(codes.letShadows.at(this.m.file, s.name.span, s.name.name));
    const inner = scope.child();
    inner.define(s.name.name, { kind: "local", type: item });
    return { kind: "for", name: s.name.name, list, body: this.block(s.body, inner) };
  }

  private ifStmt(s: IfStmt, scope: Scope): IrStmt {
    const cond = this.exprs.expr(s.cond, scope);
    this.exprs.expect(cond, scalar("bool"), "the condition of `if`", s.cond.span);
    const test = this.exprs.nullTest(s.cond);

    const thenScope = scope.child();
    if (test && !test.isNull) this.narrow(thenScope, test.name);
    const then = this.block(s.then, thenScope);

    const elseScope = scope.child();
    if (test && test.isNull) this.narrow(elseScope, test.name);
    const otherwise = s.else === null ? [] : s.else.kind === "Block" ? this.block(s.else, elseScope) : [this.ifStmt(s.else, elseScope)];

    // `if x == null { fail … }`: below the if, x is not null.
    if (test && test.isNull && exits(then)) this.narrow(scope, test.name);
    if (test && !test.isNull && s.else !== null && exits(otherwise)) this.narrow(scope, test.name);
    return { kind: "if", cond, then, else: otherwise };
  }

  private narrow(scope: Scope, name: string): void {
    const b = scope.lookup(name);
    // Not null below the test: absent reads as null, so it is ruled out too.
    if (b) scope.define(name, b.absent ? { kind: b.kind, type: withNullable(b.type, false), absent: true } : { kind: b.kind, type: withNullable(b.type, false) });
  }

  /** `sql { … }`: checked like a query, with the action's variables as its parameters. */
  private sql(stmt: SqlStmt, scope: Scope): IrStmt {
    const body = stmt.sql;
    if (this.m.pure) {
      this.m.reporter.add(compositionCodes.impureFn.at(this.m.file, stmt.span, this.m.pure, "run `sql { … }`"));
      return { kind: "expr", expr: { kind: "literal", value: null, type: UNKNOWN } };
    }
    checkPasswordSql(body, this.m.resources, this.m.file, this.m.reporter);
    const args: IrExpr[] = [];
    const params: ParamModel[] = [];
    for (const name of new Set(body.params.map((p) => p.name))) {
      const b = scope.lookup(name);
      if (!b) continue; // the checker reports an unknown @name
      if (b.type.kind !== "scalar" && b.type.kind !== "null" && b.type.kind !== "unknown") {
        const ref = body.params.find((p) => p.name === name)!;
        this.m.reporter.add(codes.sqlVariableType.at(this.m.file, ref.span, name, describe(b.type)));
      }
      const t = b.type.kind === "scalar" ? b.type : { type: "text" as const, enumValues: [], nullable: true };
      params.push({ name, type: t.type, enumValues: t.enumValues, nullable: t.nullable, default: undefined, required: !t.nullable });
    }
    const checked = this.m.checker.check({ file: this.m.file, body, params, kind: "statement", name: this.action });
    this.m.reporter.addAll(checked.diagnostics);
    const bound = bindParams(body, new Map(params.map((p) => [p.name, p.type])), undefined, [], [...this.m.resources.values()]);
    for (const name of bound.args) {
      const b = scope.lookup(name);
      // A variable read from json binds as the text the checker took it for; the caller is
      // never a SQL value (`auth.id` is, through an expression).
      args.push(
        // An absent `T??` argument binds as null.
        b && b.kind !== "caller"
          ? this.exprs.checked(b.kind === "param" && b.absent ? { kind: "param", name, type: b.type, absent: true } : { kind: b.kind, name, type: b.type }, "text", true)
          : { kind: "literal", value: null, type: UNKNOWN },
      );
    }
    const index = ++this.sqlCount;
    const name = `${this.m.module}.${this.action}.sql${index}`;
    this.m.statements.set(name, {
      name,
      owner: { kind: "sql", module: this.m.module, action: this.action, index },
      at: { file: this.m.file, span: stmt.span, text: sqlTextRef(body) },
      sql: { source: body.text.trim(), args: bound.args, dialects: bound.dialects, readonly: checked.readonly },
    });
    return { kind: "sql", statement: name, args };
  }
}

/** The one type values agree on (nullable if any may be null); json (unknown) when they differ. */
function agreed(types: readonly ValueType[]): ValueType {
  const typed = types.filter((t) => t.kind !== "null");
  if (typed.length === 0) return { kind: "null" };
  const first = typed[0];
  const same = typed.every((t) => JSON.stringify(withNullable(t, false)) === JSON.stringify(withNullable(first, false)));
  if (!same) return UNKNOWN;
  return withNullable(first, types.some((t) => isNullable(t)));
}

/** Does this statement list always leave the action (return or fail on every path)? */
function exits(stmts: IrStmt[]): boolean {
  const last = stmts[stmts.length - 1];
  if (!last) return false;
  if (last.kind === "return" || last.kind === "fail") return true;
  if (last.kind === "if") return exits(last.then) && exits(last.else);
  return false;
}
