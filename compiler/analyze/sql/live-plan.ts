import type { MigrationPlan } from "../../../runtime/db/net/migrate.js";
import type { EvolvePlan } from "../../../runtime/migrate/plan.js";
import type { TableSpec } from "../../../runtime/contract/index.js";
import type { Dialect } from "../../../runtime/contract/server.js";
import type { LiveReport } from "./live.js";

// `svc check --db` checks the statements against the tables as `svc migrate apply` (or the new
// build's start) would leave them, not as they are: the planner (runtime/migrate/plan.ts) says
// which declared changes are not complete on the database, the additive check leaves their
// columns to them, and a table one of them reshapes is stood in for, for the check's own
// connection only, by a temporary table of the declared shape. A declared column that is
// neither in the live table, nor added at start, nor made by a declared change is left out of
// it, so a statement using it is still refused.

/** What the live schema check reports: differences no declaration explains, and the changes pending. */
export function schemaFindings(additive: MigrationPlan, evolve: EvolvePlan): Pick<LiveReport, "schema" | "pending"> {
  const schema = additive.problems.map((problem) => ({ table: /^table (\S+):/.exec(problem)?.[1] ?? "", problem }));
  // The planner's own: a declaration that does not fit the live table (`task.x renamed from y: …`).
  for (const problem of evolve.problems) schema.push({ table: /^(?:drop resource )?([^.\s]+)/.exec(problem)?.[1] ?? "", problem });
  const pending: LiveReport["pending"] = [];
  for (const c of evolve.changes) if (c.status !== "done" && c.kind !== "view") pending.push({ change: c.change, status: c.status });
  return { schema, pending };
}

/**
 * The statements standing in for each table a pending change reshapes, by table: the declared table,
 * TEMPORARY (it shadows the real one on this connection), then without each declared column
 * nothing accounts for. `quote` is the dialect's identifier quoting.
 */
export function standIns(
  dialect: Dialect,
  tables: readonly TableSpec[],
  live: ReadonlyMap<string, readonly { name: string }[]>,
  additive: MigrationPlan,
  evolve: EvolvePlan,
  quote: (name: string) => string,
  /** How an ALTER names the stand-in (SQLite: `temp."t"`). */
  standIn: (table: string) => string = quote,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const table of tables) {
    const ddl = table.ddl[dialect];
    if (ddl === undefined) continue;
    const changed = evolve.changes.filter((c) => c.table === table.name && c.kind === "column" && c.status !== "done").map((c) => c.column!.column.toLowerCase());
    if (changed.length === 0) continue;
    const accounted = new Set([
      ...(live.get(table.name.toLowerCase()) ?? []).map((c) => c.name.toLowerCase()),
      ...additive.add.filter((a) => a.table === table.name).map((a) => a.column.name.toLowerCase()),
      ...changed,
    ]);
    const statements = [ddl.createTable.replace(/^CREATE TABLE (IF NOT EXISTS )?/, "CREATE TEMPORARY TABLE ")];
    for (const c of ddl.columns) {
      if (!accounted.has(c.name.toLowerCase())) statements.push(`ALTER TABLE ${standIn(table.name)} DROP COLUMN ${quote(c.name)}`);
    }
    out.set(table.name, statements);
  }
  return out;
}
