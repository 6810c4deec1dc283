// A pool that queues a burst rather than failing it (issue 31 part 3b, docs/backends.md
// "Connection settings", "What a 503 promises"), and the isolation an action's transaction
// asks for, on PostgreSQL and MariaDB:
// - hundreds of requests at once on a pool of two connections all succeed: they wait, in
//   order, for as long as their deadline allows;
// - past `queue_limit` waiting requests, one more is answered 503 with Retry-After at once,
//   and writes nothing; those in the queue still succeed once a connection frees up;
// - `transaction read committed` / `repeatable read` reach the database as such.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { openMysql } from "../../runtime/db/mysql/index.js";
import { openPostgres } from "../../runtime/db/postgres/index.js";
import type { Database, Isolation, StatementSpec } from "../../runtime/contract/index.js";
import { type Answer, call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace, openSession, waitFor } from "./support/databases.js";

const available = {
  postgres: await backendAvailable("postgres"),
  mysql: await backendAvailable("mysql"),
};

let dir: string;
const servers: TestServer[] = [];
const namespaces: Namespace[] = [];
const databases: Database[] = [];

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "tests", "backends", "projects", "txmodes") }, "pool-");
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const d of databases) await d.close();
  for (const ns of namespaces) await ns.drop();
  removeDir(dir);
});

async function namespace(backend: "postgres" | "mysql", label: string): Promise<Namespace> {
  const ns = await createNamespace(backend, label);
  namespaces.push(ns);
  return ns;
}

/** `--db` with svc's own pool settings added to the namespace's URL. */
function withParams(url: string, params: string): string {
  return url + (url.includes("?") ? "&" : "?") + params;
}

async function serve(backend: "postgres" | "mysql", db: string): Promise<string> {
  const server = await startServer(dir, ["--backend", backend, "--db", db, "--workers", "1"]);
  servers.push(server);
  return server.url;
}

const worldCount = async (ns: Namespace) => Number((await ns.admin("SELECT count(*) AS n FROM world"))[0]!.n);

