// The MySQL/MariaDB writer's steps run on MariaDB against a table holding rows (docs/migrations.md):
// after expand, writes of the old build (through the old columns) and of the new build
// (through the new ones) are both seen by both; after contract every row holds its value
// under the declared column. Each step runs twice: a failed apply resumes by running again.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import mysql from "mysql2";
import type { ResultSetHeader } from "mysql2";
import type { MigrationStep } from "../../runtime/contract/evolve.js";
import { mysqlLiveSchema, mysqlSession } from "../../runtime/db/mysql/evolve.js";
import { SQL_MODE } from "../../runtime/db/mysql/session.js";
import { mysqlWriter } from "../../runtime/migrate/mysql.js";

const writer = mysqlWriter();
import type { ChangeTarget, LiveColumnInfo } from "../../runtime/migrate/writer.js";
import { headlineIndex, newTask, oldTask, taskChanges } from "../support/evolve-specs.js";
import { type Namespace, SERVER_URLS, backendAvailable, createNamespace } from "./support/databases.js";

const ok = await backendAvailable("mysql");

(ok ? describe : describe.skip)("mysql writer on MariaDB", () => {
  let ns: Namespace;
  let conn: mysql.Connection;
  const run = (text: string, values: unknown[] = []) =>
    new Promise<Record<string, unknown>[] & { affected?: number }>((resolve, reject) =>
      conn.query(text, values, (err, result) => {
        if (err) return reject(err);
        if (Array.isArray(result)) return resolve(result as Record<string, unknown>[]);
        resolve(Object.assign([], { affected: (result as ResultSetHeader).affectedRows }));
      }),
    );

  /** Every step twice; a repeat step until it changes no row, and once more. */
  async function runSteps(steps: readonly MigrationStep[]): Promise<void> {
    for (const step of steps) {
      if (step.repeat) {
        let rounds = 0;
        while (((await run(step.sql)).affected ?? 0) > 0) rounds++;
        expect(rounds).toBeLessThan(100);
      } else await run(step.sql);
      await run(step.sql);
    }
  }

  async function live(): Promise<LiveColumnInfo[]> {
    const rows = await run(
      `SELECT COLUMN_NAME AS name, DATA_TYPE AS type, COLUMN_TYPE AS columnType, IS_NULLABLE AS nullable FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'task' ORDER BY ORDINAL_POSITION`,
    );
    return rows.map((r) => ({ name: String(r.name), type: String(r.type).toLowerCase(), columnType: String(r.columnType).toLowerCase(), nullable: r.nullable === "YES" }));
  }

  async function target(): Promise<ChangeTarget> {
    const table = newTask("mysql");
    return { table, ddl: table.ddl.mysql!, live: await live(), build: "b2", schema: null };
  }

  beforeAll(async () => {
    ns = await createNamespace("mysql", "evolve");
    conn = mysql.createConnection({ uri: SERVER_URLS.mysql, database: ns.name });
    conn.on("error", () => undefined);
    // As the adapter's connections: triggers keep the sql_mode they were created under.
    await run(`SET time_zone = '+00:00', sql_mode = '${SQL_MODE}'`);
  });

  afterAll(async () => {
    conn?.destroy();
    await ns?.drop();
  });

  test("a BEFORE INSERT trigger fills a NOT NULL column the INSERT leaves out (strict mode)", async () => {
    await run("CREATE TABLE probe (id INT NOT NULL PRIMARY KEY, a TEXT NOT NULL, b TEXT) ENGINE=InnoDB");
    await run("CREATE TRIGGER probe_bi BEFORE INSERT ON probe FOR EACH ROW BEGIN IF NEW.a IS NULL THEN SET NEW.a = NEW.b; END IF; END");
    await run("INSERT INTO probe (id, b) VALUES (1, 'x')");
    expect(await run("SELECT a FROM probe")).toEqual([{ a: "x" }]);
    await run("DROP TRIGGER probe_bi");
    await expect(run("INSERT INTO probe (id, b) VALUES (2, 'y')")).rejects.toThrow(/doesn't have a default value/);
  });

  test("every column change: expand, both builds write and read, contract", async () => {
    await run(oldTask("mysql").createTable);
    // 2,500 rows of the old build: three batches and an empty one.
    const values = Array.from({ length: 2500 }, (_, i) => `('r${i}', 'title ${i}', ${i % 7 === 0 ? "NULL" : `'${i}'`}, '${i * 10}', ${i % 2 ? "NULL" : "'ann'"}, 'n', NULL)`);
    await run(`INSERT INTO task (id, title, estimate, amount, owner, legacy_notes, rnk) VALUES ${values.join(", ")}`);

    const t = await target();
    const plans = [...taskChanges.columns.map((c) => writer.column(c, t)), writer.dropColumn("legacy_notes", t)];
    await runSteps(plans.flatMap((p) => p.expand));

    // Backfilled: every row has its new columns.
    const before = await run("SELECT * FROM task WHERE id IN ('r0', 'r1', 'r7') ORDER BY id");
    expect(before).toEqual([
      { id: "r0", title: "title 0", estimate: null, amount: "0", owner: "ann", legacy_notes: "n", rnk: 2, headline: "title 0", estimate__svc_new: null, price: 0 },
      { id: "r1", title: "title 1", estimate: "1", amount: "10", owner: "nobody", legacy_notes: "n", rnk: 2, headline: "title 1", estimate__svc_new: 1, price: 10 },
      { id: "r7", title: "title 7", estimate: null, amount: "70", owner: "nobody", legacy_notes: "n", rnk: 2, headline: "title 7", estimate__svc_new: null, price: 70 },
    ]);
    expect(await run("SELECT COUNT(*) AS n FROM task WHERE headline IS NULL OR price IS NULL OR owner IS NULL OR rnk IS NULL")).toEqual([{ n: 0 }]);

    // The old build writes through its columns (owner and rnk left NULL, as it may).
    await run("INSERT INTO task (id, title, estimate, amount, owner, legacy_notes, rnk) VALUES ('old1', 'from old', '5', '50', NULL, 'x', NULL)");
    await run("UPDATE task SET title = 'old edit', amount = '11', estimate = '12', owner = NULL WHERE id = 'r1'");
    // The new build writes through its own (it never names title, amount or legacy_notes).
    await run("INSERT INTO task (id, headline, price, owner, rnk) VALUES ('new1', 'from new', 60, 'bo', 3)");
    await run("UPDATE task SET headline = 'new edit', price = 22 WHERE id = 'r2'");

    const old = await run("SELECT id, title, amount, estimate FROM task WHERE id IN ('old1', 'new1', 'r1', 'r2') ORDER BY id");
    expect(old).toEqual([
      { id: "new1", title: "from new", amount: "60", estimate: null },
      { id: "old1", title: "from old", amount: "50", estimate: "5" },
      { id: "r1", title: "old edit", amount: "11", estimate: "12" },
      { id: "r2", title: "new edit", amount: "22", estimate: "2" },
    ]);
    const fresh = await run("SELECT id, headline, price, estimate__svc_new AS estimate, owner, rnk FROM task WHERE id IN ('old1', 'new1', 'r1', 'r2') ORDER BY id");
    expect(fresh).toEqual([
      { id: "new1", headline: "from new", price: 60, estimate: null, owner: "bo", rnk: 3 },
      { id: "old1", headline: "from old", price: 50, estimate: 5, owner: "nobody", rnk: 4 },
      { id: "r1", headline: "old edit", price: 11, estimate: 12, owner: "nobody", rnk: 2 },
      { id: "r2", headline: "new edit", price: 22, estimate: 2, owner: "ann", rnk: 2 },
    ]);

    // The unique index over existing data: a repeated value is answered before anything runs.
    await run("UPDATE task SET headline = 'title 3' WHERE id = 'r4'");
    const index = writer.index(headlineIndex("mysql"), t);
    expect(await run(index.duplicates!)).toEqual([{ "LEFT(`headline`, 255)": "title 3", count: 2 }]);
    await run("UPDATE task SET headline = 'title 4' WHERE id = 'r4'");
    expect(await run(index.duplicates!)).toEqual([]);
    await runSteps(index.steps);

    const contract = (await target()).live;
    const t2 = { ...t, live: contract };
    const plans2 = [...taskChanges.columns.map((c) => writer.column(c, t2)), writer.dropColumn("legacy_notes", t2)];
    await runSteps(plans2.flatMap((p) => p.contract));

    expect(await live()).toEqual([
      { name: "id", type: "varchar", columnType: "varchar(64)", nullable: false },
      { name: "owner", type: "text", columnType: "text", nullable: false },
      { name: "rnk", type: "bigint", columnType: "bigint(20)", nullable: false },
      { name: "headline", type: "text", columnType: "text", nullable: false },
      { name: "estimate", type: "bigint", columnType: "bigint(20)", nullable: true },
      { name: "price", type: "bigint", columnType: "bigint(20)", nullable: false },
    ]);
    const after = await run("SELECT id, headline, price, estimate, owner, rnk FROM task WHERE id IN ('old1', 'new1', 'r1', 'r2', 'r7') ORDER BY id");
    expect(after).toEqual([
      { id: "new1", headline: "from new", price: 60, estimate: null, owner: "bo", rnk: 3 },
      { id: "old1", headline: "from old", price: 50, estimate: 5, owner: "nobody", rnk: 4 },
      { id: "r1", headline: "old edit", price: 11, estimate: 12, owner: "nobody", rnk: 2 },
      { id: "r2", headline: "new edit", price: 22, estimate: 2, owner: "ann", rnk: 2 },
      { id: "r7", headline: "title 7", price: 70, estimate: null, owner: "nobody", rnk: 2 },
    ]);
    // Every row: the value it was written with, under its new name.
    const all = await run("SELECT id, headline, price, estimate FROM task WHERE id LIKE 'r%'");
    expect(all).toHaveLength(2500);
    for (const r of all) {
      const i = Number(String(r.id).slice(1));
      if (i === 1 || i === 2 || i === 4) continue;
      expect(r).toEqual({ id: `r${i}`, headline: `title ${i}`, price: i * 10, estimate: i % 7 === 0 ? null : i });
    }
    // The new build's inserts need nothing of the old columns, and no trigger is left.
    await run("INSERT INTO task (id, headline, price, owner, rnk) VALUES ('new2', 'after', 1, 'c', 1)");
    expect(await run("SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()")).toEqual([]);
    await expect(run("INSERT INTO task (id, headline, price, owner, rnk) VALUES ('dup', 'after', 1, 'c', 1)")).rejects.toThrow(/Duplicate entry/);
  });

  test("the live schema as the planner reads it: MariaDB's JSON (a checked longtext) as json, COLUMN_TYPE beside DATA_TYPE", async () => {
    await run("CREATE TABLE j (id INT NOT NULL PRIMARY KEY, attrs JSON, body LONGTEXT, code VARCHAR(12)) ENGINE=InnoDB");
    await run("CREATE INDEX j_code_idx ON j (code)");
    const live = await mysqlLiveSchema(mysqlSession(conn));
    expect(live.tables.get("j")).toEqual([
      { name: "id", type: "int", columnType: "int(11)", nullable: false },
      { name: "attrs", type: "json", columnType: "longtext", nullable: true },
      { name: "body", type: "longtext", columnType: "longtext", nullable: true },
      { name: "code", type: "varchar", columnType: "varchar(12)", nullable: true },
    ]);
    expect(live.indexes.has("j_code_idx")).toBe(true);
  });

  test("drop resource drops the table with its data, and again is a no-op", async () => {
    await run("CREATE TABLE audit_old (id INT PRIMARY KEY) ENGINE=InnoDB");
    const plan = writer.dropTable("audit_old", null);
    expect(plan.expand).toEqual([]);
    expect(plan.contract.every((s) => s.lossy)).toBe(true);
    await runSteps(plan.contract);
    expect(await run("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'audit_old'")).toEqual([]);
  });
});
