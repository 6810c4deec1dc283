// Two columns of one table retyped in place on PostgreSQL (docs/migrations.md, PostgreSQL): in
// one build, or in two successive builds before the first is contracted. Each build reads and
// writes its table through the view of its own schema, which shows every shadow column it
// needs; each contract drops only what is its own, and a view stays while any retype it shows
// is still expanded. Every step is checked through connections shaped as each build's.

import { afterAll, beforeEach, describe, expect, test } from "../support/jest.js";
import type { Sql } from "postgres";
import type { ColumnChange, SchemaSpec, TableSpec } from "../../runtime/contract/index.js";
import { liveSchema, migratePostgres } from "../../runtime/db/postgres/migrate.js";
import { historyTable } from "../../runtime/migrate/history.js";
import { planChanges, postgresSession, postgresWriter, readHistory, runPhase, withMigrationLock } from "../../runtime/migrate/index.js";
import { type Namespace, backendAvailable, createNamespace, searchPathClient } from "./support/databases.js";
import { pgTable } from "../unit/migrate/tables.js";

const same = (sql: string) => ({ postgres: sql, mysql: sql, sqlite: sql });
const retype = (column: string): ColumnChange => ({
  column,
  retype: {
    from: { postgres: { declared: "text", reported: "text" }, mysql: { declared: "TEXT", reported: "text" }, sqlite: { declared: "TEXT", reported: "TEXT" } },
    up: same(`CAST({${column}} AS BIGINT)`),
    down: same(`CAST({${column}} AS TEXT)`),
    lossy: true,
  },
});
const text = (name: string) => ({ name, type: "text", nullable: true });
const int = (name: string) => ({ name, type: "bigint", nullable: true });
const changed = (...cols: ("a" | "b")[]) => pgTable(["a", "b"].map((c) => (cols.includes(c as "a" | "b") ? int(c) : text(c))), { columns: cols.map(retype) });
const v0 = pgTable([text("a"), text("b")]);

const ok = await backendAvailable("postgres");

