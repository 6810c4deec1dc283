// Which error statuses an operation can answer, read from the analyzed model: what the
// server's edge refuses (runtime/core/server.ts, body.ts, idempotency/), `requires`, and every
// `fail` an action can reach through the actions and fns it calls.

import type { ActionModel, IrExpr, IrStmt, Model, Requirement } from "../../analyze/model.js";

/** What each status means in this API; the description of its response. */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "The arguments or the request are not valid, or the action failed (`fail`).",
  401: "No credential where one is required, or one the server refuses.",
  403: "The caller lacks the role this needs.",
  404: "Not found.",
  409: "A conflict: the action failed with 409, or a call with this Idempotency-Key is still running.",
  413: "The request body is larger than the server's limit.",
  415: "The request body is neither JSON nor a form, or not UTF-8.",
  422: "The action refused the request (`fail 422`), or the Idempotency-Key was used with another request.",
  503: "The server is shutting down, did not answer within its write timeout, or cannot reach what it needs.",
};

/** Statuses the `fail`s reachable from an action's body answer. */
export function failStatuses(model: Model, action: ActionModel): Set<number> {
  const out = new Set<number>();
  reach(model, action, (node) => {
    if (node.kind === "fail") out.add(node.status);
    // A json member that does not fit its slot.
    else if (node.kind === "expect") out.add(400);
  });
  return out;
}

/** Whether the action, or one it calls, reads `auth`: then a credential changes its answer. */
export function readsCaller(model: Model, action: ActionModel): boolean {
  let found = false;
  reach(model, action, (node) => {
    if (node.kind === "caller") found = true;
  });
  return found;
}

/** Visits every statement and expression an action's body reaches, through the actions and fns it calls. */
function reach(model: Model, action: ActionModel, visit: (node: IrStmt | IrExpr) => void): void {
  const seen = new Set<string>();
  const visitAction = (a: ActionModel) => {
    const key = `action:${a.module}.${a.name}`;
    if (seen.has(key)) return;
    seen.add(key);
    stmts(a.body);
  };
  const stmts = (list: readonly IrStmt[]) => {
    for (const s of list) {
      visit(s);
      switch (s.kind) {
        case "fail":
          expr(s.message);
          break;
        case "let":
          expr(s.value);
          break;
        case "if":
          expr(s.cond);
          stmts(s.then);
          stmts(s.else);
          break;
        case "return":
          if (s.value) expr(s.value);
          break;
        case "expr":
          expr(s.expr);
          break;
        case "yield":
          expr(s.value);
          break;
        case "sql":
          s.args.forEach(expr);
          break;
        case "for":
          expr(s.list);
          stmts(s.body);
          break;
      }
    }
  };
  const expr = (e: IrExpr): void => {
    visit(e);
    switch (e.kind) {
      case "action": {
        const callee = model.actions.find((a) => a.module === e.module && a.name === e.action);
        if (callee) visitAction(callee);
        e.args.forEach((a) => expr(a.value));
        return;
      }
      case "fn": {
        const fn = model.fns?.find((f) => f.id === e.fn);
        if (fn && !seen.has(`fn:${fn.id}`)) {
          seen.add(`fn:${fn.id}`);
          stmts(fn.body);
        }
        e.args.forEach((a) => expr(a.value));
        return;
      }
      case "expect":
        return expr(e.value);
      case "member":
        return expr(e.object);
      case "object":
        return e.entries.forEach((x) => expr(x.value));
      case "array":
        return e.items.forEach(expr);
      case "binary":
        expr(e.left);
        return expr(e.right);
      case "unary":
        return expr(e.operand);
      case "builtin":
        return e.args.forEach(expr);
      case "query":
        return e.args.forEach((a) => expr(a.value));
      case "record":
        if ("key" in e) e.key.forEach(expr);
        if ("fields" in e) e.fields.forEach((f) => expr(f.value));
        return;
      default:
        return;
    }
  };
  visitAction(action);
}

/** 401 without a caller, and 403 too for a role. */
export function requirementStatuses(requires: Requirement | null): number[] {
  if (requires === null) return [];
  return requires.kind === "role" ? [401, 403] : [401];
}
