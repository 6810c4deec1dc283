// The connection pool's series on GET /metrics (docs/operations.md, Metrics: svc_db_pool_*),
// scraped from a PostgreSQL and a MySQL server while concurrent requests hold and wait for its
// connections, and again once they are done: in use, idle and waiting as the pool had them,
// and one acquire time per statement that got a connection.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { type Answer, call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import {
  type Namespace,
  backendAvailable,
  createNamespace,
  openSession,
  waitFor,
} from "./support/databases.js";

const available = {
  postgres: await backendAvailable("postgres"),
  mysql: await backendAvailable("mysql"),
};

let dir: string;
const namespaces: Namespace[] = [];
const servers: TestServer[] = [];

beforeAll(async () => {
  dir = await buildServer(
    {
      mode: "project",
      dir: join(repoRoot, "tests", "backends", "projects", "txmodes"),
    },
    "poolm-",
  );
});

afterAll(async () => {
  for (const server of servers) expect(await server.stop()).toBe(0);
  for (const ns of namespaces) await ns.drop();
  removeDir(dir);
});

/** `name{labels}` → value of each sample of the Prometheus text format. */
async function scrape(url: string): Promise<Map<string, number>> {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  const out = new Map<string, number>();
  for (const line of (await res.text()).split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

/** PostgreSQL has a pool for statements and one for transactions, MySQL one for both. */
const POOLS = { postgres: ["statements", "transactions"], mysql: ["shared"] };

for (const backend of ["postgres", "mysql"] as const) {
  const it = available[backend] ? test : test.skip;
  /** The sample of `name` summed over the backend's pools, each of which must have it. */
  const pools = (s: Map<string, number>, name: string, extra = ""): number =>
    POOLS[backend].reduce((sum, pool) => {
      const value = s.get(`${name}{pool="${pool}"${extra}}`);
      expect(value).toBeDefined();
      return sum + value!;
    }, 0);
  const size = 2 * POOLS[backend].length;

  describe(`${backend}: pool gauges under concurrent requests`, () => {
    it("while 10 inserts wait on a locked table: 2 in use, 8 waiting; after: 0 in use, all idle, 10 acquisitions", async () => {
      const ns = await createNamespace(backend, "poolm");
      namespaces.push(ns);
      const db = `${ns.url}${ns.url.includes("?") ? "&" : "?"}pool_size=2`;
      const server = await startServer(dir, [
        "--backend",
        backend,
        "--db",
        db,
        "--workers",
        "1",
        "--metrics",
      ]);
      servers.push(server);
      const url = server.url;

      const idle = await scrape(url);
      expect(pools(idle, "svc_db_pool_connections_in_use")).toBe(0);
      expect(pools(idle, "svc_db_pool_connections_idle")).toBe(size);
      expect(pools(idle, "svc_db_pool_waiting")).toBe(0);
      const before = pools(idle, "svc_db_pool_acquire_duration_seconds_count");

      // The table held by another session: the first two inserts hold the two connections of
      // their pool, and the other eight wait for one.
      const session = await openSession(ns);
      if (backend === "postgres") {
        await session.run("BEGIN");
        await session.run("LOCK TABLE world IN ACCESS EXCLUSIVE MODE");
      } else await session.run("LOCK TABLES world WRITE");
      const calls: Promise<Answer>[] = Array.from({ length: 10 }, (_, i) =>
        call(`${url}/api/bank:new_world`, { json: { n: i } }),
      );
      // Awaited below; until then a call that fails (the test failing first, its server stopped)
      // must not be an unhandled rejection, which would end the worker thread, not this test.
      for (const c of calls) c.catch(() => undefined);
      try {
        // Both connections in use and eight calls waiting: on a loaded machine the second
        // connection may still be opening when the eighth call queues, so the two are awaited
        // together.
        const busy = await waitFor("2 in use, 8 waiting", async () => {
          const s = await scrape(url);
          return pools(s, "svc_db_pool_waiting") === 8 && pools(s, "svc_db_pool_connections_in_use") === 2 ? s : null;
        });
        expect(pools(busy, "svc_db_pool_connections_idle")).toBe(size - 2);
      } finally {
        // Released whatever happened above, or the server's graceful stop would wait on the lock.
        await session.run(backend === "postgres" ? "ROLLBACK" : "UNLOCK TABLES");
        await session.close();
      }
      expect((await Promise.all(calls)).map((a) => a.status)).toEqual(
        Array(10).fill(200),
      );

      const after = await scrape(url);
      expect(pools(after, "svc_db_pool_connections_in_use")).toBe(0);
      expect(pools(after, "svc_db_pool_connections_idle")).toBe(size);
      expect(pools(after, "svc_db_pool_waiting")).toBe(0);
      expect(
        pools(after, "svc_db_pool_acquire_duration_seconds_count") - before,
      ).toBe(10);
      expect(
        pools(
          after,
          "svc_db_pool_acquire_duration_seconds_bucket",
          ',le="+Inf"',
        ) - before,
      ).toBe(10);
      // Eight of them waited for the lock to go: their time is in the sum.
      expect(
        pools(after, "svc_db_pool_acquire_duration_seconds_sum"),
      ).toBeGreaterThan(0);
    });
  });
}
