// An action's `transaction` clause (docs/language.md §2.3, Transactions): the isolation its
// transaction runs at, or `none`, where each statement commits on its own. What `none` gives
// up is checked here: a `fail` that can follow a write would leave that write in place
// (SVC2141, unless `partial` says so), a webhook's handler needs its transaction for the
// delivery's record (SVC2142), and a called action runs in its caller's mode (SVC2143).

import { transactionCodes as codes } from "../../diagnostics/codes/transactions.js";
import type { ActionDecl, Span } from "../../parse/ast.js";
import type { ActionModel, IrExpr, IrStmt, Isolation, StatementModel } from "../model/model.js";
import type { Reporter } from "../shared/context.js";
import { forEachChild, walkBody } from "./transaction.js";

export type TransactionMode = "serializable" | Isolation | "none";

export interface DeclaredTransaction {
  mode: TransactionMode;
  partial: boolean;
  span: Span;
}

const MODES: Record<string, TransactionMode> = {
  serializable: "serializable",
  "repeatable read": "repeatable read",
  "read committed": "read committed",
  none: "none",
};

/** The clause as written, checked (SVC2140); null when there is none or it is wrong. */
export function declaredTransaction(decl: ActionDecl, file: string, r: Reporter): DeclaredTransaction | null {
  const clauses = decl.transaction ?? [];
  clauses.slice(1).forEach((c) => r.add(codes.unknownTransaction.at(file, c.span, words(c.words), true)));
  const clause = clauses[0];
  if (clause === undefined) return null;
  const written = words(clause.words);
  const lower = written.toLowerCase();
  const partial = lower === "none partial";
  const mode = partial ? "none" : MODES[lower];
  if (mode === undefined) {
    r.add(codes.unknownTransaction.at(file, clause.span, written, false));
    return null;
  }
  return { mode, partial, span: clause.span };
}

function words(ws: readonly { name: string }[]): string {
  return ws.map((w) => w.name).join(" ");
}

/** The mode an action runs in when it is an endpoint. */
export function modeOf(a: ActionModel): TransactionMode {
  return a.autocommit === true ? "none" : (a.isolation ?? "serializable");
}

export interface TransactionCheck {
  actions: ReadonlyMap<string, ActionModel>;
  declared: ReadonlyMap<string, { clause: DeclaredTransaction; file: string }>;
  statements: ReadonlyMap<string, StatementModel>;
  /** Actions that handle a webhook: action name → webhook name. */
  handlers: ReadonlyMap<string, string>;
}

/** SVC2141–SVC2144 for one module's actions. */
export function checkTransactions(c: TransactionCheck, r: Reporter): void {
  const flow = new FailFlow(c.actions, c.statements);
  for (const [name, { clause, file }] of c.declared) {
    const action = c.actions.get(name);
    if (action === undefined) continue;
    if (clause.mode === "none") {
      const hook = c.handlers.get(name);
      if (hook !== undefined) r.add(codes.handlerWithoutTransaction.at(file, clause.span, name, hook));
      const problem = flow.failAfterWrite(action);
      if (problem !== null && !clause.partial) r.add(codes.failAfterAutocommit.at(file, clause.span, name, problem.fail, problem.write));
      if (problem === null && clause.partial) r.add(codes.needlessPartial.at(file, clause.span, name));
    }
  }
  // A called action runs on its caller's executor: its own clause applies only as an endpoint.
  for (const caller of c.actions.values()) {
    for (const callee of calledActions(caller.body)) {
      const own = c.declared.get(callee);
      const target = c.actions.get(callee);
      if (own === undefined || target === undefined || modeOf(target) === modeOf(caller)) continue;
      r.add(codes.calleeTransaction.at(own.file, own.clause.span, callee, modeOf(target), caller.name, modeOf(caller)));
    }
  }
}

function calledActions(body: readonly IrStmt[]): Set<string> {
  const out = new Set<string>();
  walkBody(body, (e) => {
    if (e.kind === "action") out.add(e.action);
  });
  return out;
}

interface Problem {
  fail: string;
  write: string;
}

const SESSION_WRITES: ReadonlySet<string> = new Set(["start_session", "end_session", "revoke"]);

/**
 * Walks a body in execution order, knowing whether a write may have run, and finds the first
 * `fail` (itself, in a fn that may fail, or inside a called action) that may run after one.
 * Called actions are followed: their own fail after their own write counts too.
 */
class FailFlow {
  private readonly inner = new Map<string, Problem | null>();
  private readonly fails = new Map<string, boolean>();

