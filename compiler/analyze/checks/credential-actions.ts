// Which actions handle credentials (ActionModel.credentials): those that call
// issue_token, start_session, end_session or verify_password, or write a `password`
// field, themselves or through the actions and fns they call. Their answers may carry a
// token or a session, or answer for a password: such an action is never recorded under
// an Idempotency-Key (runtime/core/server.ts, runtime/pages/route-request.ts), so the database
// holds nothing a password guess could be tested against.

import type { ActionModel, BuiltinName, FnModel, IrStmt } from "../model/model.js";
import { walkBody } from "../transactions/transaction.js";

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
  walkBody(body, (e) => {
    if (e.kind === "builtin" && CREDENTIAL_BUILTINS.has(e.name)) out.handles = true;
    else if (e.kind === "action") out.calls.push(`action ${e.module}.${e.action}`);
    else if (e.kind === "fn") out.calls.push(`fn ${e.fn}`);
    else if (e.kind === "record" && (e.op === "insert" || e.op === "update") && e.fields.some((w) => w.check === "password" || w.check === "passwordOrNull")) {
      out.handles = true;
    }
  });
  return out;
}
