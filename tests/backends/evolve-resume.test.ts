// Declared changes attacked (docs/migrations.md, Safety), on MariaDB and on a SQLite file: a
// step that fails half-way through a phase stops it with the step and its SQL; MariaDB keeps
// what ran (its DDL commits) and SQLite undoes the phase whole (one transaction); the same
// command run again once the cause is fixed finishes the phase without running a finished
// change twice; two migrations at once apply each change once; a migration that cannot get
// the lock runs nothing.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import Database from "better-sqlite3";
import mysql from "mysql2";
import type { SchemaSpec } from "../../runtime/contract/evolve.js";
import { migrateMysqlPhase } from "../../runtime/db/mysql/migrate.js";
import { SQL_MODE } from "../../runtime/db/mysql/session.js";
import { migrateSqlitePhase } from "../../runtime/db/sqlite/migrate.js";
import { newTask, oldTask } from "../support/evolve-specs.js";
import { SERVER_URLS, backendAvailable, createNamespace, type Namespace } from "./support/databases.js";

const schema: SchemaSpec = { build: "b2", dropTables: [] };
const ROWS = "('a', 'one', '1', '10', NULL, 'n', NULL), ('b', 'two', 'abc', '20', 'bo', 'n', 5)";

const ok = await backendAvailable("mysql");
(ok ? describe : describe.skip)("mariadb: a failed apply resumes, two at once apply once", () => {
  let ns: Namespace;
  const conns: mysql.Connection[] = [];
  afterAll(async () => {
    for (const c of conns) c.destroy();
    await ns?.drop();
  });

  async function connect(): Promise<mysql.Connection> {
    const conn = mysql.createConnection({ uri: SERVER_URLS.mysql, database: ns.name });
    conn.on("error", () => undefined);
    conns.push(conn);
    await new Promise((resolve, reject) => conn.query(`SET time_zone = '+00:00', sql_mode = '${SQL_MODE}'`, (err) => (err ? reject(err) : resolve(null))));
    return conn;
  }

  test("a conversion refused mid-expand; fixed and run again; then two contracts at once", async () => {
    ns = await createNamespace("mysql", "evolveresume");
    await ns.admin(oldTask("mysql").createTable);
    await ns.admin(`INSERT INTO task (id, title, estimate, amount, owner, legacy_notes, rnk) VALUES ${ROWS}`);
    const conn = await connect();
    const tables = [newTask("mysql")];

    // 'abc' is no integer: strict mode refuses the estimate's backfill, after the rename's change ran whole.
    await expect(migrateMysqlPhase(conn, tables, schema)).rejects.toThrow(
      /task\.estimate changed from text: fill estimate__svc_new from estimate, 1000 rows a statement failed: Truncated incorrect INTEGER value: 'abc'[\s\S]*run again to resume/,
    );
    expect(await ns.admin("SELECT `change` FROM svc_migrations ORDER BY `change`")).toEqual([{ change: "task.headline renamed from title" }]);

    await ns.admin("UPDATE task SET estimate = '3' WHERE id = 'b'");
    const resumed = await migrateMysqlPhase(conn, tables, schema);
    expect(resumed.applied.map((a) => a.change)).toEqual([
      "task.estimate changed from text",
      "task.price renamed from amount changed from text",
      "task.owner backfill",
      "task.rnk backfill",
      "task drop legacy_notes",
      "task index task_headline_key",
    ]);
    // MariaDB: the new build serves through its view database, which expand made.
    expect(resumed.waiting).toBeNull();
    expect(resumed.views).toEqual({ database: `${ns.name}_svc_b2`, app: ns.name, shadows: ["task.estimate__svc_new"] });
    const viewDatabase = () => ns.admin("SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", [`${ns.name}_svc_b2`]);
    expect(await viewDatabase()).toEqual([{ name: `${ns.name}_svc_b2` }]);

    // Two `svc migrate complete` at once: one waits for the other's lock, then finds nothing left.
    const [x, y] = await Promise.all([migrateMysqlPhase(conn, tables, schema, { phase: "contract" }), connect().then((c) => migrateMysqlPhase(c, tables, schema, { phase: "contract" }))]);
    expect([x.applied.length, y.applied.length].sort()).toEqual([0, 6]);
    expect(await viewDatabase()).toEqual([]);
    const phases = await ns.admin("SELECT phase, COUNT(*) AS n FROM svc_migrations GROUP BY phase ORDER BY phase");
    expect(phases).toEqual([
      { phase: "contract", n: 6 },
      { phase: "expand", n: 7 },
    ]);
    expect(await ns.admin("SELECT id, headline, estimate, price, owner, rnk FROM task ORDER BY id")).toEqual([
      { id: "a", headline: "one", estimate: 1, price: 10, owner: "nobody", rnk: 1 },
      { id: "b", headline: "two", estimate: 3, price: 20, owner: "bo", rnk: 5 },
    ]);
  }, 60_000);
});

describe("sqlite: a failed complete resumes, a held lock runs nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-evolve-resume-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a row the declared shape refuses stops the rebuild whole; fixed, complete runs again", async () => {
    const file = join(dir, "task.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec(oldTask("sqlite").createTable);
    db.exec(`INSERT INTO task (id, title, estimate, amount, owner, legacy_notes, rnk) VALUES ${ROWS}`);
    const tables = [newTask("sqlite")];

    // Another connection holds the write lock: the migration waits, gives up, and changes nothing.
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    await expect(migrateSqlitePhase(db, tables, schema, { lockTimeoutMs: 200 })).rejects.toThrow(/stayed locked by another connection/);
    other.exec("ROLLBACK");
    other.close();
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'svc_migrations'").all()).toEqual([]);

    await migrateSqlitePhase(db, tables, schema);
    // Expand left title nullable; a row written around svc (no title, so no headline) breaks NOT NULL.
    db.exec("INSERT INTO task (id, amount) VALUES ('c', '30')");
    const before = db.prepare("SELECT * FROM task ORDER BY id").all();
    await expect(migrateSqlitePhase(db, tables, schema, { phase: "contract" })).rejects.toThrow(
      /task\.headline renamed from title: rebuild the table as declared[\s\S]*NOT NULL constraint failed: task__svc_rebuild\.headline[\s\S]*run again to resume/,
    );
    // On SQLite a phase is one transaction: the failure undid all of it, history included.
    expect(db.prepare("SELECT * FROM task ORDER BY id").all()).toEqual(before);
    expect(db.prepare("SELECT COUNT(*) AS n FROM svc_migrations WHERE phase = 'contract'").get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger'").get()).toEqual({ n: 10 });
    db.exec("UPDATE task SET title = 'three' WHERE id = 'c'");
    const done = await migrateSqlitePhase(db, tables, schema, { phase: "contract" });
    expect(done.applied.map((a) => a.change)).toContain("task.headline renamed from title");
    expect(db.prepare("SELECT id, headline, estimate, price, owner, rnk FROM task ORDER BY id").all()).toEqual([
      { id: "a", headline: "one", estimate: 1, price: 10, owner: "nobody", rnk: 1 },
      { id: "b", headline: "two", estimate: 0, price: 20, owner: "bo", rnk: 5 },
      { id: "c", headline: "three", estimate: null, price: 30, owner: "nobody", rnk: 1 },
    ]);
    db.close();
  });
});
