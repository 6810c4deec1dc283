// `enqueue job(args) after 10m unique key priority 5` (docs/language.md §2.8): the job
// resolved among the module's, its arguments checked as an action call's are, the options
// read. It becomes one INSERT on the caller's transaction (runtime/jobs/enqueue.ts).

import { closest } from "../../diagnostics/did-you-mean.js";
import { jobCodes } from "../../diagnostics/codes/jobs.js";
import type { EnqueueStmt } from "../../parse/ast.js";
import type { ExprAnalyzer } from "./expr.js";
import { firstTime, optionDuration, wholeNumber } from "../declarations/job.js";
import type { IrExpr, IrStmt } from "../model/model.js";
import type { ModuleScope, Scope } from "./scope.js";

const MAX_DELAY_MS = 366 * 86_400_000;

export function lowerEnqueue(s: EnqueueStmt, scope: Scope, m: ModuleScope, x: ExprAnalyzer): IrStmt[] {
  if (m.pure) {
    m.reporter.add(jobCodes.enqueueOutside.at(m.file, s.span, m.pure));
    return [];
  }
  if (s.call === null) return [];
  const name = s.call.callee.name;
  const job = m.jobs?.get(name);
  if (job === undefined) {
    const isAction = m.actions?.has(name) ?? false;
    m.reporter.add(jobCodes.unknownJob.at(m.file, s.call.callee.span, name, closest(name, [...(m.jobs?.keys() ?? [])]), isAction));
    return [];
  }
  const args = x.namedArgs(`job \`${name}\``, job.params, s.call, scope, true);
  const enqueue: Extract<IrExpr, { kind: "enqueue" }> = { kind: "enqueue", module: job.module, job: job.name, args, type: { kind: "null" } };
  if (s.unique !== null) enqueue.unique = x.expr(s.unique, scope);
  const seen = new Set<string>();
  for (const o of s.options) {
    if (!firstTime(seen, o, m)) continue;
    if (o.word.name === "after") {
      const ms = optionDuration(o, m, "`after`");
      if (ms !== null && ms > MAX_DELAY_MS) m.reporter.add(jobCodes.optionRange.at(m.file, o.span, "`after`", "at most 366 days", `${ms} ms`));
      else if (ms !== null) enqueue.delayMs = ms;
    } else {
      const n = wholeNumber(o, m, "`priority`", -100, 100, "from -100 to 100");
      if (n !== null) enqueue.priority = n;
    }
  }
  return [{ kind: "expr", expr: enqueue }];
}
