// `svc migrate plan`'s text (docs/migrations.md): the steps of each phase as SQL a person can
// read and run, each after a comment saying what it does, whether reads and writes go on while
// it runs, the lock it takes, and whether it loses data.

import type { MigrationStep } from "../../runtime/contract/evolve.js";
import type { MigrationPlan } from "../../runtime/db/net/migrate.js";
import type { EvolvePlan, PlannedChange } from "../../runtime/migrate/plan.js";

export interface PlanTextInput {
  /** The database, its password hidden. */
  where: string;
  build: string;
  additive: Pick<MigrationPlan, "create" | "add">;
  evolve: EvolvePlan;
  /** How the additive statements are written for the backend (its name quoting). */
  addColumn: (table: string, definition: string) => string;
}

export function planText(input: PlanTextInput): string {
  const out: string[] = [`-- svc migrate plan: ${input.where}, build ${input.build}`];
  const { create, add } = input.additive;
  const pending = input.evolve.changes.filter((c) => c.status !== "done");
  const expanding = pending.filter((c) => c.status === "not begun");
  out.push("", "-- expand: `svc migrate apply`, or the new build at start; servers of the old build keep serving");
  if (create.length === 0 && add.length === 0 && expanding.every((c) => c.expand.length === 0)) out.push("-- nothing to do");
  for (const table of create) {
    out.push("", `-- create table ${table.name} · online · locks: none (a new table)`, `${table.ddl.createTable};`);
    for (const index of table.ddl.createIndexes) out.push(`${index};`);
  }
  for (const { table, column } of add) {
    out.push("", `-- add column ${table}.${column.name} · online · locks: ACCESS EXCLUSIVE (brief: catalog only)`, `${input.addColumn(table, column.definition)};`);
  }
  for (const change of expanding) section(out, change, change.expand);
  out.push("", "-- contract: `svc migrate complete`, once no server of the old build is left");
  if (pending.every((c) => c.contract.length === 0)) out.push("-- nothing to do");
  for (const change of pending) section(out, change, change.contract);
  const done = input.evolve.changes.filter((c) => c.status === "done");
  if (done.length > 0) {
    out.push("", "-- done (complete on this database; the declarations may be removed):");
    for (const change of done) out.push(`--   ${change.change}`);
  }
  return `${out.join("\n")}\n`;
}

function section(out: string[], change: PlannedChange, steps: readonly MigrationStep[]): void {
  if (steps.length === 0) return;
  out.push("", `-- ${change.change} (${change.status})`);
  for (const step of steps) {
    const notes = [step.online ? "online" : "blocking", `locks: ${step.locks}`];
    if (step.lossy) notes.push("lossy");
    if (step.repeat === true) notes.push("repeated until no row changes, each batch its own transaction");
    if (!step.transactional) notes.push("outside a transaction");
    out.push(`-- ${step.describe} · ${notes.join(" · ")}`, `${step.sql};`);
  }
}
