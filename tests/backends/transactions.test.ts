// Transactions chosen per action, and unique races (issue 31 part 3b, docs/language.md §2.3
// Transactions, §2.1): on SQLite, PostgreSQL and MariaDB, real servers and real concurrency.
// - Two sign-ups of one name at once both pass the app's check; the unique index refuses the
//   second, and `unique (username) fail 422 "…"` makes that the app's own answer, in the
//   app's [errors] shape on routes that respond and in the envelope elsewhere: exactly one
//   2xx, never a 409 or a 5xx.
// - `transaction none` commits statement by statement (a fail after a write keeps it), and
//   `transaction read committed` runs in one transaction (a fail undoes it); TechEmpower's
//   updates, many at once, all succeed either way.

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
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "tests", "backends", "projects", "txmodes") }, "tx-");
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const ns of namespaces) await ns.drop();
  removeDir(dir);
});

async function serve(backend: "sqlite" | "postgres" | "mysql", label: string): Promise<string> {
  let db: string;
  if (backend === "sqlite") db = join(dir, `${label}-${Date.now()}.db`);
  else {
    const ns = await createNamespace(backend, label);
    namespaces.push(ns);
    db = ns.url;
  }
  // Two workers: racing calls come from two processes as well as from one pool.
  const server = await startServer(dir, ["--backend", backend, "--db", db, "--workers", "2"]);
  servers.push(server);
  return server.url;
}

const RACERS = 16;

for (const backend of ["sqlite", "postgres", "mysql"] as const) {
  describe(`${backend}`, () => {
    let url: string;
    beforeAll(async () => {
      if (available[backend]) url = await serve(backend, "txmodes");
    });
    const it = available[backend] ? test : test.skip;

    it.each([
      ["/users", "read committed, the app's check first"],
      ["/users/serial", "serializable, the app's check first"],
      ["/users/blind", "no check: the index alone"],
    ])("%s (%s): one of 16 sign-ups of one name wins, the rest get the app's 422 in its shape", async (path) => {
      for (let round = 0; round < 2; round++) {
        const username = `name-${path.replaceAll("/", "")}-${round}`;
        const answers = await Promise.all(
          Array.from({ length: RACERS }, () => call(`${url}${path}`, { json: { username } })),
        );
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses).toEqual([201, ...Array(RACERS - 1).fill(422)]);
        for (const a of answers.filter((x) => x.status === 422)) {
          expect(a.json).toEqual({ errors: { body: ["username has already been taken"] } });
        }
        const count = await call(`${url}/api/bank:count_members?username=${username}`);
        expect(count.json.data).toEqual({ n: 1 });
      }
    });

    it("the envelope endpoint answers the declared status and message too", async () => {
      const answers = await Promise.all(
        Array.from({ length: RACERS }, () => call(`${url}/api/bank:sign_up_blind`, { json: { username: "envelope" } })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 200)) {
        expect([a.status, a.json]).toEqual([422, { ok: false, error: "username has already been taken" }]);
      }
    });

    it("transaction none keeps a write a later fail follows; a transaction undoes it", async () => {
      const w = (await call(`${url}/api/bank:new_world`, { json: { n: 0 } })).json.data;
      const none = await call(`${url}/api/bank:touch_then_fail`, { json: { id: w.id, n: 7 } });
      expect([none.status, none.json]).toEqual([409, { ok: false, error: "after the write" }]);
      const tx = await call(`${url}/api/bank:touch_then_fail_tx`, { json: { id: w.id, n: 8 } });
      expect(tx.status).toBe(409);
      const rows = (await call(`${url}/api/bank:worlds`)).json.data as { id: string; n: number }[];
      expect(rows.find((r) => r.id === w.id)?.n).toBe(7);
    });

    // Without a transaction each row's lock is held for its statement only, so the rows may come
    // in any order; one transaction that writes many rows writes them in key order, as
    // TechEmpower's implementations do, or the transactions deadlock (docs/backends.md).
    it.each([
      ["updates", true],
      ["updates_rc", false],
    ])("%s: 120 calls at once, each reading and writing 10 rows, all succeed", async (action, shuffled) => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push((await call(`${url}/api/bank:new_world`, { json: { n: 0 } })).json.data.id);
      ids.sort();
      const order = () => (shuffled ? [...ids].sort(() => Math.random() - 0.5) : ids);
      const answers = await Promise.all(
        Array.from({ length: 120 }, (_, i) => call(`${url}/api/bank:${action}`, { json: { ids: order(), n: i + 1 } })),
      );
      expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.text])).toEqual([]);
      const rows = (await call(`${url}/api/bank:worlds`)).json.data as { id: string; n: number }[];
      for (const id of ids) expect(rows.find((r) => r.id === id)!.n).toBeGreaterThan(0);
    });
  });
}
