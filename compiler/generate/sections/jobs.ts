// Jobs and schedules (docs/language.md §2.8): one `rt.JobSpec` per job, whose `run` checks the
// stored arguments as a call's are checked and runs the job's function; one `rt.ScheduleSpec`
// per schedule; and the spec's `jobs` field. The runner and its tables are the runtime's.

import type { ActionModel, Model } from "../../analyze/model/model.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";

type Out = string[];

export function jobsOf(model: Model): ActionModel[] {
  return model.actions.filter((a) => a.job !== undefined);
}

export function jobSection(model: Model, names: Names): Out {
  const jobs = jobsOf(model);
  if (jobs.length === 0) return [];
  const out: Out = ["// ---- jobs ----"];
  for (const a of jobs) {
    const j = a.job!;
    const isolation = a.isolation === undefined ? "" : `\n  isolation: ${JSON.stringify(a.isolation)},`;
    out.push(
      `// ${j.source}\nconst ${names.job(a.module, a.name)}: rt.JobSpec = {\n` +
        `  name: ${JSON.stringify(`${a.module}.${a.name}`)},\n` +
        `  queue: ${JSON.stringify(j.queue)},\n  attempts: ${j.attempts},\n  timeoutMs: ${j.timeoutMs},\n  priority: ${j.priority},${isolation}\n` +
        `  run: (tx, args, job) => ${names.fn(a.module, a.name)}(tx, ${names.input(a.module, a.name)}({ args, text: false }), job),\n};`,
    );
  }
  for (const s of model.schedules ?? []) {
    out.push(
      `// ${s.source}\nconst ${names.schedule(s.module, s.name)}: rt.ScheduleSpec = {\n` +
        `  name: ${JSON.stringify(`${s.module}.${s.name}`)},\n  every: ${literal(s.every)},\n` +
        `  job: ${names.job(s.module, s.job)},\n  args: ${literal(s.args)},\n  missed: ${JSON.stringify(s.missed)},\n};`,
    );
  }
  return out;
}

/** The spec's `jobs` field; none without jobs. */
export function jobsSpecEntry(model: Model, names: Names): string[] {
  const jobs = jobsOf(model);
  if (jobs.length === 0) return [];
  const schedules = (model.schedules ?? []).map((s) => names.schedule(s.module, s.name));
  return [`jobs: { jobs: [${jobs.map((a) => names.job(a.module, a.name)).join(", ")}], schedules: [${schedules.join(", ")}] }`];
}
