// Concurrent actions on one row (issue 5, part 5): an action reads, decides, then writes,
// and on every backend the outcome is the one some serial order gives. Ten start_task
// calls race for one open task: exactly one starts it, the nine others are told it is no
// longer open, and none sees a 5xx. On PostgreSQL and MySQL/MariaDB the losers' first
// attempts fail to serialize (40001) or deadlock (1213) and are retried from the start.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const available = {
  sqlite: true,
  postgres: await backendAvailable("postgres"),
  mysql: await backendAvailable("mysql"),
};

let dir: string;
const servers: TestServer[] = [];
const namespaces: Namespace[] = [];

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "examples", "task_tracker") });
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const ns of namespaces) await ns.drop();
  removeDir(dir);
});

const CASES = [
  { name: "sqlite", server: "sqlite", backend: "sqlite" },
  { name: "postgres", server: "postgres", backend: "postgres" },
  { name: "mysql", server: "mysql", backend: "mysql" },
  { name: "tidb (on the MySQL-protocol server)", server: "mysql", backend: "tidb" },
] as const;

describe("ten start_task calls race for one task", () => {
  for (const c of CASES) {
    (available[c.server] ? test : test.skip)(`${c.name}: one starts it, nine are refused, none fails`, async () => {
      let db: string;
      if (c.server === "sqlite") db = join(dir, `race-${Date.now()}.db`);
      else {
        const ns = await createNamespace(c.server, "race");
        namespaces.push(ns);
        db = ns.url;
      }
      // Two workers: the racing transactions come from two processes as well as from one pool.
      const server = await startServer(dir, ["--backend", c.backend, "--db", db, "--workers", "2"]);
      servers.push(server);
      const api = `${server.url}/api/task_tracker`;
      for (let round = 0; round < 3; round++) {
        const t = (await call(`${api}:create_task`, { json: { title: `race ${round}` } })).json.data;
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            call(`${api}:start_task`, { json: { id: t.id, assignee: `worker ${i}` } }),
          ),
        );
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
        const winner = answers.find((a) => a.status === 200)!;
        for (const loser of answers.filter((a) => a.status === 400)) {
          expect(loser.json).toEqual({ ok: false, error: "only an open task can be started" });
        }
        const now = (await call(`${api}:get_task?id=${t.id}`)).json.data;
        expect(now).toEqual(winner.json.data);
        expect(now.status).toBe("in_progress");
      }
    });
  }
});