(ok ? describe : describe.skip)("postgres: two retypes in place on one table", () => {
  let ns: Namespace;
  const clients: Sql[] = [];
  const client = (path: string | null = null): Sql => {
    const sql = searchPathClient(ns, path);
    clients.push(sql);
    return sql;
  };
  const migrate = (tables: TableSpec[], build: string, phase: "expand" | "contract" = "expand") => {
    const spec: SchemaSpec = { build, dropTables: [] };
    return migratePostgres(client(), [...tables, historyTable], ns.name, spec, { phase });
  };
  /** The contract of one change alone: where a `svc migrate complete` of two stands between them. */
  const contractOne = async (table: TableSpec, build: string, change: string) => {
    const sql = client();
    const { session, release } = await postgresSession(sql, ns.name);
    try {
      await withMigrationLock(session, async () => {
        const history = await readHistory(session);
        const plan = planChanges({ dialect: "postgres", tables: [table], schema: { build, dropTables: [] }, live: await liveSchema(session.query), history, writer: postgresWriter(), dbSchema: ns.name });
        const one = { ...plan, changes: plan.changes.filter((c) => c.change === change) };
        expect(one.changes.map((c) => c.status)).toEqual(["open"]);
        await runPhase(session, "contract", one, history, build);
      });
    } finally {
      release();
    }
  };
  const rows = async (sql: Sql, q: string) => [...(await sql.unsafe(q))];
  const values = (sql: Sql) => rows(sql, `SELECT a, b FROM task ORDER BY id`);
  const views = async () =>
    (await ns.admin(`SELECT n.nspname AS s FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'v' AND n.nspname LIKE $1 ORDER BY 1`, [`${ns.name}_svc_%`])).map((r) => String(r.s));
  const schemas = async () => (await ns.admin(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1 ORDER BY 1`, [`${ns.name}_svc_%`])).map((r) => String(r.nspname));

  beforeEach(async () => {
    ns = await createNamespace("postgres", "retype2");
    await migrate([v0], "b0");
    await ns.admin(`INSERT INTO task (a, b) VALUES ('1', '2'), (NULL, '4')`);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end({ timeout: 1 })));
  });

  const drop = async () => {
    for (const s of await schemas()) await ns.admin(`DROP SCHEMA "${s}" CASCADE`);
    await ns.drop();
  };

  for (const order of [["a", "b"], ["b", "a"]] as const) {
    test(`one build retypes both: its view shows both; contracting ${order[0]} then ${order[1]} keeps it until the last`, async () => {
      const v2 = changed("a", "b");
      const expanded = await migrate([v2], "b2");
      expect(expanded.applied.map((a) => a.change)).toEqual(["task.a changed from text", "task.b changed from text"]);
      const oldBuild = client();
      const newBuild = client(expanded.viewSchema);
      await oldBuild.unsafe(`INSERT INTO task (a, b) VALUES ('5', '6')`);
      await newBuild.unsafe(`INSERT INTO task (a, b) VALUES (7, 8)`);
      await newBuild.unsafe(`UPDATE task SET b = 40 WHERE id = 2`);
      expect(await values(newBuild)).toEqual([["1", "2"], [null, "40"], ["5", "6"], ["7", "8"]].map(([a, b]) => ({ a, b })));
      expect(await rows(newBuild, `SELECT pg_typeof(a)::text AS a, pg_typeof(b)::text AS b FROM task LIMIT 1`)).toEqual([{ a: "bigint", b: "bigint" }]);
      expect(await values(oldBuild)).toEqual([["1", "2"], [null, "40"], ["5", "6"], ["7", "8"]].map(([a, b]) => ({ a, b })));

      await contractOne(v2, "b2", `task.${order[0]} changed from text`);
      // Between the two contracts the new build still reads and writes both columns as bigint.
      expect(await rows(newBuild, `SELECT pg_typeof(a)::text AS a, pg_typeof(b)::text AS b FROM task LIMIT 1`)).toEqual([{ a: "bigint", b: "bigint" }]);
      await newBuild.unsafe(`INSERT INTO task (a, b) VALUES (9, 10)`);
      await newBuild.unsafe(`UPDATE task SET ${order[1]} = 11 WHERE id = 1`);
      const between = [[order[1] === "a" ? "11" : "1", order[1] === "b" ? "11" : "2"], [null, "40"], ["5", "6"], ["7", "8"], ["9", "10"]];
      expect(await values(newBuild)).toEqual(between.map(([a, b]) => ({ a, b })));
      expect(await views()).toEqual([expanded.viewSchema]);

      await contractOne(v2, "b2", `task.${order[1]} changed from text`);
      expect(await views()).toEqual([]);
      expect(await schemas()).toEqual([]);
      const cols = await ns.admin(`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'task' ORDER BY ordinal_position`, [ns.name]);
      expect(cols.map((c) => `${String(c.column_name)} ${String(c.data_type)}`)).toEqual(["id bigint", "a bigint", "b bigint"]);
      expect(await values(newBuild)).toEqual(between.map(([a, b]) => ({ a, b })));
      await drop();
    });
  }

  test("successive builds, the first contracted first: each build reads and writes its types at every step", async () => {
    const v1 = changed("a");
    const v2 = changed("a", "b");
    const e1 = await migrate([v1], "b1");
    const e2 = await migrate([v2], "b2");
    expect(e2.applied.map((a) => a.change)).toEqual(["task.b changed from text"]);
    const [c0, c1, c2] = [client(), client(e1.viewSchema), client(e2.viewSchema)];
    await c0.unsafe(`INSERT INTO task (a, b) VALUES ('5', '6')`);
    await c1.unsafe(`INSERT INTO task (a, b) VALUES (7, '8')`);
    await c2.unsafe(`INSERT INTO task (a, b) VALUES (9, 10)`);
    const all = [["1", "2"], [null, "4"], ["5", "6"], ["7", "8"], ["9", "10"]].map(([a, b]) => ({ a, b }));
    for (const c of [c0, c1, c2]) expect(await values(c)).toEqual(all);
    const types = (c: Sql) => rows(c, `SELECT pg_typeof(a)::text AS a, pg_typeof(b)::text AS b FROM task LIMIT 1`);
    expect(await types(c1)).toEqual([{ a: "bigint", b: "text" }]);
    expect(await types(c2)).toEqual([{ a: "bigint", b: "bigint" }]);

    // The old build b0 is gone: b1 completes its own change; b1 and b2 go on serving.
    await migrate([v1], "b1", "contract");
    expect(await types(c1)).toEqual([{ a: "bigint", b: "text" }]);
    expect(await types(c2)).toEqual([{ a: "bigint", b: "bigint" }]);
    await c1.unsafe(`INSERT INTO task (a, b) VALUES (11, '12')`);
    await c2.unsafe(`UPDATE task SET b = 13 WHERE id = 1`);
    await c1.unsafe(`UPDATE task SET b = '14' WHERE id = 2`);
    const next = [["1", "13"], [null, "14"], ["5", "6"], ["7", "8"], ["9", "10"], ["11", "12"]].map(([a, b]) => ({ a, b }));
    expect(await values(c1)).toEqual(next);
    expect(await values(c2)).toEqual(next);
    expect(await schemas()).toEqual([e2.viewSchema]);

    await migrate([v2], "b2", "contract");
    expect(await schemas()).toEqual([]);
    expect(await types(c2)).toEqual([{ a: "bigint", b: "bigint" }]);
    expect(await values(c2)).toEqual(next);
    await drop();
  });

  test("successive builds completed at once by the second: the first build's view goes with the column it showed", async () => {
    const v1 = changed("a");
    const v2 = changed("a", "b");
    await migrate([v1], "b1");
    const e2 = await migrate([v2], "b2");
    const c2 = client(e2.viewSchema);
    await c2.unsafe(`INSERT INTO task (a, b) VALUES (9, 10)`);
    const contracted = await migrate([v2], "b2", "contract");
    expect(contracted.applied.map((a) => a.change)).toEqual(["task.a changed from text", "task.b changed from text"]);
    expect(await schemas()).toEqual([]);
    expect(await values(c2)).toEqual([["1", "2"], [null, "4"], ["9", "10"]].map(([a, b]) => ({ a, b })));
    await drop();
  });

  test("a later build declaring an open retype again gets a view of its own", async () => {
    const v1 = changed("a");
    const v2 = pgTable([int("a"), text("b"), text("c")], { columns: [retype("a")] });
    await migrate([v1], "b1");
    const e2 = await migrate([v2], "b2");
    expect(e2.viewSchema).not.toBeNull();
    const c2 = client(e2.viewSchema);
    await c2.unsafe(`INSERT INTO task (a, b, c) VALUES (9, '10', 'x')`);
    expect(await rows(c2, `SELECT pg_typeof(a)::text AS a, a AS v FROM task ORDER BY id`)).toEqual([
      { a: "bigint", v: "1" }, { a: "bigint", v: null }, { a: "bigint", v: "9" },
    ]);
    await drop();
  });
});
