// Each kind of declared change on PostgreSQL end to end (runtime/migrate, docs/migrations.md):
// expand, then the old build's SQL and the new build's working side by side on the same table
// (each through a connection shaped as that build's: the new build's search_path starts with
// its view schema), then contract, the data intact. Also attacked: a step failing mid-apply
// then a re-run resuming, two applies at once applying once, a unique index over repeated
// values refused before anything runs.

import { afterAll, beforeEach, describe, expect, test } from "../support/jest.js";
import type { Sql } from "postgres";
import type { SchemaSpec, TableSpec } from "../../runtime/contract/index.js";
import { migratePostgres } from "../../runtime/db/postgres/migrate.js";
import { historyTable } from "../../runtime/migrate/history.js";
import { type Namespace, backendAvailable, createNamespace, searchPathClient } from "./support/databases.js";
import { backfillOwner, pgTable, renameHeadline, retypeEstimate } from "../unit/migrate/tables.js";

const ok = await backendAvailable("postgres");

(ok ? describe : describe.skip)("postgres: declared schema changes", () => {
  let ns: Namespace;
  const clients: Sql[] = [];
  const client = (path: string | null = null): Sql => {
    const sql = searchPathClient(ns, path);
    clients.push(sql);
    return sql;
  };
  const migrate = (tables: TableSpec[], build: string, phase: "expand" | "contract" = "expand", dropTables: string[] = []) => {
    const spec: SchemaSpec = { build, dropTables };
    return migratePostgres(client(), [...tables, historyTable], ns.name, spec, { phase });
  };
  const rows = async (sql: Sql, text: string) => [...(await sql.unsafe(text))];

  beforeEach(async () => {
    ns = await createNamespace("postgres", "evolve");
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end({ timeout: 1 })));
  });

  const drop = async () => {
    const views = await ns.admin(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [`${ns.name}_svc_%`]);
    for (const v of views) await ns.admin(`DROP SCHEMA "${String(v.nspname)}" CASCADE`);
    await ns.drop();
  };

  test("a rename: both builds write and read each other's rows during the deploy; contract keeps every value", async () => {
    const v1 = pgTable([{ name: "title", type: "text" }]);
    const v2 = pgTable([{ name: "headline", type: "text" }], { columns: [renameHeadline] });
    await migrate([v1], "b1");
    await ns.admin(`INSERT INTO task (title) SELECT 'row ' || g FROM generate_series(1, 2500) g`);

    const expanded = await migrate([v2], "b2");
    expect(expanded.applied.map((a) => [a.change, a.rows])).toEqual([["task.headline renamed from title", 2500]]);
    expect(expanded.viewSchema).toBeNull();
    const oldBuild = client();
    const newBuild = client();
    expect(await rows(newBuild, `SELECT count(*)::int AS n FROM task WHERE headline = title`)).toEqual([{ n: 2500 }]);
    await oldBuild.unsafe(`INSERT INTO task (title) VALUES ('from old')`);
    await newBuild.unsafe(`INSERT INTO task (headline) VALUES ('from new')`);
    await oldBuild.unsafe(`UPDATE task SET title = 'old edit' WHERE id = 1`);
    await newBuild.unsafe(`UPDATE task SET headline = 'new edit' WHERE id = 2`);
    expect(await rows(newBuild, `SELECT headline FROM task WHERE title IN ('from old', 'from new', 'old edit', 'new edit') ORDER BY id`)).toEqual([
      { headline: "old edit" }, { headline: "new edit" }, { headline: "from old" }, { headline: "from new" },
    ]);
    // A server of the old build restarting during the deploy accepts the column the new one added.
    await migrate([v1], "b1");
    // The new build starting again finds nothing left to expand.
    expect((await migrate([v2], "b2")).applied).toEqual([]);

    const contracted = await migrate([v2], "b2", "contract");
    expect(contracted.applied.map((a) => a.change)).toEqual(["task.headline renamed from title"]);
    const cols = await ns.admin(`SELECT column_name, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'task' ORDER BY ordinal_position`, [ns.name]);
    expect(cols).toEqual([{ column_name: "id", is_nullable: "NO" }, { column_name: "headline", is_nullable: "NO" }]);
    expect(await rows(newBuild, `SELECT count(*)::int AS n FROM task`)).toEqual([{ n: 2502 }]);
    expect(await rows(newBuild, `SELECT headline FROM task WHERE id IN (1, 2) ORDER BY id`)).toEqual([{ headline: "old edit" }, { headline: "new edit" }]);
    const history = await ns.admin(`SELECT change, phase, build FROM svc_migrations ORDER BY phase`);
    expect(history).toEqual([
      { change: "task.headline renamed from title", phase: "contract", build: "b2" },
      { change: "task.headline renamed from title", phase: "expand", build: "b2" },
    ]);
    // Left declared once complete, the change is a no-op.
    expect((await migrate([v2], "b2")).evolve.changes.map((c) => c.status)).toEqual(["done"]);
    await drop();
  });

  test("a retype in place: the new build sees the new type through its view, the old one the old type", async () => {
    const v1 = pgTable([{ name: "estimate", type: "text", nullable: true }]);
    const byEstimate = `CREATE INDEX IF NOT EXISTS "task_estimate" ON "task" ("estimate")`;
    const v2 = pgTable([{ name: "estimate", type: "bigint", nullable: true }], { columns: [retypeEstimate] }, [byEstimate]);
    await migrate([v1], "b1");
    await ns.admin(`INSERT INTO task (estimate) VALUES ('3'), (NULL), ('12')`);

    const expanded = await migrate([v2], "b2");
    expect(expanded.viewSchema).toBe(`${ns.name}_svc_b2`);
    const oldBuild = client();
    const newBuild = client(expanded.viewSchema);
    expect(await rows(newBuild, `SELECT id, estimate FROM task ORDER BY id`)).toEqual([
      { id: "1", estimate: "3" }, { id: "2", estimate: null }, { id: "3", estimate: "12" },
    ]);
    const [inserted] = await rows(newBuild, `INSERT INTO task (estimate) VALUES (40) RETURNING id, estimate`);
    expect(inserted).toEqual({ id: "4", estimate: "40" });
    await oldBuild.unsafe(`INSERT INTO task (estimate) VALUES ('7')`);
    await newBuild.unsafe(`UPDATE task SET estimate = 99 WHERE id = 1`);
    expect(await rows(oldBuild, `SELECT estimate FROM task ORDER BY id`)).toEqual(["99", null, "12", "40", "7"].map((estimate) => ({ estimate })));
    expect(await rows(newBuild, `SELECT pg_typeof(estimate)::text AS t FROM task LIMIT 1`)).toEqual([{ t: "bigint" }]);
    await migrate([v1], "b1");

    await migrate([v2], "b2", "contract");
    expect(await rows(oldBuild, `SELECT estimate FROM task ORDER BY id`)).toEqual(["99", null, "12", "40", "7"].map((e) => ({ estimate: e })));
    const [type] = await ns.admin(`SELECT data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'task' AND column_name = 'estimate'`, [ns.name]);
    expect(type).toEqual({ data_type: "bigint" });
    expect(await ns.admin(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [expanded.viewSchema])).toEqual([]);
    // The declared index was built on the old column, dropped with it by the swap, and built again on the new one.
    expect(await ns.admin(`SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'task_estimate'`, [ns.name])).toEqual([
      { indexdef: `CREATE INDEX task_estimate ON ${ns.name}.task USING btree (estimate)` },
    ]);
    await drop();
  });

  test("a backfill: NULL rows get the value, the old build's NULL writes too; contract makes the column NOT NULL", async () => {
    const v1 = pgTable([{ name: "owner", type: "text", nullable: true }]);
    const v2 = pgTable([{ name: "owner", type: "text" }], { columns: [backfillOwner] });
    await migrate([v1], "b1");
    await ns.admin(`INSERT INTO task (owner) SELECT CASE WHEN g % 2 = 0 THEN NULL ELSE 'ann' END FROM generate_series(1, 3000) g`);
    const expanded = await migrate([v2], "b2");
    expect(expanded.applied.map((a) => a.rows)).toEqual([1500]);
    const oldBuild = client();
    await oldBuild.unsafe(`INSERT INTO task (owner) VALUES (NULL)`);
    expect(await rows(oldBuild, `SELECT owner, count(*)::int AS n FROM task GROUP BY owner ORDER BY owner`)).toEqual([
      { owner: "ann", n: 1500 }, { owner: "nobody", n: 1501 },
    ]);
    const validated = await ns.admin(`SELECT convalidated FROM pg_constraint WHERE conname = 'svc_nn_task_owner'`);
    expect(validated).toEqual([{ convalidated: true }]);
    await migrate([v1], "b1");
    await migrate([v2], "b2", "contract");
    const [col] = await ns.admin(`SELECT is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'task' AND column_name = 'owner'`, [ns.name]);
    expect(col).toEqual({ is_nullable: "NO" });
    expect(await ns.admin(`SELECT conname FROM pg_constraint WHERE conname = 'svc_nn_task_owner'`)).toEqual([]);
    await drop();
  });

  test("a dropped column and a dropped table: the new build writes without them; only contract drops the data", async () => {
    const v1 = [pgTable([{ name: "legacy", type: "text" }]), pgTable([{ name: "note", type: "text" }], undefined, [], "audit_old")];
    const v2 = [pgTable([], { dropColumns: ["legacy"] })];
    await migrate(v1, "b1");
    await ns.admin(`INSERT INTO task (legacy) VALUES ('keep me')`);
    await ns.admin(`INSERT INTO audit_old (note) VALUES ('old')`);
    await migrate(v2, "b2", "expand", ["audit_old"]);
    const newBuild = client();
    await newBuild.unsafe(`INSERT INTO task DEFAULT VALUES`);
    expect(await rows(newBuild, `SELECT legacy FROM task ORDER BY id`)).toEqual([{ legacy: "keep me" }, { legacy: null }]);
    expect(await rows(newBuild, `SELECT note FROM audit_old`)).toEqual([{ note: "old" }]);
    await migrate(v1, "b1");
    const contracted = await migrate(v2, "b2", "contract", ["audit_old"]);
    expect(contracted.applied.map((a) => a.change).sort()).toEqual(["drop resource audit_old", "task drop legacy"]);
    expect(await ns.admin(`SELECT to_regclass($1) AS t`, [`"${ns.name}".audit_old`])).toEqual([{ t: null }]);
    expect(await ns.admin(`SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'task'`, [ns.name])).toEqual([{ column_name: "id" }]);
    await drop();
  });

  test("a unique index over repeated values is refused before anything runs; without them it is built online", async () => {
    const v1 = pgTable([{ name: "title", type: "text" }]);
    const unique = `CREATE UNIQUE INDEX IF NOT EXISTS "task_title" ON "task" ("title")`;
    const v2 = pgTable([{ name: "title", type: "text" }], { columns: [], dropColumns: [] }, [unique]);
    await migrate([v1], "b1");
    await ns.admin(`INSERT INTO task (title) VALUES ('a'), ('a'), ('a'), ('b')`);
    await expect(migrate([v2], "b2")).rejects.toThrow(/task index task_title: the table repeats values the unique index forbids, e\.g\. title="a" \(3 rows\)/);
    expect(await ns.admin(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = 'task_title'`, [ns.name])).toEqual([]);
    await ns.admin(`DELETE FROM task WHERE title = 'a' AND id > 1`);
    await migrate([v2], "b2");
    const [index] = await ns.admin(`SELECT i.indisvalid, i.indisunique FROM pg_index i WHERE i.indexrelid = to_regclass($1)`, [`"${ns.name}".task_title`]);
    expect(index).toEqual({ indisvalid: true, indisunique: true });
    await drop();
  });

  test("a step failing mid-apply leaves what ran; a re-run resumes and finishes", async () => {
    const v1 = pgTable([{ name: "estimate", type: "text", nullable: true }]);
    const v2 = pgTable([{ name: "estimate", type: "bigint", nullable: true }], { columns: [retypeEstimate] });
    await migrate([v1], "b1");
    await ns.admin(`INSERT INTO task (estimate) VALUES ('1'), ('two'), ('3')`);
    // 'two' does not convert: the backfill batch fails after the shadow column and trigger were made.
    await expect(migrate([v2], "b2")).rejects.toThrow(/task\.estimate changed from text: copy estimate into estimate__svc_new .* failed: invalid input syntax for type bigint/);
    expect(await ns.admin(`SELECT count(*)::int AS n FROM svc_migrations`)).toEqual([{ n: 0 }]);
    await ns.admin(`UPDATE task SET estimate = '2' WHERE estimate = 'two'`);
    const resumed = await migrate([v2], "b2");
    expect(resumed.applied.map((a) => a.change)).toEqual(["task.estimate changed from text"]);
    expect(await rows(client(resumed.viewSchema), `SELECT estimate FROM task ORDER BY id`)).toEqual([1, 2, 3].map((n) => ({ estimate: String(n) })));
    await drop();
  });

  test("two applies at once: one runs the steps, the other finds them done", async () => {
    const v1 = pgTable([{ name: "title", type: "text" }]);
    const v2 = pgTable([{ name: "headline", type: "text" }], { columns: [renameHeadline] });
    await migrate([v1], "b1");
    await ns.admin(`INSERT INTO task (title) SELECT 'row ' || g FROM generate_series(1, 5000) g`);
    const both = await Promise.all([migrate([v2], "b2"), migrate([v2], "b2")]);
    expect(both.map((r) => r.applied.length).sort()).toEqual([0, 1]);
    expect(both.flatMap((r) => r.applied.map((a) => a.rows))).toEqual([5000]);
    expect(await ns.admin(`SELECT count(*)::int AS n FROM svc_migrations`)).toEqual([{ n: 1 }]);
    expect(await ns.admin(`SELECT count(*)::int AS n FROM task WHERE headline IS DISTINCT FROM title`)).toEqual([{ n: 0 }]);
    await drop();
  });

  test("a step that cannot get its table's lock gives way to the servers' statements, then tries again", async () => {
    const v1 = pgTable([{ name: "title", type: "text" }]);
    const v2 = pgTable([{ name: "headline", type: "text" }], { columns: [renameHeadline] });
    await migrate([v1], "b1");
    await ns.admin(`INSERT INTO task (title) VALUES ('a')`);
    // A long transaction reading the table holds a lock ADD COLUMN must wait for.
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = client().begin(async (tx) => {
      await tx.unsafe(`LOCK TABLE task IN ACCESS SHARE MODE`);
      locked();
      await released;
    });
    await isLocked;
    const migrating = migrate([v2], "b2");
    await new Promise((resolve) => setTimeout(resolve, 2500));
    // Reads and writes of the table go through while the migration waits (it does not hold its place in the lock queue).
    const other = client();
    await other.unsafe(`INSERT INTO task (title) VALUES ('b')`);
    expect(await rows(other, `SELECT count(*)::int AS n FROM task`)).toEqual([{ n: 2 }]);
    release();
    await holding;
    expect((await migrating).applied.map((a) => [a.change, a.rows])).toEqual([["task.headline renamed from title", 2]]);
    await drop();
  });
});
