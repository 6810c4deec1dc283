// The SQLite writer's steps run on a SQLite file holding rows (docs/migrations.md): after
// expand, writes of the old build (through the old columns) and of the new build (through the
// new ones) are both seen by both; after contract every row holds its value under the declared
// column, the table has its declared shape, and a new plan has nothing left to do. Steps that
// SQLite can repeat run twice; ADD/DROP COLUMN and a rebuild are left out of a plan made again.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../../support/jest.js";
import Database from "better-sqlite3";
import type { MigrationStep } from "../../../runtime/contract/evolve.js";
import { sqliteWriter } from "../../../runtime/migrate/sqlite.js";
import type { ChangeTarget, LiveColumnInfo } from "../../../runtime/migrate/writer.js";
import { headlineIndex, newTask, oldTask, taskChanges } from "../../support/evolve-specs.js";

const writer = sqliteWriter();
const dir = mkdtempSync(join(tmpdir(), "svc-evolve-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function open(name: string): Database.Database {
  const db = new Database(join(dir, name));
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  return db;
}

/** A step in a transaction of its own, as the engine runs it; a repeat step until it changes no row. */
function runStep(db: Database.Database, step: MigrationStep): number {
  if (step.repeat) {
    let rounds = 0;
    while (db.transaction(() => db.prepare(step.sql).run().changes)() > 0) rounds++;
    return rounds;
  }
  db.transaction(() => db.exec(step.sql))();
  return 0;
}

const unrepeatable = (s: MigrationStep) => /^ALTER TABLE \S+ (?:ADD|DROP) COLUMN|__svc_rebuild/.test(s.sql);

function runSteps(db: Database.Database, steps: readonly MigrationStep[]): void {
  for (const step of steps) {
    runStep(db, step);
    if (!unrepeatable(step)) runStep(db, step);
  }
}

function live(db: Database.Database): LiveColumnInfo[] {
  return db
    .prepare<[], { name: string; type: string; notnull: number; pk: number }>(`SELECT name, type, "notnull", pk FROM pragma_table_info('task')`)
    .all()
    .map((c) => ({ name: c.name, type: c.type, nullable: c.notnull === 0 }));
}

function target(db: Database.Database): ChangeTarget {
  const table = newTask("sqlite");
  return { table, ddl: table.ddl.sqlite!, live: live(db), build: "b2", schema: null };
}

function plan(db: Database.Database): { expand: MigrationStep[]; contract: MigrationStep[] } {
  const t = target(db);
  const all = [...taskChanges.columns.map((c) => writer.column(c, t)), ...taskChanges.dropColumns.map((c) => writer.dropColumn(c, t))];
  return { expand: all.flatMap((p) => p.expand), contract: all.flatMap((p) => p.contract) };
}

describe("sqlite writer on a SQLite file", () => {
  test("every column change: expand, both builds write and read, contract", () => {
    const db = open("task.db");
    db.exec(oldTask("sqlite").createTable);
    db.exec('CREATE INDEX "task_title_idx" ON "task" ("title")');
    const insert = db.prepare("INSERT INTO task (id, title, estimate, amount, owner, legacy_notes, rnk) VALUES (?, ?, ?, ?, ?, 'n', NULL)");
    db.transaction(() => {
      for (let i = 0; i < 2500; i++) insert.run(`r${i}`, `title ${i}`, i % 7 === 0 ? null : String(i), String(i * 10), i % 2 ? null : "ann");
    })();

    const expand = plan(db).expand;
    // title and legacy_notes are NOT NULL and the new build leaves them out: one rebuild makes them nullable.
    expect(expand.filter((s) => s.sql.includes("__svc_rebuild"))).toHaveLength(1);
    expect(expand.some((s) => /ADD COLUMN/.test(s.sql))).toBe(false);
    runSteps(db, expand);
    const again = plan(db).expand;
    expect(again.filter(unrepeatable)).toEqual([]);

    expect(db.prepare("SELECT * FROM task WHERE id IN ('r0', 'r1', 'r7') ORDER BY id").all()).toEqual([
      { id: "r0", headline: "title 0", title: "title 0", estimate__svc_new: null, estimate: null, price: 0, amount: "0", owner: "ann", rnk: 2, legacy_notes: "n" },
      { id: "r1", headline: "title 1", title: "title 1", estimate__svc_new: 1, estimate: "1", price: 10, amount: "10", owner: "nobody", rnk: 2, legacy_notes: "n" },
      { id: "r7", headline: "title 7", title: "title 7", estimate__svc_new: null, estimate: null, price: 70, amount: "70", owner: "nobody", rnk: 2, legacy_notes: "n" },
    ]);
    expect(db.prepare("SELECT COUNT(*) AS n FROM task WHERE headline IS NULL OR price IS NULL OR owner IS NULL OR rnk IS NULL").get()).toEqual({ n: 0 });
    // The rebuild makes the declared indexes over columns it had; the old build's own (on title) is not kept.
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task' AND sql IS NOT NULL").all()).toEqual([]);

    // The old build writes through its columns (owner and rnk left NULL, as it may).
    db.exec("INSERT INTO task (id, title, estimate, amount, owner, legacy_notes, rnk) VALUES ('old1', 'from old', '5', '50', NULL, 'x', NULL)");
    db.exec("UPDATE task SET title = 'old edit', amount = '11', estimate = '12', owner = NULL WHERE id = 'r1'");
    // The new build writes through its own (it never names title, amount or legacy_notes).
    db.exec("INSERT INTO task (id, headline, price, owner, rnk) VALUES ('new1', 'from new', 60, 'bo', 3)");
    db.exec("UPDATE task SET headline = 'new edit', price = 22 WHERE id = 'r2'");

    expect(db.prepare("SELECT id, title, amount, estimate FROM task WHERE id IN ('old1', 'new1', 'r1', 'r2') ORDER BY id").all()).toEqual([
      { id: "new1", title: "from new", amount: "60", estimate: null },
      { id: "old1", title: "from old", amount: "50", estimate: "5" },
      { id: "r1", title: "old edit", amount: "11", estimate: "12" },
      { id: "r2", title: "new edit", amount: "22", estimate: "2" },
    ]);
    expect(db.prepare("SELECT id, headline, price, estimate__svc_new AS estimate, owner, rnk FROM task WHERE id IN ('old1', 'new1', 'r1', 'r2') ORDER BY id").all()).toEqual([
      { id: "new1", headline: "from new", price: 60, estimate: null, owner: "bo", rnk: 3 },
      { id: "old1", headline: "from old", price: 50, estimate: 5, owner: "nobody", rnk: 4 },
      { id: "r1", headline: "old edit", price: 11, estimate: 12, owner: "nobody", rnk: 2 },
      { id: "r2", headline: "new edit", price: 22, estimate: 2, owner: "ann", rnk: 2 },
    ]);

    // The unique index over existing data: a repeated value is answered before anything runs.
    db.exec("UPDATE task SET headline = 'title 3' WHERE id = 'r4'");
    const index = writer.index(headlineIndex("sqlite"), target(db));
    expect(db.prepare(index.duplicates!).all()).toEqual([{ headline: "title 3", count: 2 }]);
    db.exec("UPDATE task SET headline = 'title 4' WHERE id = 'r4'");
    expect(db.prepare(index.duplicates!).all()).toEqual([]);
    runSteps(db, index.steps);

    const contract = plan(db).contract;
    expect(contract.filter((s) => s.sql.includes("__svc_rebuild"))).toHaveLength(1);
    runSteps(db, contract);
    expect(plan(db).contract.filter(unrepeatable)).toEqual([]);

    expect(live(db)).toEqual([
      { name: "id", type: "TEXT", nullable: false },
      { name: "headline", type: "TEXT", nullable: false },
      { name: "estimate", type: "INTEGER", nullable: true },
      { name: "price", type: "INTEGER", nullable: false },
      { name: "owner", type: "TEXT", nullable: false },
      { name: "rnk", type: "INTEGER", nullable: false },
    ]);
    expect(db.prepare("SELECT id, headline, price, estimate, owner, rnk FROM task WHERE id IN ('old1', 'new1', 'r1', 'r2', 'r7') ORDER BY id").all()).toEqual([
      { id: "new1", headline: "from new", price: 60, estimate: null, owner: "bo", rnk: 3 },
      { id: "old1", headline: "from old", price: 50, estimate: 5, owner: "nobody", rnk: 4 },
      { id: "r1", headline: "old edit", price: 11, estimate: 12, owner: "nobody", rnk: 2 },
      { id: "r2", headline: "new edit", price: 22, estimate: 2, owner: "ann", rnk: 2 },
      { id: "r7", headline: "title 7", price: 70, estimate: null, owner: "nobody", rnk: 2 },
    ]);
    const all = db.prepare<[], { id: string; headline: string; price: number; estimate: number | null }>("SELECT id, headline, price, estimate FROM task WHERE id LIKE 'r%'").all();
    expect(all).toHaveLength(2500);
    for (const r of all) {
      const i = Number(r.id.slice(1));
      if (i === 1 || i === 2 || i === 4) continue;
      expect(r).toEqual({ id: `r${i}`, headline: `title ${i}`, price: i * 10, estimate: i % 7 === 0 ? null : i });
    }
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all()).toEqual([]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all()).toEqual([{ name: "task_headline_key" }]);
    expect(db.pragma("foreign_key_check")).toEqual([]);
    expect(() => db.exec("INSERT INTO task (id, headline, price, owner, rnk) VALUES ('dup', 'from new', 1, 'c', 1)")).toThrow(/UNIQUE/);
    expect(() => db.exec("INSERT INTO task (id, headline, price, owner) VALUES ('nn', 'x', 1, 'c')")).toThrow(/NOT NULL/);
    db.close();
  });

  test("old columns already nullable: expand adds columns in place, no rebuild, and both builds still agree", () => {
    const db = open("nullable.db");
    db.exec(oldTask("sqlite").createTable.replace('"title" TEXT NOT NULL', '"title" TEXT').replace('"amount" TEXT NOT NULL', '"amount" TEXT').replace('"legacy_notes" TEXT NOT NULL', '"legacy_notes" TEXT'));
    db.exec("INSERT INTO task (id, title, estimate, amount) VALUES ('a', 'one', '4', '40')");
    const expand = plan(db).expand;
    expect(expand.some((s) => s.sql.includes("__svc_rebuild"))).toBe(false);
    expect(expand.filter((s) => /ADD COLUMN/.test(s.sql)).map((s) => s.sql)).toEqual([
      'ALTER TABLE "task" ADD COLUMN "headline" TEXT',
      'ALTER TABLE "task" ADD COLUMN "estimate__svc_new" INTEGER',
      'ALTER TABLE "task" ADD COLUMN "price" INTEGER',
    ]);
    runSteps(db, expand);
    expect(plan(db).expand.filter(unrepeatable)).toEqual([]);
    db.exec("INSERT INTO task (id, headline, price, owner, rnk) VALUES ('new', 'two', 7, 'o', 1)");
    db.exec("UPDATE task SET title = 'uno' WHERE id = 'a'");
    expect(db.prepare("SELECT id, title, headline, amount, price, owner FROM task ORDER BY id").all()).toEqual([
      { id: "a", title: "uno", headline: "uno", amount: "40", price: 40, owner: "nobody" },
      { id: "new", title: "two", headline: "two", amount: "7", price: 7, owner: "o" },
    ]);
    runSteps(db, plan(db).contract);
    expect(db.prepare("SELECT * FROM task ORDER BY id").all()).toEqual([
      { id: "a", headline: "uno", estimate: 4, price: 40, owner: "nobody", rnk: 1 },
      { id: "new", headline: "two", estimate: null, price: 7, owner: "o", rnk: 1 },
    ]);
    db.close();
  });

  test("a nullable column dropped alone is dropped in place, with no rebuild", () => {
    const db = open("drop.db");
    db.exec(`CREATE TABLE task ("id" TEXT NOT NULL PRIMARY KEY, "headline" TEXT NOT NULL, "estimate" INTEGER, "price" INTEGER NOT NULL, "owner" TEXT NOT NULL, "rnk" INTEGER NOT NULL, "legacy_notes" TEXT)`);
    db.exec("INSERT INTO task VALUES ('a', 'h', 1, 2, 'o', 3, 'gone')");
    const p = plan(db);
    expect(p.expand.filter((s) => s.sql.includes("legacy_notes"))).toEqual([]);
    const drop = p.contract.filter((s) => s.change === "task drop legacy_notes");
    expect(drop.map((s) => s.sql)).toEqual(['ALTER TABLE "task" DROP COLUMN "legacy_notes"']);
    expect(drop[0]!.lossy).toBe(true);
    runSteps(db, p.contract);
    expect(plan(db).contract.filter(unrepeatable)).toEqual([]);
    expect(db.prepare("SELECT * FROM task").all()).toEqual([{ id: "a", headline: "h", estimate: 1, price: 2, owner: "o", rnk: 3 }]);
    db.close();
  });

  test("drop resource drops the table with its data, and again is a no-op", () => {
    const db = open("drop-table.db");
    db.exec("CREATE TABLE audit_old (id INTEGER PRIMARY KEY)");
    const p = writer.dropTable("audit_old", null);
    expect(p.expand).toEqual([]);
    runSteps(db, p.contract);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'audit_old'").all()).toEqual([]);
    db.close();
  });
});
