import { defineDiagnostic as d } from "../diagnostic.js";

/** Jobs, `enqueue` and schedules (docs/language.md §2.8): SVC8001–SVC8049. Codes are never reused. */
export const jobCodes = {
  unknownJob: d(
    "SVC8001",
    "error",
    "`enqueue` or a schedule's `runs` names no job of the module.",
    (name: string, suggestion: string | null, isAction: boolean) =>
      isAction ? `\`${name}\` is an action, not a job` : `no job \`${name}\` in this module${suggestion ? `; did you mean \`${suggestion}\`?` : ""}`,
    (_name: string, _s: string | null, isAction: boolean) =>
      isAction ? "call an action directly (`name(…)`); declare the work as `job name(…) { … }` to run it later" : "declare it with `job name(params) { … }` in the same module",
  ),
  enqueueOutside: d(
    "SVC8002",
    "error",
    "`enqueue` in a fn: only an action or a job may enqueue, inside its transaction.",
    (fn: string) => `fn \`${fn}\` cannot enqueue a job: a fn is pure`,
    () => "enqueue in the action (or job) that calls the fn",
  ),
  jobCalled: d(
    "SVC8003",
    "error",
    "A job is called like an action or a fn: a job runs later, after the caller commits, so it is enqueued.",
    (name: string) => `\`${name}\` is a job: it is enqueued, not called`,
    (name: string) => `write \`enqueue ${name}(…)\``,
  ),
  badOption: d(
    "SVC8004",
    "error",
    "A job or an `enqueue` has an option it does not take, or one given twice.",
    (word: string, takes: string, twice: boolean) => (twice ? `\`${word}\` is given twice` : `\`${word}\` is not an option here; this takes ${takes}`),
  ),
  optionRange: d(
    "SVC8005",
    "error",
    "An option of a job, an `enqueue` or a schedule is outside what svc allows: attempts 1–100, priority −100–100, timeout 1 s–24 h, after 0–366 days, an interval 1 s–366 days.",
    (what: string, allowed: string, found: string) => `${what} must be ${allowed}, found ${found}`,
  ),
  badDuration: d(
    "SVC8006",
    "error",
    "A duration is a whole number and a unit: ms, s, m, h or d (or second, minute, hour, day, plural or not).",
    (what: string) => `${what} needs a duration such as 30s, 10m, 2h or 1d`,
  ),
  badQueue: d(
    "SVC8007",
    "error",
    "A queue name is 1 to 64 letters, digits, `_`, `-` or `.`.",
    (name: string) => `${JSON.stringify(name)} is not a queue name`,
    () => 'e.g. `queue "mail"`',
  ),
  badCron: d(
    "SVC8010",
    "error",
    "A schedule's cron expression is not five valid fields (minute hour day-of-month month day-of-week).",
    (problem: string) => `bad cron expression: ${problem}`,
    () => 'e.g. "0 3 * * *" (03:00 every day), "*/15 * * * *" (every 15 minutes), "0 9 * * MON-FRI"',
  ),
  unknownZone: d(
    "SVC8011",
    "error",
    "A schedule's time zone is not an IANA time zone name.",
    (zone: string) => `unknown time zone ${JSON.stringify(zone)}`,
    () => 'use a name such as "UTC", "Europe/Paris" or "America/New_York"',
  ),
  zoneOnInterval: d(
    "SVC8012",
    "error",
    "A time zone given to a schedule that runs at an interval: only cron expressions read the clock of a zone.",
    () => "an interval has no time zone",
    () => 'drop `in "…"`, or use a cron expression',
  ),
  scheduleArgs: d(
    "SVC8013",
    "error",
    "A schedule's job must be given constant arguments of its parameters' types, and every required one: nothing else exists when a tick fires.",
    (problem: string) => problem,
    () => "give a literal (text, number, bool or null) for each parameter without a default",
  ),
  badMissed: d(
    "SVC8014",
    "error",
    "`missed` takes `skip` or `run_once`.",
    (word: string) => `\`missed ${word}\` is not a policy`,
    () => "`missed run_once` runs the job once for ticks no server was up for; `missed skip` drops them",
  ),
  jobCaller: d(
    "SVC8016",
    "error",
    "A job reads `auth`, or starts, ends or revokes sessions or tokens, itself or through an action it calls: a job runs after the request, with no caller.",
    (job: string) => `job \`${job}\` has no caller: it cannot read \`auth\` or issue or end credentials`,
    () => "pass what the job needs (e.g. the caller's id) as an argument when enqueueing it",
  ),
  jobIdOutside: d(
    "SVC8015",
    "error",
    "`job_id()` outside a job's body: only a job has an id.",
    () => "`job_id()` is only known in a job's body",
    () => "pass the id as an argument to what needs it",
  ),
};
