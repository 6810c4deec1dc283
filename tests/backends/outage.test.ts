// When the database goes away under a running server (issue 5, parts 1 and 5): a
// connection killed mid-request is a 503 and the next request succeeds without a restart;
// a database that cannot be reached is a 503, and /health says 503, until it is back; a
// pool with no free connection answers 503 within acquire_timeout_ms instead of hanging.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import {
  type Namespace,
  SERVER_URLS,
  backendAvailable,
  createNamespace,
  openSession,
  waitFor,
} from "./support/databases.js";
import { TcpProxy } from "./support/proxy.js";

let dir: string;

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "examples", "task_tracker") });
});

afterAll(() => removeDir(dir));

function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend}: outages`, () => {
    let ns: Namespace;
    const servers: TestServer[] = [];

    beforeAll(async () => {
      ns = await createNamespace(backend, "outage");
    });

    afterAll(async () => {
      for (const s of servers) await s.stop();
      await ns?.drop();
    });

    async function serve(db: string): Promise<{ server: TestServer; api: string }> {
      const server = await startServer(dir, ["--db", db, "--workers", "1"]);
      servers.push(server);
      return { server, api: `${server.url}/api/task_tracker` };
    }

    /** The server's connection that waits for the lock the session holds. */
    async function waitingConnection(appName: string): Promise<string> {
      return waitFor("the server's statement to wait for the lock", async () => {
        const rows =
          backend === "postgres"
            ? await ns.admin(
                `SELECT pid::text AS id FROM pg_stat_activity WHERE application_name = '${appName}' AND wait_event_type = 'Lock'`,
              )
            : await ns.admin(
                `SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = '${ns.name}' AND INFO LIKE 'SELECT%' AND STATE LIKE '%lock%'`,
              );
        return rows.length === 1 ? String(rows[0].id) : null;
      });
    }

    test("a connection killed under a request: 503, and the next request succeeds without a restart", async () => {
      const appName = `svc_kill_${process.pid}`;
      const { api } = await serve(withParams(ns.url, backend === "postgres" ? { application_name: appName } : {}));
      const created = await call(`${api}:create_task`, { json: { title: "before the kill" } });
      expect(created.status).toBe(200);

      const session = await openSession(ns);
      try {
        await session.run(backend === "postgres" ? "BEGIN" : "SELECT 1");
        await session.run(
          backend === "postgres" ? "LOCK TABLE task IN ACCESS EXCLUSIVE MODE" : "LOCK TABLES task WRITE",
        );
        const pending = call(`${api}:list_tasks`);
        const id = await waitingConnection(appName);
        await ns.admin(backend === "postgres" ? `SELECT pg_terminate_backend(${Number(id)})` : `KILL ${Number(id)}`);
        const killed = await pending;
        expect(killed.status).toBe(503);
        expect(killed.json).toEqual({ ok: false, error: "database unavailable" });
        expect(killed.headers["retry-after"]).toBe("1");
      } finally {
        await session.run(backend === "postgres" ? "ROLLBACK" : "UNLOCK TABLES");
        await session.close();
      }
      const after = await call(`${api}:list_tasks`);
      expect(after.status).toBe(200);
      expect(after.json.data.map((t: { title: string }) => t.title)).toContain("before the kill");
    });

    test("a database that cannot be reached: 503 and /health 503, then back without a restart", async () => {
      const real = new URL(SERVER_URLS[backend]);
      const proxy = new TcpProxy(real.hostname, Number(real.port || (backend === "postgres" ? 5432 : 3306)));
      const port = await proxy.start();
      const viaProxy = new URL(ns.url);
      viaProxy.port = String(port);
      const { server, api } = await serve(
        withParams(viaProxy.toString(), { connect_timeout_ms: "500", acquire_timeout_ms: "1000" }),
      );
      try {
        expect((await call(`${api}:create_task`, { json: { title: "while up" } })).status).toBe(200);
        await proxy.stop();
        const down = await call(`${api}:list_tasks`);
        expect(down.status).toBe(503);
        expect(down.json.ok).toBe(false);
        const write = await call(`${api}:create_task`, { json: { title: "while down" } });
        expect(write.status).toBe(503);
        const health = await call(`${server.url}/health`);
        expect(health.status).toBe(503);
        expect(health.json.status).toBe("unavailable");

        await proxy.start();
        expect((await call(`${server.url}/health`)).status).toBe(200);
        const back = await call(`${api}:list_tasks`);
        expect(back.status).toBe(200);
        expect(back.json.data.map((t: { title: string }) => t.title)).toContain("while up");
        expect(back.json.data.map((t: { title: string }) => t.title)).not.toContain("while down");
      } finally {
        await proxy.stop();
      }
    });

    test("no free connection within acquire_timeout_ms: 503 database busy, and the held request still completes", async () => {
      const appName = `svc_pool_${process.pid}`;
      const { api } = await serve(
        withParams(ns.url, {
          pool_size: "1",
          acquire_timeout_ms: "300",
          ...(backend === "postgres" ? { application_name: appName } : {}),
        }),
      );
      const t = (await call(`${api}:create_task`, { json: { title: "hold me" } })).json.data;
      const session = await openSession(ns);
      let held: Promise<{ status: number }> | undefined;
      try {
        await session.run(backend === "postgres" ? "BEGIN" : "SELECT 1");
        await session.run(
          backend === "postgres" ? "LOCK TABLE task IN ACCESS EXCLUSIVE MODE" : "LOCK TABLES task WRITE",
        );
        // start_task holds the pool's only connection while it waits for the lock.
        held = call(`${api}:start_task`, { json: { id: t.id, assignee: "ada" } });
        await waitingConnection(appName);
        const started = Date.now();
        // An action's transaction needs a pooled connection on every backend (PostgreSQL
        // keeps statements outside a transaction in a pool of their own).
        const busy = await call(`${api}:complete_task`, { json: { id: t.id } });
        expect(busy.status).toBe(503);
        expect(busy.json).toEqual({ ok: false, error: "database busy" });
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        await session.run(backend === "postgres" ? "ROLLBACK" : "UNLOCK TABLES");
        await session.close();
      }
      expect((await held!).status).toBe(200);
      expect((await call(`${api}:get_task?id=${t.id}`)).json.data.status).toBe("in_progress");
    });
  });
}
