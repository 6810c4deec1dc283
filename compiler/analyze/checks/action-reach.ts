// What an action reaches through the actions and fns it calls, recorded on it once every
// action and fn is known: the statuses its `fail`s answer (and 400 for a json member that
// does not fit its slot), and whether it reads the caller. OpenAPI lists those statuses and
// says whether a credential changes the answer; nothing recomputes them from the bodies.

import type { ActionModel, FnModel, IrStmt } from "../model/model.js";
import { walkBody } from "../transactions/transaction.js";

/** What one body does itself, and the actions and fns (`FnModel.id`) it calls. */
interface Facts {
  statuses: Set<number>;
  readsCaller: boolean;
  actions: { module: string; name: string }[];
  fns: string[];
}

/** Sets `failStatuses` and `readsCaller` on every action. */
export function markActionReach(actions: readonly ActionModel[], fns: readonly FnModel[]): void {
  const actionFacts = new Map<ActionModel, Facts>(actions.map((a) => [a, bodyFacts(a.body)]));
  const fnFacts = new Map<string, Facts>(fns.map((f) => [f.id, bodyFacts(f.body)]));
  const byName = new Map(actions.map((a) => [`${a.module}.${a.name}`, a]));
  for (const a of actions) {
    const statuses = new Set<number>();
    let readsCaller = false;
    const seenActions = new Set<ActionModel>();
    const seenFns = new Set<string>();
    const visit = (f: Facts) => {
      for (const s of f.statuses) statuses.add(s);
      readsCaller ||= f.readsCaller;
      for (const c of f.actions) {
        const callee = byName.get(`${c.module}.${c.name}`);
        if (callee === undefined || seenActions.has(callee)) continue;
        seenActions.add(callee);
        visit(actionFacts.get(callee)!);
      }
      for (const id of f.fns) {
        const fn = fnFacts.get(id);
        if (fn === undefined || seenFns.has(id)) continue;
        seenFns.add(id);
        visit(fn);
      }
    };
    seenActions.add(a);
    visit(actionFacts.get(a)!);
    a.failStatuses = [...statuses].sort((x, y) => x - y);
    a.readsCaller = readsCaller;
  }
}

function bodyFacts(body: readonly IrStmt[]): Facts {
  const out: Facts = { statuses: new Set(), readsCaller: false, actions: [], fns: [] };
  failsIn(body, out.statuses);
  walkBody(body, (e) => {
    // A json member that does not fit its slot.
    if (e.kind === "expect") out.statuses.add(400);
    else if (e.kind === "caller") out.readsCaller = true;
    else if (e.kind === "action") out.actions.push({ module: e.module, name: e.action });
    else if (e.kind === "fn") out.fns.push(e.fn);
  });
  return out;
}

/** The status of every `fail` statement, in branches and loops too. */
function failsIn(stmts: readonly IrStmt[], out: Set<number>): void {
  for (const s of stmts) {
    if (s.kind === "fail") out.add(s.status);
    else if (s.kind === "if") {
      failsIn(s.then, out);
      failsIn(s.else, out);
    } else if (s.kind === "for") failsIn(s.body, out);
  }
}
