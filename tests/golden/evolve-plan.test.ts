// The plans' SQL per dialect (fixtures/evolve-plan-<dialect>/expected/plan.sql): every step a
// writer gives for the changes of tests/support/evolve-specs.ts, expand planned against the
// old table and contract against the table as expand leaves it, printed as `svc migrate plan`
// shows a step. `UPDATE_FIXTURES=1` rewrites them; review the diff.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/jest.js";
import type { MigrationStep } from "../../runtime/contract/evolve.js";
import { mysqlWriter } from "../../runtime/migrate/mysql.js";
import { sqliteWriter } from "../../runtime/migrate/sqlite.js";
import type { ChangeTarget, ChangeWriter, LiveColumnInfo } from "../../runtime/migrate/writer.js";
import { expandedLive, headlineIndex, newTask, oldLive, taskChanges } from "../support/evolve-specs.js";
import { repoRoot } from "../support/paths.js";

const UPDATE = process.env.UPDATE_FIXTURES === "1";

const writers: Record<"mysql" | "sqlite", ChangeWriter> = { mysql: mysqlWriter(), sqlite: sqliteWriter() };

function print(step: MigrationStep): string {
  const notes = [step.online ? "online" : "blocking", `locks: ${step.locks}`, ...(step.lossy ? ["lossy"] : []), ...(step.repeat ? ["repeated until no row changes"] : [])];
  return `-- ${step.change}: ${step.describe}\n-- ${notes.join(" · ")}\n${step.sql};\n`;
}

function plan(dialect: "mysql" | "sqlite"): string {
  const writer = writers[dialect];
  const table = newTask(dialect);
  const at = (live: LiveColumnInfo[]): ChangeTarget => ({ table, ddl: table.ddl[dialect]!, live, build: "b2", schema: null });
  const phase = (t: ChangeTarget, which: "expand" | "contract") => [
    ...taskChanges.columns.flatMap((c) => writer.column(c, t)[which]),
    ...taskChanges.dropColumns.flatMap((c) => writer.dropColumn(c, t)[which]),
  ];
  const index = writer.index(headlineIndex(dialect), at(expandedLive(dialect)));
  // MariaDB: the new build's view of the table, in the view database of app database `app`.
  const retyped = taskChanges.columns.filter((c) => c.retype !== undefined && c.renamedFrom === undefined).map((c) => c.column);
  const view = writer.view?.({ ...at(expandedLive(dialect)), schema: "app" }, retyped).steps ?? [];
  const expand = [...phase(at(oldLive(dialect)), "expand"), ...index.steps, ...view.map((s) => ({ ...s, change: `task view of build b2` }))];
  const contract = [...phase(at(expandedLive(dialect)), "contract"), ...writer.dropTable("audit_old", null).contract];
  return [
    `-- ${dialect}: expand (svc migrate apply, or the new build at start)\n`,
    ...expand.map(print),
    `\n-- refused before anything runs when it answers a row:\n${index.duplicates ?? "-- (no unique index)"};\n`,
    `\n-- ${dialect}: contract (svc migrate complete, once no server of the old build is left)\n`,
    ...contract.map(print),
  ].join("\n");
}

describe("evolve plan fixtures", () => {
  test.each(["mysql", "sqlite"] as const)("evolve-plan-%s", (dialect) => {
    const dir = join(repoRoot, "fixtures", `evolve-plan-${dialect}`, "expected");
    const actual = plan(dialect);
    if (UPDATE) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "plan.sql"), actual);
      return;
    }
    expect(existsSync(join(dir, "plan.sql"))).toBe(true);
    expect(actual).toBe(readFileSync(join(dir, "plan.sql"), "utf8"));
  });
});
