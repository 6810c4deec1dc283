// The planner (runtime/migrate/plan.ts) without a database: which declared changes are not
// begun, open or done from the live schema and the history; what it refuses; what the
// additive check is told to leave alone, also for a server of the old build.

import { describe, expect, test } from "../../support/jest.js";
import { columnChangeKey, keyColumns } from "../../../runtime/migrate/keys.js";
import { type HistoryRow, type LiveSchema, changesToRun, indexName, planChanges } from "../../../runtime/migrate/plan.js";
import { postgresWriter } from "../../../runtime/migrate/postgres.js";
import { mysqlWriter } from "../../../runtime/migrate/mysql.js";
import { viewDatabaseName } from "../../../runtime/migrate/mysql-views.js";
import type { TableSpec } from "../../../runtime/contract/server.js";
import type { LiveColumnInfo } from "../../../runtime/migrate/writer.js";
import { backfillOwner, live, pgTable, renameHeadline, retypeEstimate } from "./tables.js";

const writer = postgresWriter();

function plan(tables: TableSpec[], liveTask: LiveColumnInfo[] | null, history: HistoryRow[] = [], extra: Partial<LiveSchema> = {}, dropTables: string[] = []) {
  const schema: LiveSchema = {
    tables: new Map(liveTask === null ? [] : [["task", liveTask]]),
    indexes: new Set(),
    ...extra,
  };
  return planChanges({ dialect: "postgres", tables, schema: { build: "b1", dropTables }, live: schema, history, writer, dbSchema: "app" });
}

const renamed = pgTable([{ name: "headline", type: "text" }], { columns: [renameHeadline] });

