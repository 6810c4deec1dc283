// Cron expressions of schedules (docs/language.md §2.8): five fields, minute hour
// day-of-month month day-of-week, each `*`, a number, a range `a-b`, a step `*/n` or `a-b/n`,
// or a comma list of those; months and weekdays also by English name (JAN, MON). As in
// Vixie cron, when both day fields are restricted a day matching either one counts. The
// compiler checks an expression with `parseCron` at build time; the runtime finds ticks
// with `nextTick`, in the schedule's time zone.

export interface Cron {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday … 6 = Saturday (7 is read as 0). */
  weekdays: ReadonlySet<number>;
  /** Whether each day field was `*`: the either-day rule applies only when both are restricted. */
  anyDay: boolean;
  anyWeekday: boolean;
}

interface Field {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly Field[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] },
  { name: "day of week", min: 0, max: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

/** The expression, or why it is not one (a message for SVC8010). */
export function parseCron(text: string): Cron | { error: string } {
  const parts = text.trim().split(/\s+/).filter((p) => p !== "");
  if (parts.length !== 5) return { error: `a cron expression has 5 fields (minute hour day month weekday), found ${parts.length}` };
  const sets: Set<number>[] = [];
  for (let i = 0; i < 5; i++) {
    const set = parseField(parts[i], FIELDS[i]);
    if (typeof set === "string") return { error: set };
    sets.push(set);
  }
  if (sets[4].delete(7)) sets[4].add(0);
  return { minutes: sets[0], hours: sets[1], days: sets[2], months: sets[3], weekdays: sets[4], anyDay: parts[2] === "*", anyWeekday: parts[4] === "*" };
}

function parseField(text: string, f: Field): Set<number> | string {
  const out = new Set<number>();
  for (const item of text.split(",")) {
    const m = /^(\*|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?)(?:\/(\d+))?$/.exec(item);
    if (m === null) return `"${item}" is not a valid ${f.name} (use *, N, A-B, */N, A-B/N or a list)`;
    let lo = f.min;
    let hi = f.max;
    if (m[1] !== "*") {
      const [a, b] = m[1].split("-");
      const from = value(a, f);
      if (typeof from === "string") return from;
      lo = from;
      hi = from;
      if (b !== undefined) {
        const to = value(b, f);
        if (typeof to === "string") return to;
        if (to < from) return `the ${f.name} range ${m[1]} runs backwards`;
        hi = to;
      } else if (m[2] !== undefined) {
        hi = f.max; // `5/15`: from 5 to the end, every 15
      }
    }
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (!Number.isSafeInteger(step) || step < 1 || step > f.max) return `the ${f.name} step /${m[2]} must be between 1 and ${f.max}`;
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

function value(text: string, f: Field): number | string {
  const named = f.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named >= 0) return f.name === "month" ? named + 1 : named;
  if (!/^\d+$/.test(text)) return `"${text}" is not a valid ${f.name}`;
  const n = Number(text);
  if (n < f.min || n > f.max) return `the ${f.name} ${n} is out of range (${f.min}-${f.max})`;
  return n;
}

/** Whether `zone` is an IANA time zone this Node knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface Local {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formats = new Map<string, Intl.DateTimeFormat>();

function localTime(ms: number, zone: string): Local {
  let f = formats.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", weekday: "short",
    });
    formats.set(zone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(ms)) parts[p.type] = p.value;
  return {
    year: Number(parts.year), month: Number(parts.month), day: Number(parts.day),
    hour: Number(parts.hour), minute: Number(parts.minute), weekday: WEEKDAYS[parts.weekday],
  };
}

const MINUTE = 60_000;
/** Far enough for any expression that matches at all (`0 0 29 2 *` waits for a leap year). */
const SEARCH_LIMIT_MS = 9 * 366 * 24 * 60 * MINUTE;

function dayMatches(c: Cron, t: Local): boolean {
  if (!c.months.has(t.month)) return false;
  const d = c.days.has(t.day);
  const w = c.weekdays.has(t.weekday);
  if (c.anyDay || c.anyWeekday) return d && w;
  return d || w;
}

/**
 * The first tick strictly after `after` (ms), as a UTC instant, or null when none comes
 * within nine years (`0 0 31 2 *`). Local times a daylight-saving change skips do not
 * fire; one it repeats fires the first time only.
 */
export function nextTick(c: Cron, zone: string, after: number): number | null {
  let t = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  const end = after + SEARCH_LIMIT_MS;
  while (t <= end) {
    const l = localTime(t, zone);
    if (!dayMatches(c, l)) {
      // Towards the next local midnight, an hour short: a day of 23 hours must not overshoot it.
      t += Math.max(1, (23 - l.hour) * 60 - l.minute) * MINUTE;
      continue;
    }
    if (!c.hours.has(l.hour)) {
      t += (60 - l.minute) * MINUTE;
      continue;
    }
    if (!c.minutes.has(l.minute)) {
      t += MINUTE;
      continue;
    }
    if (repeated(l, localTime(t - 60 * MINUTE, zone))) {
      t += MINUTE;
      continue;
    }
    return t;
  }
  return null;
}

/** The same local minute an hour earlier: the second pass through a repeated hour. */
function repeated(a: Local, b: Local): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute;
}
