// A retype in place on MariaDB through real servers (docs/migrations.md, MySQL/MariaDB): a
// server of the new build expands at start, then its pool uses the build's view database as
// its connections' default database, reading and writing ints through the views while the
// old build's servers keep the table's text. Both serve under load; then `svc migrate
// complete` runs while the new build keeps serving: its servers meet the swapped column (and
// then the dropped view database), move to the app database and run the statement again.

import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import mysql from "mysql2";
import { MysqlPool, queryConstant } from "../../runtime/db/mysql/conn.js";
import { call } from "../support/http.js";
import { type TestServer, removeDir, startServer, tmpDir } from "../support/server.js";
import { buildModule, outDir } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const CLIENTS = 3;
/** Requests each client sends while both builds serve. */
const ROUNDS = 60;

const module = (field: string, arg: string) =>
  `module est\n\nresource job {\n  id: id\n  ${field}\n}\n\naction create(e: ${arg}) {\n  return insert job { estimate: e }\n}\n\n` +
  // A transaction (an update and its read): met by contract, it runs again whole on the app database.
  `action bump(id: text, e: ${arg}) {\n  let j = update job(id) { estimate: e }\n  if j == null { fail 404 "no such job" }\n  return j\n}\n\n` +
  `query one(id: text) {\n  SELECT id, estimate FROM job WHERE id = @id\n}\n\nquery all() {\n  SELECT id, estimate FROM job ORDER BY id\n}\n`;

interface Written {
  id: string;
  value: number;
  by: "old" | "new";
}

