// What a MySQL/MariaDB or SQLite server does about declared changes at start, under the lock
// its additive migration holds (docs/migrations.md): plan against the live schema and the
// history, tell the additive check which columns the plan owns, run expand, and say whether
// this build may serve. Neither backend has a per-connection view of a table (PostgreSQL's
// search_path), so a column retyped in place keeps the old type under its name until
// contract: a server of the new build cannot serve before `svc migrate complete`.

import type { SchemaSpec } from "../contract/evolve.js";
import type { TableSpec } from "../contract/server.js";
import { type MigrationSession, readHistory, runPhase } from "./engine.js";
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
): Promise<StartPlan> {
  const history = await readHistory(session);
  const plan = planChanges({ dialect: writer.dialect, tables, ...(schema ? { schema } : {}), live, history, writer, dbSchema: null });
  return { plan, history };
}

/**
 * Runs expand (nothing when no change is new) and answers why this build cannot serve yet, or
 * null. Drops of tables and columns wait for `svc migrate complete`, never a start.
 */
export async function expandAtStart(session: MigrationSession, start: StartPlan, tables: readonly TableSpec[], build: string): Promise<string | null> {
  await runPhase(session, "expand", start.plan, start.history, build);
  const retyped: string[] = [];
  for (const table of tables) {
    for (const change of table.changes?.columns ?? []) {
      if (newColumnOf(change) === change.column) continue;
      const planned = start.plan.changes.find((c) => c.table === table.name && c.change.startsWith(`${table.name}.${change.column} `));
      if (planned !== undefined && planned.status !== "done") retyped.push(planned.change);
    }
  }
  if (retyped.length === 0) return null;
  return (
    `${retyped.join(", ")}: the column keeps its old type until contract, and this backend cannot show the new build another one.\n` +
    "expand has run, and servers of the old build go on serving; to finish: stop every server of the old build, run " +
    "`svc migrate complete --db …`, then start this build"
  );
}
