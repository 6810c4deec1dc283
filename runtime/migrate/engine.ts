// Runs one phase of a plan (docs/migrations.md): the expand steps of the changes not begun, or
// the contract steps of the open ones, each change's steps in order, then its history row. A
// step that may run in a transaction runs in one of its own; a `repeat` step (a backfill batch)
// runs again, each batch its own transaction, until a batch changes no row, so no lock is held
// across batches; a step PostgreSQL refuses inside a transaction (CREATE INDEX CONCURRENTLY)
// runs outside one. Every step is idempotent, so an apply that failed part-way is resumed by
// running it again: the history row of a change is written only once all its steps ran. The
// caller holds the backend's migration lock for the whole phase (withMigrationLock).

import { StartupError } from "../core/errors.js";
import type { MigrationStep, Phase } from "../contract/evolve.js";
import type { Dialect } from "../contract/server.js";
import { historyRows, historyTable, readSql, recordSql } from "./history.js";
import { type EvolvePlan, type HistoryRow, type PlannedChange, changesToRun } from "./plan.js";

/** The longest pause between two batches of a backfill. */
const MAX_PAUSE_MS = 500;
/**
 * The pause after a batch, as a multiple of the batch's own time: the servers' writes get the
 * database three quarters of the time. Once (a pause as long as the batch) left the writes' p95
 * at 2.2–2.8× its figure without a backfill on two cores; three times keeps it under 2×
 * (bench/evolve-backfill.ts), and 100,000 rows still fill in about 5 s.
 */
const PAUSE_FACTOR = 3;

/** A backend's connection for migrating: one connection, reserved for the whole phase. */
export interface MigrationSession {
  readonly dialect: Dialect;
  /** Runs `sql` (one or more statements, no parameters) outside a transaction: the rows the last changed. */
  exec(sql: string): Promise<number>;
  /** Runs `fn` in a transaction of its own: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (exec: (sql: string) => Promise<number>) => Promise<T>): Promise<T>;
  /** One statement with parameters (the dialect's placeholders), outside a transaction: its rows. */
  query(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Whether the schema has `table`. */
  hasTable(table: string): Promise<boolean>;
  /** Takes the migration lock (the one the additive migration takes), waiting for another holder. */
  lock(): Promise<void>;
  unlock(): Promise<void>;
}

export interface AppliedChange {
  change: string;
  phase: Phase;
  /** The statements run, batches counted once each. */
  steps: number;
  /** Rows changed by repeated (batch) steps. */
  rows: number;
}

export async function withMigrationLock<T>(session: MigrationSession, fn: () => Promise<T>): Promise<T> {
  await session.lock();
  try {
    return await fn();
  } finally {
    await session.unlock();
  }
}

/** The history table's rows, none when there is no table yet. */
export async function readHistory(session: MigrationSession): Promise<HistoryRow[]> {
  if (!(await session.hasTable(historyTable.name))) return [];
  return historyRows(await session.query(readSql(session.dialect)));
}

/**
 * Runs `phase` of `plan` (made from `history`, under the lock). Unique indexes over repeated
 * values are refused before anything runs. `build` is recorded with each change.
 */
export async function runPhase(
  session: MigrationSession,
  phase: Phase,
  plan: EvolvePlan,
  history: readonly HistoryRow[],
  build: string,
  now: () => Date = () => new Date(),
): Promise<AppliedChange[]> {
  if (plan.problems.length > 0) {
    throw new StartupError("SVC_ERR_MIGRATION", `the plan has problems, nothing ran:\n${plan.problems.map((p) => `  - ${p}`).join("\n")}`);
  }
  const changes = changesToRun(plan, phase, history);
  if (changes.length === 0) return [];
  // Checked before anything runs, but for an index over a column this expand adds: before its own steps.
  const deferred = phase === "expand" ? await refuseDuplicates(session, changes, true) : new Set<string>();
  const ddl = historyTable.ddl[session.dialect]!;
  await session.exec(ddl.createTable);
  const applied: AppliedChange[] = [];
  for (const change of changes) {
    const steps = phase === "expand" ? change.expand : change.contract;
    const done: AppliedChange = { change: change.change, phase, steps: 0, rows: 0 };
    if (deferred.has(change.change)) await refuseDuplicates(session, [change], false);
    for (const step of steps) {
      const rows = await runStep(session, step);
      done.steps += 1;
      done.rows += rows;
    }
    const detail = steps.map((s) => `${s.sql};`).join("\n");
    // A view is the build's, made again whenever the build needs it: not a change to record or report.
    if (change.kind === "view") continue;
    await session.query(recordSql(session.dialect), [change.change, phase, build, now().toISOString(), detail]);
    applied.push(done);
  }
  return applied;
}

async function runStep(session: MigrationSession, step: MigrationStep): Promise<number> {
  try {
    if (!step.transactional) return await session.exec(step.sql);
    if (step.repeat !== true) return await session.transaction((exec) => exec(step.sql));
    let total = 0;
    for (;;) {
      const started = performance.now();
      const changed = await session.transaction((exec) => exec(step.sql));
      if (changed === 0) return total;
      total += changed;
      // Paced (PAUSE_FACTOR): no lock is held between batches, and the servers' writes go first.
      await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_PAUSE_MS, PAUSE_FACTOR * (performance.now() - started))));
    }
  } catch (err) {
    throw new StartupError(
      "SVC_ERR_MIGRATION",
      `${step.change}: ${step.describe} failed: ${(err as Error).message}\n  ${step.sql.replace(/\n/g, "\n  ")}\n` +
        "the steps before it stay applied; run again to resume once the cause is fixed",
    );
  }
}

/**
 * A unique index over data that repeats values: refused with the count and a few values. With
 * `early`, a query that cannot run yet (its column is added by this expand) is left for later:
 * the changes returned.
 */
async function refuseDuplicates(session: MigrationSession, changes: readonly PlannedChange[], early: boolean): Promise<Set<string>> {
  const problems: string[] = [];
  const later = new Set<string>();
  for (const change of changes) {
    if (change.duplicates === undefined) continue;
    let rows: Record<string, unknown>[];
    try {
      rows = await session.query(change.duplicates);
    } catch (err) {
      if (!early) throw err;
      later.add(change.change);
      continue;
    }
    if (rows.length === 0) continue;
    const examples = rows.map((r) => {
      const { count, ...values } = r;
      return `${Object.entries(values).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ")} (${String(count)} rows)`;
    });
    problems.push(`${change.change}: the table repeats values the unique index forbids, e.g. ${examples.join("; ")}`);
  }
  if (problems.length > 0) {
    throw new StartupError(
      "SVC_ERR_MIGRATION",
      `${early ? "nothing ran" : "the index was not built"}: ${problems.join("\n")}\nremove or change the repeated rows, then run again`,
    );
  }
  return later;
}
