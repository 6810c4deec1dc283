// The MySQL/MariaDB writer's SQL text where the goldens (fixtures/evolve-plan-mysql) do not
// reach: the index forms of each server, long trigger names, the type a definition declares.

import { describe, expect, test } from "../../support/jest.js";
import { columnType, mysqlWriter, triggerNames } from "../../../runtime/migrate/mysql.js";
import type { ChangeTarget } from "../../../runtime/migrate/writer.js";
import { newTask, oldLive } from "../../support/evolve-specs.js";

const table = newTask("mysql");
const target: ChangeTarget = { table, ddl: table.ddl.mysql!, live: oldLive("mysql"), build: "b", schema: null };
const unique = "CREATE UNIQUE INDEX IF NOT EXISTS `task_a_b_key` ON `task` (`a`(255), `b` DESC)";

describe("mysql writer", () => {
  test("an index in the form each server takes; a unique one with the query of its repeated values", () => {
    expect(mysqlWriter("mariadb").index(unique, target).steps.map((s) => s.sql)).toEqual([
      "ALTER TABLE `task` ADD UNIQUE INDEX IF NOT EXISTS `task_a_b_key` (`a`(255), `b` DESC), ALGORITHM=NOCOPY, LOCK=NONE",
    ]);
    expect(mysqlWriter("mysql").index(unique, target).steps.map((s) => s.sql)).toEqual([
      "ALTER TABLE `task` ADD UNIQUE INDEX `task_a_b_key` (`a`(255), `b` DESC), ALGORITHM=INPLACE, LOCK=NONE",
    ]);
    expect(mysqlWriter("tidb").index(unique, target).steps.map((s) => s.sql)).toEqual(["ALTER TABLE `task` ADD UNIQUE INDEX `task_a_b_key` (`a`(255), `b` DESC)"]);
    const { steps, duplicates } = mysqlWriter().index(unique, target);
    expect(steps[0]!.change).toBe("task index task_a_b_key");
    expect(duplicates).toBe(
      "SELECT LEFT(`a`, 255), `b`, COUNT(*) AS count FROM `task` WHERE LEFT(`a`, 255) IS NOT NULL AND `b` IS NOT NULL GROUP BY LEFT(`a`, 255), `b` HAVING COUNT(*) > 1 ORDER BY COUNT(*) DESC LIMIT 5",
    );
    expect(mysqlWriter().index("CREATE INDEX IF NOT EXISTS task_a_idx ON task (a)", target).duplicates).toBeNull();
  });

  test("on MariaDB, two retypes in place of one table swap in one ALTER, run by whichever finds the other's triggers gone", () => {
    const estimate = table.changes!.columns.find((c) => c.column === "estimate")!;
    const rnk = { ...estimate, column: "rnk" };
    const two = { ...table, changes: { ...table.changes!, columns: [estimate, rnk] } };
    const at: ChangeTarget = { ...target, table: two };
    const swap = (server: "mariadb" | "tidb", change: typeof estimate) => mysqlWriter(server).column(change, at).contract.find((s) => s.describe.startsWith("swap"))!;
    const sql = swap("mariadb", estimate).sql;
    expect(sql).toContain("TRIGGER_NAME IN ('svc_task_rnk_bi', 'svc_task_rnk_bu')");
    expect(sql).toContain("CHANGE COLUMN `estimate__svc_new` `estimate`");
    expect(sql).toContain("CHANGE COLUMN `rnk__svc_new` `rnk`");
    expect(swap("mariadb", rnk).sql).toContain("TRIGGER_NAME IN ('svc_task_estimate_bi', 'svc_task_estimate_bu')");
    // Alone on its table (or where no view shows it) a retype swaps its own column.
    expect(mysqlWriter("mariadb").column(estimate, target).contract.find((s) => s.describe.startsWith("swap"))!.sql).not.toContain("TRIGGERS");
    expect(swap("tidb", estimate).sql).not.toContain("TRIGGERS");
  });

  test("trigger names fit 64 characters and stay distinct when cut", () => {
    const long = "t".repeat(40);
    const [a] = triggerNames(long, `${"c".repeat(30)}1`);
    const [b] = triggerNames(long, `${"c".repeat(30)}2`);
    expect(a.length).toBeLessThanOrEqual(64);
    expect(a).not.toBe(b);
    expect(triggerNames("task", "headline")).toEqual(["svc_task_headline_bi", "svc_task_headline_bu"]);
  });

  test("the type of a definition, without its constraints", () => {
    const col = (definition: string) => ({ name: "x", definition, sqlType: "", nullable: false, hasDefault: false });
    expect(columnType(col("`x` VARCHAR(64) NOT NULL PRIMARY KEY"))).toBe("VARCHAR(64)");
    expect(columnType(col("`x` VARCHAR(255) NOT NULL DEFAULT 'a' CHECK (`x` IN ('a', 'b'))"))).toBe("VARCHAR(255)");
    expect(columnType(col("`x` DATETIME(3)"))).toBe("DATETIME(3)");
  });

  test("every step of a drop is lossy in contract only, and a dropped NOT NULL column is made nullable first", () => {
    const { expand, contract } = mysqlWriter().dropColumn("legacy_notes", target);
    expect(expand.map((s) => [s.sql, s.lossy])).toEqual([["ALTER TABLE `task` MODIFY COLUMN IF EXISTS `legacy_notes` text NULL, ALGORITHM=INPLACE, LOCK=NONE", false]]);
    expect(contract.map((s) => [s.sql, s.lossy])).toEqual([["ALTER TABLE `task` DROP COLUMN IF EXISTS `legacy_notes`, LOCK=NONE", true]]);
  });
});