describe("the status of a declared change", () => {
  test("a rename is not begun while only the old column is there, open once expanded, done once the old one is gone", () => {
    const before = plan([renamed], live(["title", "text"]));
    expect(before.changes.map((c) => [c.change, c.status])).toEqual([["task.headline renamed from title", "not begun"]]);
    expect(before.expand.length).toBeGreaterThan(0);
    expect(before.problems).toEqual([]);

    const expanded = live(["title", "text"], ["headline", "text", true]);
    const row: HistoryRow = { change: "task.headline renamed from title", phase: "expand", build: "b1" };
    const open = plan([renamed], expanded, [row]);
    expect(open.changes[0]!.status).toBe("open");
    expect(open.expand).toEqual([]);
    expect(changesToRun(open, "contract", [row]).map((c) => c.change)).toEqual(["task.headline renamed from title"]);
    expect(changesToRun(open, "expand", [row])).toEqual([]);

    const done = plan([renamed], live(["headline", "text"]));
    expect(done.changes[0]!.status).toBe("done");
    expect(done.expand).toEqual([]);
    expect(done.contract).toEqual([]);
    expect(done.owned.size).toBe(0);
  });

  test("an expand that failed half-way (no history row) is not begun, so apply runs it again", () => {
    const p = plan([renamed], live(["title", "text"], ["headline", "text", true]));
    expect(p.changes[0]!.status).toBe("not begun");
  });

  test("a fresh table needs none of its changes", () => {
    const p = plan([renamed], null);
    expect(p.changes).toEqual([]);
    expect(p.expand).toEqual([]);
  });

  test("a retype in place is done when the column has the new type and no shadow is left", () => {
    const t = pgTable([{ name: "estimate", type: "bigint", nullable: true }], { columns: [retypeEstimate] });
    expect(plan([t], live(["estimate", "text", true])).changes[0]!.status).toBe("not begun");
    expect(plan([t], live(["estimate", "bigint", true])).changes[0]!.status).toBe("done");
    const open = plan([t], live(["estimate", "text", true], ["estimate__svc_new", "bigint", true]));
    expect([...open.owned.get("task")!]).toEqual(["estimate", "estimate__svc_new"]);
  });

  test("a build's view of a table follows its retypes in place: made after them, again only when one expands or it is missing", () => {
    const retypeTitle = { ...retypeEstimate, column: "title" };
    const both = pgTable([{ name: "estimate", type: "bigint", nullable: true }, { name: "title", type: "bigint", nullable: true }], { columns: [retypeEstimate, retypeTitle] });
    const fresh = plan([both], live(["estimate", "text", true], ["title", "text", true]));
    expect(fresh.changes.map((c) => [c.change, c.kind])).toEqual([
      ["task.estimate changed from text", "column"],
      ["task.title changed from text", "column"],
      ["task view of build b1", "view"],
    ]);
    expect(fresh.changes[2]!.expand.at(-1)!.sql).toContain(`SELECT "id", "estimate__svc_new" AS "estimate", "title__svc_new" AS "title"`);
    // Both expanded: nothing runs while the view is there; a view this build lacks is made again.
    const rows: HistoryRow[] = ["estimate", "title"].map((c) => ({ change: `task.${c} changed from text`, phase: "expand", build: "b0" }));
    const expanded = live(["estimate", "text", true], ["title", "text", true], ["estimate__svc_new", "bigint", true], ["title__svc_new", "bigint", true]);
    expect(plan([both], expanded, rows, { views: new Set(["app_svc_b1.task"]) }).expand).toEqual([]);
    expect(plan([both], expanded, rows).changes.map((c) => [c.change, c.status])).toEqual([
      ["task.estimate changed from text", "open"],
      ["task.title changed from text", "open"],
      ["task view of build b1", "not begun"],
    ]);
    // One contracted: the view shows only the shadow still there.
    const half = live(["estimate", "bigint", true], ["title", "text", true], ["title__svc_new", "bigint", true]);
    const view = plan([both], half, rows).changes.find((c) => c.kind === "view")!;
    expect(view.expand.at(-1)!.sql).toContain(`SELECT "id", "estimate", "title__svc_new" AS "title"`);
  });

  test("on MariaDB, the build's view database shows every table while a retype in place is open: the retyped one's shadow, the others passed through", () => {
    const onMysql = (t: TableSpec): TableSpec => ({ ...t, ddl: { mysql: t.ddl.postgres! } });
    const task = onMysql(pgTable([{ name: "estimate", type: "bigint", nullable: true }], { columns: [retypeEstimate] }));
    const note = onMysql(pgTable([{ name: "body", type: "text" }], undefined, [], "note"));
    const mysqlPlan = (server: "mariadb" | "mysql", liveTask: LiveColumnInfo[], history: HistoryRow[] = [], views?: Set<string>) =>
      planChanges({
        dialect: "mysql",
        tables: [task, note],
        schema: { build: "b1", dropTables: [] },
        live: { tables: new Map([["task", liveTask], ["note", live(["body", "text"])]]), indexes: new Set(), ...(views ? { views } : {}) },
        history,
        writer: mysqlWriter(server),
        dbSchema: "app",
      });
    const fresh = mysqlPlan("mariadb", live(["estimate", "text", true]));
    expect(fresh.changes.map((c) => [c.change, c.kind])).toEqual([
      ["task.estimate changed from text", "column"],
      ["task view of build b1", "view"],
      ["note view of build b1", "view"],
    ]);
    expect(fresh.changes[1]!.expand.map((s) => s.sql)).toEqual([
      "CREATE DATABASE IF NOT EXISTS `app_svc_b1`",
      "CREATE OR REPLACE VIEW `app_svc_b1`.`task` AS SELECT `id`, `estimate__svc_new` AS `estimate` FROM `app`.`task`",
    ]);
    expect(fresh.changes[2]!.expand.at(-1)!.sql).toBe("CREATE OR REPLACE VIEW `app_svc_b1`.`note` AS SELECT `id`, `body` FROM `app`.`note`");
    // Expanded, the views there: nothing to run; one missing is made again, alone.
    const rows: HistoryRow[] = [{ change: "task.estimate changed from text", phase: "expand", build: "b1" }];
    const expanded = live(["estimate", "text", true], ["estimate__svc_new", "bigint", true]);
    expect(mysqlPlan("mariadb", expanded, rows, new Set(["app_svc_b1.task", "app_svc_b1.note"])).expand).toEqual([]);
    expect(mysqlPlan("mariadb", expanded, rows, new Set(["app_svc_b1.task"])).changes.filter((c) => c.status === "not begun").map((c) => c.change)).toEqual(["note view of build b1"]);
    // Contract drops the view databases once no shadow is left; MySQL 8 and TiDB have no views.
    expect(fresh.changes[0]!.contract.at(-1)!.describe).toBe("drop the builds' view databases once no retype in place is left open");
    expect(mysqlPlan("mysql", live(["estimate", "text", true])).changes.map((c) => c.kind)).toEqual(["column"]);
  });

  test("a view database's name is at most 64 characters, the same for the same database and build, distinct for others", () => {
    const long = "a".repeat(60);
    expect(viewDatabaseName("app", "b1")).toBe("app_svc_b1");
    expect(viewDatabaseName(long, "0123456789abcdef").length).toBeLessThanOrEqual(64);
    expect(viewDatabaseName(long, "0123456789abcdef")).toBe(viewDatabaseName(long, "0123456789abcdef"));
    expect(viewDatabaseName(long, "0123456789abcdef")).not.toBe(viewDatabaseName(`${long}b`, "0123456789abcdef"));
    expect(viewDatabaseName("app", "x".repeat(80)).length).toBe(64);
    expect(viewDatabaseName("app", "x".repeat(80))).not.toBe(viewDatabaseName("app", `${"x".repeat(79)}y`));
  });

  test("a backfill is done once the column is NOT NULL", () => {
    const t = pgTable([{ name: "owner", type: "text" }], { columns: [backfillOwner] });
    expect(plan([t], live(["owner", "text", true])).changes[0]!.status).toBe("not begun");
    expect(plan([t], live(["owner", "text", false])).changes[0]!.status).toBe("done");
  });

  test("a dropped column and a dropped table are done once gone", () => {
    const t = pgTable([], { dropColumns: ["legacy"] });
    expect(plan([t], live(["legacy", "text"])).changes.map((c) => [c.change, c.status])).toEqual([["task drop legacy", "not begun"]]);
    expect(plan([t], live()).changes[0]!.status).toBe("done");
    const dropped = plan([], null, [], {}, ["audit_old"]);
    expect(dropped.changes.map((c) => [c.change, c.status])).toEqual([["drop resource audit_old", "done"]]);
    const there = plan([], null, [], { tables: new Map([["audit_old", live()]]) }, ["audit_old"]);
    expect(there.changes[0]!.status).toBe("not begun");
    expect(there.contract.map((s) => s.lossy)).toEqual([true]);
  });

  test("a declared index the live table lacks is built online, with a duplicates query when unique", () => {
    const t = pgTable([{ name: "headline", type: "text" }], undefined, [`CREATE UNIQUE INDEX IF NOT EXISTS "task_headline" ON "task" ("headline")`]);
    const p = plan([t], live(["headline", "text"]));
    expect(p.changes.map((c) => c.change)).toEqual(["task index task_headline"]);
    expect(p.changes[0]!.duplicates).toContain("HAVING count(*) > 1");
    expect(p.expand.map((s) => s.transactional)).toEqual([true, false]);
    const present = plan([t], live(["headline", "text"]), [], { indexes: new Set(["task_headline"]) });
    expect(present.changes).toEqual([]);
  });
});