  constructor(
    private readonly actions: ReadonlyMap<string, ActionModel>,
    private readonly statements: ReadonlyMap<string, StatementModel>,
  ) {}

  failAfterWrite(a: ActionModel): Problem | null {
    const known = this.inner.get(a.name);
    if (known !== undefined) return known;
    this.inner.set(a.name, null); // a cycle (SVC2072, reported elsewhere) is cut here
    const state = { wrote: null as string | null, problem: null as Problem | null };
    this.block(a.body, state);
    this.inner.set(a.name, state.problem);
    return state.problem;
  }

  /** Can the action fail at all (itself, a fn, or an action it calls)? */
  private mayFail(a: ActionModel): boolean {
    const known = this.fails.get(a.name);
    if (known !== undefined) return known;
    this.fails.set(a.name, false);
    let found = false;
    const visit = (e: IrExpr): void => {
      if (e.kind === "fn" && e.mayFail) found = true;
      if (e.kind === "action") {
        const callee = this.actions.get(e.action);
        if (callee !== undefined && this.mayFail(callee)) found = true;
      }
    };
    const scan = (stmts: readonly IrStmt[]): void => {
      for (const s of stmts) {
        if (s.kind === "fail") found = true;
        if (s.kind === "if") {
          scan(s.then);
          scan(s.else);
        }
        if (s.kind === "for") scan(s.body);
      }
    };
    scan(a.body);
    walkBody(a.body, visit);
    this.fails.set(a.name, found);
    return found;
  }

  private block(stmts: readonly IrStmt[], st: { wrote: string | null; problem: Problem | null }): void {
    for (const s of stmts) {
      if (st.problem !== null) return;
      switch (s.kind) {
        case "let":
          this.expr(s.value, st);
          break;
        case "expr":
          this.expr(s.expr, st);
          break;
        case "yield":
          this.expr(s.value, st);
          break;
        case "emit":
          // An event's row is a write: a later `fail` must roll it back.
          this.expr(s.data, st);
          st.wrote ??= `emit ${s.event}`;
          break;
        case "return":
          if (s.value !== null) this.expr(s.value, st);
          break;
        case "fail":
          this.expr(s.message, st);
          if (st.wrote !== null && st.problem === null) st.problem = { fail: `\`fail ${s.status}\``, write: st.wrote };
          break;
        case "sql":
          s.args.forEach((e) => this.expr(e, st));
          if (this.statements.get(s.statement)?.sql.readonly !== true) st.wrote ??= "sql { … }";
          break;
        case "if": {
          this.expr(s.cond, st);
          const then = { ...st };
          const other = { ...st };
          this.block(s.then, then);
          this.block(s.else, other);
          st.problem = then.problem ?? other.problem;
          st.wrote = then.wrote ?? other.wrote;
          break;
        }
        case "for": {
          this.expr(s.list, st);
          this.block(s.body, st);
          // A later turn runs after the writes of an earlier one.
          if (st.wrote !== null) this.block(s.body, st);
          break;
        }
      }
    }
  }

  /** Arguments run before what takes them; then the expression's own fail and write. */
  private expr(e: IrExpr, st: { wrote: string | null; problem: Problem | null }): void {
    forEachChild(e, (child) => this.expr(child, st));
    if (st.problem !== null) return;
    if (e.kind === "fn" && e.mayFail && st.wrote !== null) st.problem = { fail: `fn \`${fnName(e.fn)}\`, which may fail,`, write: st.wrote };
    else if (e.kind === "action") {
      const callee = this.actions.get(e.action);
      if (callee === undefined) return;
      const inside = this.failAfterWrite(callee);
      if (inside !== null) st.problem = { fail: `a fail in \`${e.action}\``, write: inside.write };
      else if (st.wrote !== null && this.mayFail(callee)) st.problem = { fail: `\`${e.action}\`, which may fail,`, write: st.wrote };
      else if (callee.writes !== undefined) st.wrote ??= `${e.action}(…)`;
    } else if (e.kind === "record" && e.op !== "get") st.wrote ??= `${e.op} ${e.resource}`;
    else if (e.kind === "builtin" && SESSION_WRITES.has(e.name)) st.wrote ??= `${e.name}()`;
    else if (e.kind === "enqueue") st.wrote ??= `enqueue ${e.job}`;
  }
}

/** `bank.positive#1`, a fn's typed instance, as its declaration names it: `positive`. */
function fnName(instance: string): string {
  return instance.replace(/#\d+$/, "").replace(/^.*\./, "");
}
