// What a MySQL/MariaDB or SQLite server does about declared changes at start, under the lock
// its additive migration holds (docs/migrations.md): plan against the live schema and the
// history (the plan also tells the additive check which columns it owns), and, once expand
// ran, say whether this build may serve. MariaDB shows the new build a retyped column through
// views in a database of its own (migrate/mysql-views.ts); SQLite, MySQL 8 and TiDB cannot
// (SQLite's views report no changes() nor last_insert_rowid() through INSTEAD OF triggers),
// so there a column retyped in place keeps the old type under its name until contract: a
// server of the new build cannot serve before `svc migrate complete`.

import type { SchemaSpec } from "../contract/evolve.js";
import type { TableSpec } from "../contract/server.js";
import { type MigrationSession, readHistory } from "./engine.js";
import { newColumnOf } from "./keys.js";
import { type EvolvePlan, type HistoryRow, type LiveSchema, planChanges } from "./plan.js";
import type { ChangeWriter } from "./writer.js";

export interface StartPlan {
  plan: EvolvePlan;
  history: HistoryRow[];
}

export async function planAtStart(
  session: MigrationSession,
  writer: ChangeWriter,
  tables: readonly TableSpec[],
  schema: SchemaSpec | undefined,
  live: LiveSchema,
  /** MySQL/MariaDB: the app database, which MariaDB's views name. */
  database: string | null = null,
): Promise<StartPlan> {
  const history = await readHistory(session);
  const plan = planChanges({ dialect: writer.dialect, tables, ...(schema ? { schema } : {}), live, history, writer, dbSchema: database });
  return { plan, history };
}

/** `table.column` of each column this build retypes in place whose change is not done: its shadow holds the new values. */
export function openRetypes(start: StartPlan, tables: readonly TableSpec[]): { key: string; table: string; shadow: string }[] {
  const out: { key: string; table: string; shadow: string }[] = [];
  for (const table of tables) {
    for (const change of table.changes?.columns ?? []) {
      if (newColumnOf(change) === change.column) continue;
      const planned = start.plan.changes.find((c) => c.column === change);
      if (planned !== undefined && planned.status !== "done") out.push({ key: planned.change, table: table.name, shadow: newColumnOf(change) });
    }
  }
  return out;
}

/**
 * Why this build cannot serve yet, or null: on a backend without views, a column it retypes
 * in place whose change is not done keeps its old type under its name until contract (run
 * after expand, with its plan).
 */
export function retypeWaiting(start: StartPlan, tables: readonly TableSpec[]): string | null {
  const retyped = openRetypes(start, tables).map((r) => r.key);
  if (retyped.length === 0) return null;
  return (
    `${retyped.join(", ")}: the column keeps its old type until contract, and this backend cannot show the new build another one.\n` +
    "expand has run, and servers of the old build go on serving; to finish: stop every server of the old build, run " +
    "`svc migrate complete --db …`, then start this build"
  );
}