const ok = await backendAvailable("mysql");
(ok ? describe : describe.skip)("mysql: a retype in place, old and new servers side by side", () => {
  let src: string;
  let oldDir: string;
  let newDir: string;
  let ns: Namespace;
  const namespaces: Namespace[] = [];
  const servers: TestServer[] = [];
  const viewDatabases = async (of = ns) =>
    (await of.admin(`SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ? ORDER BY 1`, [`${of.name}\\_svc\\_%`])).map((r) => String(r.name));
  const complete = (db: string) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      // Asynchronously, so the clients' requests go on in this process meanwhile.
      execFile(process.execPath, [join(outDir, "compiler", "cli", "svc.js"), "migrate", "complete", "--db", db, "--module", join(src, "new")], { encoding: "utf8", timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ status: err === null ? 0 : ((err as { code?: number }).code ?? 1), stdout, stderr }),
      );
    });

  beforeAll(async () => {
    src = tmpDir("evolve-retype-mysql-src-");
    oldDir = await buildModule(src, "old", module("estimate: text", "text"), "evolve-retype-mysql-old-");
    newDir = await buildModule(src, "new", module("estimate: int changed from text using (CAST(estimate AS INTEGER)) lossy", "int"), "evolve-retype-mysql-new-");
    ns = await createNamespace("mysql", "retypemysql");
    namespaces.push(ns);
  });

  afterAll(async () => {
    for (const s of servers) await s.stop();
    for (const n of namespaces) await n.drop();
    for (const d of [oldDir, newDir, src]) if (d) removeDir(d);
  });

  test("both builds create and read every row in their own type; complete while the new build serves fails nothing", async () => {
    const url = new URL(ns.url);
    url.searchParams.set("pool_size", "3");
    const db = url.toString();
    const start = (dir: string) => startServer(dir, ["--db", db, "--workers", "1"]).then((s) => (servers.push(s), s));
    const old = await start(oldDir);
    const written: Written[] = [];
    const failed: string[] = [];
    const wrong: string[] = [];
    const first = await call(`${old.url}/api/est:create`, { json: { e: "3" } });
    expect(first.status).toBe(200);
    written.push({ id: first.json.data.id, value: 3, by: "old" });

    const news = [await start(newDir), await start(newDir)];
    // The new build reads the old build's row as an int: only its view shows the shadow column under the field's name.
    const seen = await call(`${news[0]!.url}/api/est:one?id=${first.json.data.id}`);
    expect(seen.json.data).toEqual([{ id: first.json.data.id, estimate: 3 }]);
    // …and its connections have the view database as their default database; the old build's the app database.
    const [views] = await viewDatabases();
    expect(views).toBeDefined();
    const using = async (database: string) => Number((await ns.admin(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ?`, [database]))[0]?.n);
    expect(await using(views!)).toBeGreaterThan(0);
    expect(await viewDatabases()).toEqual([views]);

    const as = (by: "old" | "new", value: number) => (by === "old" ? String(value) : value);
    const create = async (server: TestServer, by: "old" | "new", value: number) => {
      const a = await call(`${server.url}/api/est:create`, { json: { e: as(by, value) } });
      if (a.status !== 200) failed.push(`${by} create ${a.status} ${a.text}`);
      else if (a.json.data?.estimate !== as(by, value)) wrong.push(`${by} create ${value}: ${a.text}`);
      else written.push({ id: a.json.data.id, value, by });
    };
    const read = async (server: TestServer, by: "old" | "new", row: Written) => {
      const a = await call(`${server.url}/api/est:one?id=${row.id}`);
      if (a.status !== 200) failed.push(`${by} one ${a.status} ${a.text}`);
      else if (a.json.data?.[0]?.estimate !== as(by, row.value)) wrong.push(`${by} one ${row.id}: ${a.text}, written ${row.value} by ${row.by}`);
    };
    // Sets a row's estimate to the value it has: a write through the view that changes no reader's answer.
    const bump = async (server: TestServer, row: Written) => {
      const a = await call(`${server.url}/api/est:bump`, { json: { id: row.id, e: row.value } });
      if (a.status !== 200) failed.push(`new bump ${a.status} ${a.text}`);
      else if (a.json.data?.estimate !== row.value) wrong.push(`new bump ${row.id}: ${a.text}, written ${row.value}`);
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
    const client = async (by: "old" | "new", servers: () => TestServer[], c: number, rounds: number) => {
      for (let i = 0; i < rounds; i++) {
        if (i % 2 === 0) await create(pick(servers()), by, 1000 * c + i + (by === "new" ? 500 : 0));
        else await read(pick(servers()), by, pick(written));
      }
    };
    await Promise.all([
      ...Array.from({ length: CLIENTS }, (_, c) => client("old", () => [old], c + 1, ROUNDS)),
      ...Array.from({ length: CLIENTS }, (_, c) => client("new", () => news, c + 1, ROUNDS)),
    ]);
    for (const row of written) {
      await read(old, "old", row);
      await read(pick(news), "new", row);
    }
    expect(failed).toEqual([]);
    expect(wrong).toEqual([]);
    expect(written.filter((r) => r.by === "new").length).toBeGreaterThan(0);
    expect(written.filter((r) => r.by === "old").length).toBeGreaterThan(1);

    expect(await old.stop()).toBe(0);
    // The new build's clients go on while complete swaps the column in and drops the view database.
    let contracted = false;
    let duringComplete = 0;
    const during = async (c: number) => {
      let i = 0;
      const one = (k: number) =>
        k % 3 === 0 ? create(pick(news), "new", 100_000 + 10_000 * c + k) : k % 3 === 1 ? read(pick(news), "new", pick(written)) : bump(pick(news), pick(written));
      for (; !contracted; duringComplete++) await one(i++);
      // A few more once it is done: the views are gone by now.
      for (let j = 0; j < 6; j++) await one(i++);
    };
    const load = Array.from({ length: CLIENTS }, (_, c) => during(c));
    const completed = await complete(db);
    contracted = true;
    await Promise.all(load);
    console.log(`evolve retype mysql: ${written.length} rows, ${duringComplete} requests of the new build while complete ran, ${failed.length} failed`);
    expect(duringComplete).toBeGreaterThan(0);
    // What the servers logged of a failed request, to read when one did.
    if (failed.length > 0) console.log(news.flatMap((s) => s.output.filter((l) => !l.includes('"level":"info"'))).join("\n"));
    expect(completed.stderr).toBe("");
    expect(completed.stdout).toContain("svc migrate complete: job.estimate changed from text: contract");
    expect(completed.status).toBe(0);
    expect(failed).toEqual([]);
    expect(wrong).toEqual([]);
    for (const row of written) await read(pick(news), "new", row);
    expect(failed).toEqual([]);
    expect(wrong).toEqual([]);
    expect(await viewDatabases()).toEqual([]);
    const columns = await ns.admin(
      "SELECT COLUMN_NAME AS name, DATA_TYPE AS type FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'job' ORDER BY ORDINAL_POSITION",
      [ns.name],
    );
    expect(columns.map((r) => `${String(r.name)} ${String(r.type)}`)).toEqual(["id varchar", "estimate bigint"]);

    // A server of the new build started after contract has nothing left to view: it reads the table.
    for (const s of news) expect(await s.stop()).toBe(0);
    const again = await start(newDir);
    const all = await call(`${again.url}/api/est:all`);
    expect(all.status).toBe(200);
    const byId = new Map(written.map((r) => [r.id, r.value]));
    expect(all.json.data.length).toBe(byId.size);
    for (const r of all.json.data as { id: string; estimate: unknown }[]) expect(r.estimate).toBe(byId.get(r.id));
    await create(again, "new", 77);
    expect(failed).toEqual([]);
    expect(await viewDatabases()).toEqual([]);
  }, 180_000);

  test("each kind of statement a server meets its view database gone with runs again on the app database: a query, an insert, a transaction", async () => {
    const other = await createNamespace("mysql", "retypemysql2");
    namespaces.push(other);
    // One connection a server: the one that used the view database meets it gone.
    const url = new URL(other.url);
    url.searchParams.set("pool_size", "1");
    const db = url.toString();
    const start = (dir: string) => startServer(dir, ["--db", db, "--workers", "1"]).then((s) => (servers.push(s), s));
    const old = await start(oldDir);
    const made = await call(`${old.url}/api/est:create`, { json: { e: "12" } });
    expect(made.status).toBe(200);
    const id = made.json.data.id as string;
    // The plan names the views expand makes: of the retyped table and of svc's own history table.
    const plan = await new Promise<string>((resolve) =>
      execFile(process.execPath, [join(outDir, "compiler", "cli", "svc.js"), "migrate", "plan", "--db", db, "--module", join(src, "new")], { encoding: "utf8", timeout: 60_000 }, (_err, stdout, stderr) => resolve(stdout + stderr)),
    );
    expect(plan).toMatch(/job view of build \w+/);
    expect(plan).toMatch(/svc_migrations view of build \w+/);
    expect(plan).toContain("`estimate__svc_new` AS `estimate`");
    const [reader, inserter, bumper] = [await start(newDir), await start(newDir), await start(newDir)];
    for (const s of [reader, inserter, bumper]) expect((await call(`${s.url}/api/est:one?id=${id}`)).json.data).toEqual([{ id, estimate: 12 }]);
    expect(await old.stop()).toBe(0);
    const completed = await complete(db);
    expect(completed.stderr).toBe("");
    expect(completed.status).toBe(0);
    expect(await viewDatabases(other)).toEqual([]);

    expect((await call(`${reader.url}/api/est:one?id=${id}`)).json.data).toEqual([{ id, estimate: 12 }]);
    const inserted = await call(`${inserter.url}/api/est:create`, { json: { e: 13 } });
    expect(inserted.status).toBe(200);
    expect(inserted.json.data.estimate).toBe(13);
    const bumped = await call(`${bumper.url}/api/est:bump`, { json: { id, e: 14 } });
    expect(bumped.status).toBe(200);
    expect(bumped.json.data).toEqual({ id, estimate: 14 });
    // Each on the app database from now on.
    for (const s of [reader, inserter, bumper]) {
      const all = await call(`${s.url}/api/est:all`);
      expect(all.json.data).toEqual([{ id, estimate: 14 }, { id: inserted.json.data.id, estimate: 13 }].sort((a, b) => (a.id < b.id ? -1 : 1)));
    }
    expect(Number((await other.admin(`SELECT COUNT(*) AS n FROM svc_migrations WHERE phase = 'contract'`))[0]?.n)).toBe(1);
  }, 120_000);

  test("two retypes in place of one table: complete swaps them in one ALTER while the new build serves, failing nothing", async () => {
    const two = (estimate: string, hours: string, arg: string) =>
      `module est\n\nresource job {\n  id: id\n  ${estimate}\n  ${hours}\n}\n\naction create(e: ${arg}, h: ${arg}) {\n  return insert job { estimate: e, hours: h }\n}\n\n` +
      `query one(id: text) {\n  SELECT id, estimate, hours FROM job WHERE id = @id\n}\n`;
    const retyped = (f: string) => `${f}: int changed from text using (CAST(${f} AS INTEGER)) lossy`;
    const old2 = await buildModule(src, "old2", two("estimate: text", "hours: text?", "text"), "evolve-retype-mysql-old2-");
    const new2 = await buildModule(src, "new2", two(retyped("estimate"), retyped("hours").replace(": int", ": int?"), "int"), "evolve-retype-mysql-new2-");
    const third = await createNamespace("mysql", "retypemysql3");
    namespaces.push(third);
    try {
      const url = new URL(third.url);
      url.searchParams.set("pool_size", "3");
      const db = url.toString();
      const start = (dir: string) => startServer(dir, ["--db", db, "--workers", "1"]).then((s) => (servers.push(s), s));
      const old = await start(old2);
      const rows: { id: string; e: number; h: number }[] = [];
      const failed: string[] = [];
      const made = await call(`${old.url}/api/est:create`, { json: { e: "1", h: "2" } });
      expect(made.status).toBe(200);
      rows.push({ id: made.json.data.id, e: 1, h: 2 });
      const news = [await start(new2), await start(new2)];
      expect(await old.stop()).toBe(0);
      let done = false;
      const client = async (c: number) => {
        for (let i = 0; !done || i % 10 !== 0; i++) {
          const server = news[i % 2]!;
          if (i % 2 === 0) {
            const a = await call(`${server.url}/api/est:create`, { json: { e: c * 100_000 + i, h: i } });
            if (a.status !== 200) failed.push(`create ${a.status} ${a.text}`);
            else rows.push({ id: a.json.data.id, e: c * 100_000 + i, h: i });
          } else {
            const row = rows[Math.floor(Math.random() * rows.length)]!;
            const a = await call(`${server.url}/api/est:one?id=${row.id}`);
            if (a.status !== 200) failed.push(`one ${a.status} ${a.text}`);
            else if (a.json.data?.[0]?.estimate !== row.e || a.json.data?.[0]?.hours !== row.h) failed.push(`one ${row.id}: ${a.text}`);
          }
        }
      };
      const load = [0, 1, 2].map(client);
      const completed = await new Promise<{ stdout: string; stderr: string; err: unknown }>((resolve) =>
        execFile(process.execPath, [join(outDir, "compiler", "cli", "svc.js"), "migrate", "complete", "--db", db, "--module", join(src, "new2")], { encoding: "utf8", timeout: 60_000 }, (err, stdout, stderr) => resolve({ stdout, stderr, err })),
      );
      done = true;
      await Promise.all(load);
      expect(completed.stderr).toBe("");
      expect(completed.err).toBeNull();
      expect(completed.stdout).toContain("job.hours changed from text: contract");
      if (failed.length > 0) console.log(news.flatMap((s) => s.output.filter((l) => !l.includes('"level":"info"'))).join("\n"));
      expect(failed).toEqual([]);
      const columns = await third.admin("SELECT COLUMN_NAME AS name, DATA_TYPE AS type FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'job' ORDER BY ORDINAL_POSITION", [third.name]);
      expect(columns.map((r) => `${String(r.name)} ${String(r.type)}`)).toEqual(["id varchar", "estimate bigint", "hours bigint"]);
      expect(await viewDatabases(third)).toEqual([]);
    } finally {
      for (const d of [old2, new2]) removeDir(d);
    }
  }, 120_000);

  test("the pool: connections use the view database once told, those set up before are replaced; one opened after it went asks whether to go on without it", async () => {
    const views = `${ns.name}_svc_pooltest`;
    await ns.admin(`CREATE DATABASE \`${views}\``);
    const pool = new MysqlPool(mysql.createPool({ uri: ns.url, connectionLimit: 1 }), { poolSize: 1, acquireTimeoutMs: 5000, queueLimit: 10, requestTimeoutMs: 5000 });
    const database = async () => {
      const conn = await pool.acquire();
      try {
        return (await queryConstant<{ db: string }[]>(conn, "SELECT DATABASE() AS db"))[0]!.db;
      } finally {
        pool.release(conn, false);
      }
    };
    try {
      expect(await database()).toBe(ns.name);
      const asked: string[] = [];
      pool.useDatabase(views, async () => (asked.push("go on?"), true));
      expect(await database()).toBe(views);
      expect(asked).toEqual([]);
      // A database that is not there (as the view database once contract dropped it): the new connection asks, and, told so, goes on without it.
      await ns.admin(`DROP DATABASE \`${views}\``);
      pool.useDatabase(`${views}_gone`, async () => (asked.push("go on?"), true));
      expect(await database()).toBe(ns.name);
      expect(asked).toEqual(["go on?"]);
      // Told not to, it fails as the database does.
      pool.useDatabase(`${views}_gone2`, async () => false);
      await expect(database()).rejects.toThrow(/Unknown database/);
    } finally {
      await pool.end();
    }
  }, 60_000);
});
