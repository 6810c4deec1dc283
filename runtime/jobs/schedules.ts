// Schedules (docs/language.md §2.8): each tick enqueues its job once across every server on
// one database. A server claims a tick by moving the schedule's `last_tick` from the value it
// read to the tick, in one UPDATE whose WHERE names the old value: of servers trying at once
// exactly one changes the row. The claim and the enqueue are one transaction.
//
// A tick is on time while it is at most MISSED_AFTER_MS old. Older ticks were missed (every
// server was down): they are claimed together, and the job runs once for them (`missed
// run_once`) or not at all (`missed skip`). A schedule seen for the first time starts at now:
// nothing before it counts as missed.

import { createHash } from "node:crypto";
import type { Logger } from "../core/log.js";
import type { Database } from "../contract/index.js";
import { type Cron, nextTick, parseCron } from "./cron.js";
import { enqueue } from "./enqueue.js";
import { jobStatements as sql } from "./table.js";
import type { ScheduleSpec } from "../contract/jobs.js";
import { SvcError } from "../core/errors.js";

export const MISSED_AFTER_MS = 30_000;
export const SCHEDULE_POLL_MS = 200;

type Next = (after: number) => number | null;

function nextOf(s: ScheduleSpec): Next {
  if ("intervalMs" in s.every) {
    const every = s.every.intervalMs;
    return (after) => (Math.floor(after / every) + 1) * every;
  }
  const cron = parseCron(s.every.cron);
  if ("error" in cron) throw new SvcError("SVC_ERR_SCHEDULE", `schedule ${s.name}: ${cron.error}`);
  const zone = s.every.zone;
  return (after) => nextTick(cron as Cron, zone, after);
}

export class Scheduler {
  private readonly next: Map<ScheduleSpec, Next>;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private ticking: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly schedules: readonly ScheduleSpec[],
    private readonly log: Logger,
    private readonly pollMs = SCHEDULE_POLL_MS,
  ) {
    this.next = new Map(schedules.map((s) => [s, nextOf(s)]));
  }

  async start(): Promise<void> {
    const now = Date.now();
    for (const s of this.schedules) await this.db.run(sql.scheduleInit, [s.name, now]);
    this.loop();
  }

  private loop(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tickAll().finally(() => {
        this.ticking = null;
        this.loop();
      });
    }, this.pollMs);
    this.timer.unref?.();
  }

  private async tickAll(): Promise<void> {
    for (const s of this.schedules) {
      try {
        await this.tick(s, Date.now());
      } catch (err) {
        this.log.error("schedule tick failed", { schedule: s.name, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  /** Claims and fires every tick of `s` due by `now`, the missed ones together. */
  async tick(s: ScheduleSpec, now: number): Promise<void> {
    const next = this.next.get(s)!;
    for (;;) {
      const row = await this.db.one(sql.scheduleRead, [s.name]);
      if (row === null) return;
      const last = Number(row.last_tick);
      const due = next(last);
      if (due === null || due > now) return;
      let tick = due;
      let missed = false;
      if (now - due > MISSED_AFTER_MS) {
        // Every tick too old to be on time, taken at once: the last of them before now's window.
        missed = true;
        for (let t = next(tick); t !== null && now - t > MISSED_AFTER_MS; t = next(t)) tick = t;
      }
      const fire = !missed || s.missed === "run_once";
      const won = await this.db.transaction(async (tx) => {
        if ((await tx.run(sql.scheduleClaim, [tick, s.name, last])) !== 1) return false;
        if (fire) await enqueue(tx, s.job, s.args, { id: `${tick}.${digest(s.name)}` });
        return true;
      }, { isolation: "read committed" });
      if (won && missed) this.log.info("schedule ticks missed", { schedule: s.name, through: new Date(tick).toISOString(), ran: fire });
      // Lost: another server took it; read again and go on with what is left.
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.ticking;
  }
}

function digest(name: string): string {
  return createHash("sha256").update(name).digest("hex").slice(0, 16);
}
