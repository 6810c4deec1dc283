// Jobs (docs/language.md §2.8): a job is analyzed as a private action whose body may read
// `job_id()`, plus its options. Its parameters are known before any body is lowered, so an
// action (or a job, itself included) can enqueue it wherever it is written.

import { jobCodes } from "../../diagnostics/codes/jobs.js";
import type { ActionDecl, Ident, IntLit, JobDecl, OptionClause } from "../../parse/ast.js";
import { analyzeAction } from "./action.js";
import type { ActionModel, JobOptionsModel, ParamModel } from "../model/model.js";
import { analyzeParams } from "./params.js";
import type { ModuleScope } from "../expressions/scope.js";
import { Reporter, place } from "../shared/context.js";

export const DEFAULT_ATTEMPTS = 5;
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_QUEUE = "default";
const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
const QUEUE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export interface JobSignature {
  module: string;
  name: string;
  params: ParamModel[];
}

/** Each job's parameters, for `enqueue` (their problems are reported once, with the job's body). */
export function jobSignatures(m: Pick<ModuleScope, "module" | "types">, decls: readonly { decl: JobDecl; file: string }[]): Map<string, JobSignature> {
  const quiet = new Reporter();
  const out = new Map<string, JobSignature>();
  for (const { decl, file } of decls) {
    if (out.has(decl.name.name)) continue;
    out.set(decl.name.name, { module: m.module, name: decl.name.name, params: analyzeParams(decl.params, file, quiet, { module: m.module, table: m.types }, true) });
  }
  return out;
}

export function analyzeJob(decl: JobDecl, m: ModuleScope): ActionModel {
  const asAction: ActionDecl = {
    kind: "Action",
    doc: decl.doc,
    name: decl.name,
    params: decl.params,
    requires: null,
    ...(decl.transaction ? { transaction: decl.transaction } : {}),
    body: decl.body,
    span: decl.span,
  };
  const model = analyzeAction(asAction, { ...m, job: decl.name.name });
  model.private = true;
  model.job = jobOptions(decl, m);
  return model;
}

function jobOptions(decl: JobDecl, m: ModuleScope): JobOptionsModel {
  const out: JobOptionsModel = { queue: DEFAULT_QUEUE, attempts: DEFAULT_ATTEMPTS, timeoutMs: DEFAULT_TIMEOUT_MS, priority: 0, source: place(m.file, decl.name.span) };
  const seen = new Set<string>();
  for (const o of decl.options) {
    const word = o.word.name;
    if (!firstTime(seen, o, m)) continue;
    switch (word) {
      case "attempts": {
        const n = wholeNumber(o, m, "`attempts`", 1, 100, "from 1 to 100");
        if (n !== null) out.attempts = n;
        break;
      }
      case "priority": {
        const n = wholeNumber(o, m, "`priority`", -100, 100, "from -100 to 100");
        if (n !== null) out.priority = n;
        break;
      }
      case "timeout": {
        const ms = optionDuration(o, m, "`timeout`");
        if (ms === null) break;
        if (ms < 1000 || ms > MAX_TIMEOUT_MS) m.reporter.add(jobCodes.optionRange.at(m.file, o.span, "`timeout`", "from 1s to 24h", `${ms} ms`));
        else out.timeoutMs = ms;
        break;
      }
      case "queue": {
        if (o.text === null) m.reporter.add(jobCodes.badQueue.at(m.file, o.span, String(o.amount?.value ?? "")));
        else if (!QUEUE_NAME.test(o.text.value)) m.reporter.add(jobCodes.badQueue.at(m.file, o.text.span, o.text.value));
        else out.queue = o.text.value;
        break;
      }
      default:
        m.reporter.add(jobCodes.badOption.at(m.file, o.word.span, word, "attempts, timeout, queue and priority", false));
    }
  }
  return out;
}

/** False, and reported (SVC8004), for an option given a second time. */
export function firstTime(seen: Set<string>, o: OptionClause, m: Pick<ModuleScope, "file" | "reporter">): boolean {
  if (seen.has(o.word.name)) {
    m.reporter.add(jobCodes.badOption.at(m.file, o.word.span, o.word.name, "", true));
    return false;
  }
  seen.add(o.word.name);
  return true;
}

/** A whole-number option (`attempts 5`, `priority -1`) within [min, max]; null when reported. */
export function wholeNumber(o: OptionClause, m: Pick<ModuleScope, "file" | "reporter">, what: string, min: number, max: number, allowed: string): number | null {
  if (o.amount === null || o.unit !== null) {
    m.reporter.add(jobCodes.optionRange.at(m.file, o.span, what, `a whole number ${allowed}`, o.text ? "text" : `a duration`));
    return null;
  }
  if (o.amount.value < min || o.amount.value > max) {
    m.reporter.add(jobCodes.optionRange.at(m.file, o.amount.span, what, allowed, String(o.amount.value)));
    return null;
  }
  return o.amount.value;
}

/** A duration option (`timeout 30s`, `after 10m`) in ms; null when reported. */
export function optionDuration(o: OptionClause, m: Pick<ModuleScope, "file" | "reporter">, what: string): number | null {
  const ms = o.amount === null || o.unit === null ? null : durationMs(o.amount, o.unit);
  if (ms === null || ms < 0) {
    m.reporter.add(jobCodes.badDuration.at(m.file, o.span, what));
    return null;
  }
  return ms;
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000, second: 1000, seconds: 1000,
  m: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
};

/** `30s`, `10 minutes`: milliseconds, or null for a unit svc does not know. */
export function durationMs(amount: IntLit, unit: Ident): number | null {
  const per = UNIT_MS[unit.name];
  return per === undefined ? null : amount.value * per;
}
