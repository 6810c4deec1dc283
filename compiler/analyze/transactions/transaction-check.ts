// The module-wide checks of actions' `transaction` clauses (transaction-mode.ts), run once a
// module's actions, their writes and its webhooks are known.

import type { Decl } from "../../parse/ast.js";
import type { ActionModel, StatementModel, WebhookModel } from "../model/model.js";
import { Reporter } from "../shared/context.js";
import { type DeclaredTransaction, checkTransactions, declaredTransaction } from "./transaction-mode.js";

export function checkModuleTransactions(
  m: { name: string; decls: readonly { decl: Decl; file: string }[] },
  actions: ReadonlyMap<string, ActionModel>,
  statements: ReadonlyMap<string, StatementModel>,
  webhooks: readonly WebhookModel[],
  r: Reporter,
): void {
  const declared = new Map<string, { clause: DeclaredTransaction; file: string }>();
  // analyzeAction reported what is wrong with a clause; here only the valid ones are wanted.
  const quiet = new Reporter();
  for (const { decl, file } of m.decls) {
    if (decl.kind !== "Action" || declared.has(decl.name.name)) continue;
    const action = decl;
    const clause = declaredTransaction(action, file, quiet);
    if (clause !== null) declared.set(action.name.name, { clause, file });
  }
  if (declared.size === 0) return;
  const handlers = new Map<string, string>();
  for (const w of webhooks) if (w.handler.module === m.name) handlers.set(w.handler.name, w.name);
  checkTransactions({ actions, declared, statements, handlers }, r);
}
