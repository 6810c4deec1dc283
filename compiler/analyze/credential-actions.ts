// Which actions handle credentials (ActionModel.credentials): those that call
// issue_token, start_session, end_session or verify_password, or write a `password`
// field, themselves or through the actions and fns they call. Their answers may carry a
// token or a session, or answer for a password: such an action is never recorded under
// an Idempotency-Key (runtime/server.ts, runtime/pages/route-request.ts), so the database
// holds nothing a password guess could be tested against.

import type { ActionModel, BuiltinName, FnModel, IrExpr, IrStmt } from "./model.js";

const CREDENTIAL_BUILTINS: ReadonlySet<BuiltinName> = new Set(["issue_token", "start_session", "end_session", "verify_password"]);

/** What one body does itself, and the actions (`module.name`) and fns (`FnModel.id`) it calls. */
interface BodyFacts {
  handles: boolean;
  calls: string[];
}

/** Sets `credentials` on every action that handles credentials, directly or transitively. */
export function markCredentialActions(actions: readonly ActionModel[], fns: readonly FnModel[]): void {
  const facts = new Map<string, BodyFacts>();
  for (const a of actions) facts.set(`action ${a.module}.${a.name}`, bodyFacts(a.body));
  for (const f of fns) facts.set(`fn ${f.id}`, bodyFacts(f.body));
  // Walked backwards from what handles credentials itself to everything that calls it.
  const callers = new Map<string, string[]>();
  for (const [node, f] of facts) for (const callee of f.calls) callers.set(callee, [...(callers.get(callee) ?? []), node]);
  const marked = new Set([...facts].filter(([, f]) => f.handles).map(([node]) => node));
  const queue = [...marked];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    for (const caller of callers.get(node) ?? []) {
      if (marked.has(caller)) continue;
      marked.add(caller);
      queue.push(caller);
    }
  }
  for (const a of actions) if (marked.has(`action ${a.module}.${a.name}`)) a.credentials = true;
}

function bodyFacts(body: readonly IrStmt[]): BodyFacts {
  const out: BodyFacts = { handles: false, calls: [] };
  const expr = (e: IrExpr): void => {
    switch (e.kind) {
      case "builtin":
        if (CREDENTIAL_BUILTINS.has(e.name)) out.handles = true;
        e.args.forEach(expr);
        return;
      case "action":
        out.calls.push(`action ${e.module}.${e.action}`);
        e.args.forEach((a) => expr(a.value));
        return;
      case "fn":
        out.calls.push(`fn ${e.fn}`);
        e.args.forEach((a) => expr(a.value));
        return;
      case "query":
        e.args.forEach((a) => expr(a.value));
        return;
      case "record":
        if (e.op === "insert" || e.op === "update") {
          for (const w of e.fields) {
            if (w.check === "password" || w.check === "passwordOrNull") out.handles = true;
            expr(w.value);
          }
        }
        if (e.op !== "insert") expr(e.key);
        return;
      case "member":
        expr(e.object);
        return;
      case "object":
        e.entries.forEach((x) => expr(x.value));
        return;
      case "array":
        e.items.forEach(expr);
        return;
      case "binary":
        expr(e.left);
        expr(e.right);
        return;
      case "unary":
        expr(e.operand);
        return;
      case "expect":
        expr(e.value);
        return;
      case "literal":
      case "param":
      case "local":
      case "caller":
        return;
    }
  };
  const stmts = (list: readonly IrStmt[]): void => {
    for (const s of list) {
      switch (s.kind) {
        case "let":
          expr(s.value);
          break;
        case "if":
          expr(s.cond);
          stmts(s.then);
          stmts(s.else);
          break;
        case "fail":
          expr(s.message);
          break;
        case "return":
          if (s.value !== null) expr(s.value);
          break;
        case "expr":
          expr(s.expr);
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
  stmts(body);
  return out;
}