for (const backend of ["postgres", "mysql"] as const) {
  const it = available[backend] ? test : test.skip;

  describe(`${backend}: a burst on a pool of two`, () => {
    it("400 single statements and 150 transactions at once: every one succeeds, every write is there", async () => {
      const ns = await namespace(backend, "burst");
      const url = await serve(backend, withParams(ns.url, "pool_size=2"));
      const inserts = await Promise.all(
        Array.from({ length: 400 }, (_, i) => call(`${url}/api/bank:new_world`, { json: { n: i } })),
      );
      expect(inserts.filter((a) => a.status !== 200).map((a) => [a.status, a.text])).toEqual([]);
      expect(await worldCount(ns)).toBe(400);
      const ids = inserts.slice(0, 5).map((a) => a.json.data.id as string).sort();
      const updates = await Promise.all(
        Array.from({ length: 150 }, (_, i) => call(`${url}/api/bank:updates_rc`, { json: { ids, n: i + 1 } })),
      );
      expect(updates.filter((a) => a.status !== 200).map((a) => [a.status, a.text])).toEqual([]);
    });
  });

  describe(`${backend}: past queue_limit`, () => {
    it("one connection, three may wait: of 20 at once 4 succeed, 16 are 503 with Retry-After, and wrote nothing", async () => {
      const ns = await namespace(backend, "qlimit");
      const url = await serve(backend, withParams(ns.url, "pool_size=1&queue_limit=3"));
      // Hold the table, so that the first insert holds the one connection and the next ones wait.
      const session = await openSession(ns);
      if (backend === "postgres") {
        await session.run("BEGIN");
        await session.run("LOCK TABLE world IN ACCESS EXCLUSIVE MODE");
      } else await session.run("LOCK TABLES world WRITE");
      const settled: Answer[] = [];
      const calls = Array.from({ length: 20 }, (_, i) =>
        call(`${url}/api/bank:new_world`, { json: { n: i } }).then((a) => (settled.push(a), a)),
      );
      // The refused ones are answered while the table is still held: they waited for nothing.
      await waitFor("16 refusals", async () => (settled.length >= 16 ? true : null), 30_000);
      expect(settled.map((a) => a.status)).toEqual(Array(16).fill(503));
      for (const a of settled) {
        expect(a.json).toEqual({ ok: false, error: "database busy" });
        expect(a.headers["retry-after"]).toBe("1");
      }
      if (backend === "postgres") await session.run("ROLLBACK");
      else await session.run("UNLOCK TABLES");
      await session.close();
      const answers = await Promise.all(calls);
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(4).fill(200), ...Array(16).fill(503)]);
      expect(await worldCount(ns)).toBe(4);
    });
  });

  describe(`${backend}: the isolation an action asks for`, () => {
    // Inside the transaction: read x, let another session add 1 to it (waiting for a lock at most
    // a second), read x again. SERIALIZABLE on MariaDB locks what it read, so the other session
    // cannot write; REPEATABLE READ keeps its snapshot; READ COMMITTED sees the new value.
    // PostgreSQL takes no read locks: its setting is read back instead.
    it.each<[Isolation | undefined, string]>([
      [undefined, "SERIALIZABLE"],
      ["serializable", "SERIALIZABLE"],
      ["repeatable read", "REPEATABLE READ"],
      ["read committed", "READ COMMITTED"],
    ])("%s is the transaction's isolation", async (isolation, expected) => {
      const ns = await namespace(backend, "iso");
      // One connection: the transaction after this one runs on it too.
      const url = withParams(ns.url, "pool_size=1");
      const db = backend === "postgres" ? openPostgres(url) : openMysql(url);
      databases.push(db);
      await db.migrate([]);
      await ns.admin(backend === "postgres" ? "CREATE TABLE probe (x int)" : "CREATE TABLE probe (x int) ENGINE=InnoDB");
      await ns.admin("INSERT INTO probe (x) VALUES (1)");
      const read: StatementSpec = { name: "read", sql: { [backend]: { text: "SELECT x FROM probe", slots: [] } } };
      const level: StatementSpec = {
        name: "level",
        sql: { postgres: { text: "SELECT upper(current_setting('transaction_isolation')) AS level", slots: [] } },
      };
      await db.prepare(backend === "postgres" ? [read, level] : [read]);
      const other = await openSession(ns);
      if (backend === "mysql") await other.run("SET SESSION innodb_lock_wait_timeout = 1");
      const run = (iso: Isolation | undefined) =>
        db.transaction(
          async (tx) => {
            const a = (await tx.one(read, []))!.x as number;
            const wrote = await other.run("UPDATE probe SET x = x + 1").then(
              () => true,
              (err: { errno?: number }) => {
                if (err.errno === 1205) return false; // lock wait timeout
                throw err;
              },
            );
            const b = (await tx.one(read, []))!.x as number;
            const setting = backend === "postgres" ? ((await tx.one(level, []))!.level as string) : null;
            return { wrote, sawTheWrite: b !== a, setting };
          },
          iso === undefined ? undefined : { isolation: iso },
        );
      const seen = await run(isolation);
      // SET TRANSACTION lasts one transaction: the next one is serializable again.
      const next = await run(undefined);
      await other.close();
      if (backend === "postgres") {
        expect(seen).toEqual({ wrote: true, sawTheWrite: expected === "READ COMMITTED", setting: expected });
        expect(next).toEqual({ wrote: true, sawTheWrite: false, setting: "SERIALIZABLE" });
        return;
      }
      expect(seen).toEqual({
        wrote: expected !== "SERIALIZABLE",
        sawTheWrite: expected === "READ COMMITTED",
        setting: null,
      });
      expect(next).toEqual({ wrote: false, sawTheWrite: false, setting: null });
    });
  });
}