describe("differences the declarations cannot explain", () => {
  test("a rename whose old column is not there names it", () => {
    const p = plan([renamed], live(["other", "text"]));
    expect(p.problems).toEqual(["task.headline renamed from title: the table has no column title to change (nor headline)"]);
  });

  test("a retype from a type the column does not have", () => {
    const t = pgTable([{ name: "estimate", type: "bigint", nullable: true }], { columns: [retypeEstimate] });
    expect(plan([t], live(["estimate", "boolean", true])).problems).toEqual([
      "task.estimate changed from text: column estimate is boolean in the database, not the type the declaration changes from",
    ]);
  });
});

describe("keys", () => {
  test("a server of the old build reads back from an open change's key the columns it keeps", () => {
    expect(keyColumns("task.headline renamed from title")).toEqual({ table: "task", columns: ["headline", "title"] });
    expect(keyColumns("task.estimate changed from text")).toEqual({ table: "task", columns: ["estimate", "estimate__svc_new"] });
    expect(keyColumns("task.owner backfill")).toEqual({ table: "task", columns: ["owner"] });
    expect(keyColumns("task drop legacy")).toEqual({ table: "task", columns: ["legacy"] });
    expect(keyColumns("drop resource audit")).toBeNull();
    expect(keyColumns("task index task_headline")).toBeNull();
    const old = pgTable([{ name: "title", type: "text" }]);
    const p = plan([old], live(["title", "text"], ["headline", "text", true]), [{ change: "task.headline renamed from title", phase: "expand", build: "b2" }]);
    expect([...p.owned.get("task")!]).toEqual(["headline", "title"]);
  });

  test("one key per declaration, several parts at once", () => {
    expect(columnChangeKey("task", { ...retypeEstimate, column: "price", renamedFrom: "amount", backfill: backfillOwner.backfill }, "postgres")).toBe(
      "task.price renamed from amount changed from text backfill",
    );
  });

  test("index names from the DDL's statements", () => {
    expect(indexName(`CREATE INDEX IF NOT EXISTS "a""b" ON "t" ("x")`)).toBe('a"b');
    expect(indexName("CREATE UNIQUE INDEX IF NOT EXISTS `m_i` ON `t` (`x`(255))")).toBe("m_i");
  });
});
