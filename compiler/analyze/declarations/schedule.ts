// Schedules (docs/language.md §2.8): `schedule name every "<cron>" [in "<zone>"] runs job(args)
// [missed skip|run_once]`, or `every 1m`. The cron expression is parsed by the runtime's own
// parser (runtime/jobs/cron.ts), so the build accepts exactly what the server will run; the
// job's arguments are constants, checked against its parameters.

import { closest } from "../../diagnostics/did-you-mean.js";
import { jobCodes } from "../../diagnostics/codes/jobs.js";
import type { Expr, ScheduleDecl } from "../../parse/ast.js";
import { isTimeZone, parseCron } from "../../../runtime/jobs/cron.js";
import type { JobSignature } from "./job.js";
import { durationMs } from "./job.js";
import type { Literal, ParamModel, ScheduleModel } from "../model/model.js";
import type { Reporter } from "../shared/context.js";
import { place } from "../shared/context.js";

const MAX_INTERVAL_MS = 366 * 86_400_000;

export function analyzeSchedule(module: string, decl: ScheduleDecl, file: string, jobs: ReadonlyMap<string, JobSignature>, isAction: (name: string) => boolean, r: Reporter): ScheduleModel | null {
  let every: ScheduleModel["every"] | null = null;
  if ("cron" in decl.every) {
    const cron = parseCron(decl.every.cron.value);
    if ("error" in cron) r.add(jobCodes.badCron.at(file, decl.every.cron.span, cron.error));
    const zone = decl.zone?.value ?? "UTC";
    if (decl.zone !== null && !isTimeZone(zone)) r.add(jobCodes.unknownZone.at(file, decl.zone.span, zone));
    every = { cron: decl.every.cron.value.trim().split(/\s+/).join(" "), zone };
  } else {
    const ms = durationMs(decl.every.amount, decl.every.unit);
    const span = { start: decl.every.amount.span.start, end: decl.every.unit.span.end };
    if (ms === null) r.add(jobCodes.badDuration.at(file, span, "`every`"));
    else if (ms < 1000 || ms > MAX_INTERVAL_MS) r.add(jobCodes.optionRange.at(file, span, "an interval", "from 1s to 366 days", `${ms} ms`));
    else every = { intervalMs: ms };
    if (decl.zone !== null) r.add(jobCodes.zoneOnInterval.at(file, decl.zone.span));
  }
  let missed: ScheduleModel["missed"] = "run_once";
  if (decl.missed !== null) {
    if (decl.missed.name === "skip" || decl.missed.name === "run_once") missed = decl.missed.name;
    else r.add(jobCodes.badMissed.at(file, decl.missed.span, decl.missed.name));
  }
  if (decl.call === null) return null;
  const name = decl.call.callee.name;
  const job = jobs.get(name);
  if (job === undefined) {
    r.add(jobCodes.unknownJob.at(file, decl.call.callee.span, name, closest(name, [...jobs.keys()]), isAction(name)));
    return null;
  }
  const args: Record<string, Literal> = {};
  let ok = true;
  const problem = (span: Expr["span"], text: string): void => {
    r.add(jobCodes.scheduleArgs.at(file, span, text));
    ok = false;
  };
  for (const a of decl.call.args) {
    const p = a.name === null ? undefined : job.params.find((x) => x.name === a.name!.name);
    if (a.name === null) problem(a.span, `job \`${name}\` takes named arguments`);
    else if (p === undefined) problem(a.name.span, `job \`${name}\` has no parameter \`${a.name.name}\``);
    else if (a.name.name in args) problem(a.span, `argument \`${p.name}\` is given twice`);
    else {
      const value = constant(a.value);
      const why = value === undefined ? "must be a constant" : fits(p, value);
      if (why !== null) problem(a.value.span, `argument \`${p.name}\` ${why}`);
      else args[p.name] = value!;
    }
  }
  for (const p of job.params) {
    if (p.required && !(p.name in args)) problem(decl.call.span, `job \`${name}\` needs the argument \`${p.name}\`, which a schedule can only give as a constant`);
  }
  if (!ok || every === null) return null;
  return { module, name: decl.name.name, doc: decl.doc, every, job: name, args, missed, source: place(file, decl.name.span) };
}

function constant(e: Expr): Literal | undefined {
  switch (e.kind) {
    case "String":
    case "Int":
    case "Float":
    case "Bool":
      return e.value;
    case "Null":
      return null;
    case "Unary":
      if (e.op === "-" && (e.operand.kind === "Int" || e.operand.kind === "Float")) return -e.operand.value;
      return undefined;
    default:
      return undefined;
  }
}

/** Null when `value` fits the parameter, else why not. */
function fits(p: ParamModel, value: Literal): string | null {
  if (value === null) return p.nullable ? null : `may not be null`;
  if (p.shape) return `is a list or a record; a schedule gives constants only`;
  const t = p.type;
  if (t === "int") return Number.isInteger(value) ? null : "must be an int";
  if (t === "float") return typeof value === "number" ? null : "must be a number";
  if (t === "bool") return typeof value === "boolean" ? null : "must be a bool";
  if (t === "enum") return typeof value === "string" && p.enumValues.includes(value) ? null : `must be one of ${p.enumValues.join(", ")}`;
  if (t === "json") return null;
  if (t === "file") return "is a file; a schedule cannot give one";
  return typeof value === "string" ? null : `must be ${t}`;
}
