import type { IrExpr, IrStmt } from "../model/model.js";

/**
 * Does an action need an explicit transaction? Yes when it has two or more statements,
 * or a `fail` after its statement in source order. A `for` whose body runs a statement
 * may run it many times, so it counts as two; a `fail` anywhere in such a body may follow
 * the statement of an earlier turn. Otherwise source order bounds every execution order.
 * One statement is atomic on its own: an action that runs at most one, with no `fail`
 * after it that would have to undo it, saves BEGIN and COMMIT.
 */
export function needsTransaction(body: readonly IrStmt[]): boolean {
  let statements = 0;
  let failAfterStatement = false;
  const walk = (stmts: readonly IrStmt[]): void => {
    for (const s of stmts) {
      if (s.kind === "fail" && statements > 0) failAfterStatement = true;
      if (s.kind === "for") {
        statements += countStatements([{ kind: "expr", expr: s.list }]);
        if (countStatements(s.body) > 0) statements += 2;
        walk(s.body);
        continue;
      }
      statements += countStatements([s.kind === "if" ? { ...s, then: [], else: [] } : s]);
      if (s.kind === "if") {
        walk(s.then);
        walk(s.else);
      }
    }
  };
  walk(body);
  // A fn may `fail` anywhere in a statement that also writes: only a transaction undoes that.
  return statements > 1 || failAfterStatement || (statements > 0 && callsFailingFn(body));
}

/** How many database statements an action body contains, counting every branch. */
export function countStatements(stmts: readonly IrStmt[]): number {
  let n = 0;
  const visit = (e: IrExpr): void => {
    switch (e.kind) {
      case "query":
      case "record":
      // One INSERT into the jobs table.
      case "enqueue":
        n++;
        break;
      // Whatever the callee runs, a call can leave writes a later `fail` must undo.
      case "action":
        n += 2;
        break;
      // A new session ends the one the request came with, then inserts its own row.
      case "builtin":
        if (e.name === "start_session") n += 2;
        else if (e.name === "end_session") n++;
        // Ends the subject's sessions and writes its revocation.
        else if (e.name === "revoke") n += 2;
        break;
    }
    forEachChild(e, visit);
  };
  for (const s of stmts) {
    switch (s.kind) {
      case "let":
        visit(s.value);
        break;
      case "if":
        visit(s.cond);
        n += countStatements(s.then) + countStatements(s.else);
        break;
      case "fail":
        visit(s.message);
        break;
      case "return":
        if (s.value) visit(s.value);
        break;
      case "expr":
        visit(s.expr);
        break;
      case "yield":
        visit(s.value);
        break;
      // One row into the outbox.
      case "emit":
        n++;
        visit(s.data);
        break;
      case "sql":
        n++;
        s.args.forEach(visit);
        break;
      case "for":
        visit(s.list);
        n += countStatements(s.body);
        break;
    }
  }
  return n;
}

/** Calls `visit` on every expression of a body, nested ones and those of nested statements included. */
export function walkBody(stmts: readonly IrStmt[], visit: (e: IrExpr) => void): void {
  const deep = (e: IrExpr): void => {
    visit(e);
    forEachChild(e, deep);
  };
  for (const s of stmts) {
    switch (s.kind) {
      case "let":
        deep(s.value);
        break;
      case "if":
        deep(s.cond);
        walkBody(s.then, visit);
        walkBody(s.else, visit);
        break;
      case "fail":
        deep(s.message);
        break;
      case "return":
        if (s.value) deep(s.value);
        break;
      case "expr":
        deep(s.expr);
        break;
      case "yield":
        deep(s.value);
        break;
      case "emit":
        deep(s.data);
        break;
      case "sql":
        s.args.forEach(deep);
        break;
      case "for":
        deep(s.list);
        walkBody(s.body, visit);
        break;
    }
  }
}

export function forEachChild(e: IrExpr, f: (child: IrExpr) => void): void {
  switch (e.kind) {
    case "member":
      f(e.object);
      break;
    case "object":
      e.entries.forEach((x) => f(x.value));
      break;
    case "array":
      e.items.forEach(f);
      break;
    case "binary":
      f(e.left);
      f(e.right);
      break;
    case "unary":
      f(e.operand);
      break;
    case "expect":
      f(e.value);
      break;
    case "builtin":
      e.args.forEach(f);
      break;
    case "query":
    case "action":
    case "fn":
      e.args.forEach((a) => f(a.value));
      break;
    case "enqueue":
      e.args.forEach((a) => f(a.value));
      if (e.unique !== undefined) f(e.unique);
      break;
    case "record":
      if (e.op !== "insert") e.key.forEach(f);
      if (e.op === "insert" || e.op === "update") e.fields.forEach((w) => f(w.value));
      break;
  }
}

/** Does a body `fail`, itself or through a fn it calls? */
export function mayFail(stmts: readonly IrStmt[]): boolean {
  return (
    stmts.some((s) => s.kind === "fail") ||
    callsFailingFn(stmts) ||
    stmts.some((s) => (s.kind === "if" && (mayFail(s.then) || mayFail(s.else))) || (s.kind === "for" && mayFail(s.body)))
  );
}

/** Does a body call a fn that may `fail`? */
function callsFailingFn(stmts: readonly IrStmt[]): boolean {
  return stmts.some((s) => {
    switch (s.kind) {
      case "fail":
        return exprFails(s.message);
      case "if":
        return exprFails(s.cond) || callsFailingFn(s.then) || callsFailingFn(s.else);
      case "let":
        return exprFails(s.value);
      case "return":
        return s.value !== null && exprFails(s.value);
      case "expr":
        return exprFails(s.expr);
      case "yield":
        return exprFails(s.value);
      case "emit":
        return exprFails(s.data);
      case "for":
        return exprFails(s.list) || callsFailingFn(s.body);
      case "sql":
        return false;
    }
  });
}

function exprFails(e: IrExpr): boolean {
  if (e.kind === "fn" && e.mayFail) return true;
  let found = false;
  forEachChild(e, (c) => {
    found ||= exprFails(c);
  });
  return found;
}
