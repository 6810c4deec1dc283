// Idempotency keys on PostgreSQL and MySQL/MariaDB (and SQLite, for the same checks): two
// server processes on one database, a retry through either answers the first result;
// concurrent calls with one key write exactly one row; a call that arrives while the first
// with its key is still in its transaction waits for it and replays its answer.

import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { type Answer, call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, type Session, backendAvailable, createNamespace, openSession, waitFor } from "./support/databases.js";

const available = {
  sqlite: true,
  postgres: await backendAvailable("postgres"),
  mysql: await backendAvailable("mysql"),
};

const ENV = { IDEM_TOKENS: "admin-token admin\n" };

let dir: string;
const servers: TestServer[] = [];
const namespaces: Namespace[] = [];

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "tests", "http", "projects", "idem") }, "idem-");
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const ns of namespaces) await ns.drop();
  removeDir(dir);
});

interface Setup {
  db: string;
  backend: "sqlite" | "postgres" | "mysql";
  /** Rows of a read in the database the servers use. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  session: Session | null;
}

async function setUp(backend: Setup["backend"], label: string): Promise<Setup> {
  if (backend === "sqlite") {
    const db = join(dir, `${label}-${Date.now()}.db`);
    return {
      db,
      backend,
      session: null,
      query: async (sql) => {
        const conn = new Database(db, { readonly: true });
        try {
          return conn.prepare(sql).all() as Record<string, unknown>[];
        } finally {
          conn.close();
        }
      },
    };
  }
  const ns = await createNamespace(backend, label);
  namespaces.push(ns);
  const session = await openSession(ns);
  return { db: ns.url, backend, session, query: (sql) => session.run(sql) };
}

async function serve(s: Setup): Promise<TestServer> {
  const server = await startServer(dir, ["--backend", s.backend, "--db", s.db], ENV);
  servers.push(server);
  return server;
}

function add(server: TestServer, key: string, text: string): Promise<Answer> {
  return call(`${server.url}/api/idem:add`, { json: { text }, headers: { "idempotency-key": key } });
}

async function count(s: Setup, sql: string): Promise<number> {
  return Number(Object.values((await s.query(sql))[0])[0]);
}

const BACKENDS = ["sqlite", "postgres", "mysql"] as const;

describe("two servers on one database", () => {
  for (const backend of BACKENDS) {
    (available[backend] ? test : test.skip)(`${backend}: a retry through either server replays, once`, async () => {
      const s = await setUp(backend, "idem2");
      try {
        const [a, b] = [await serve(s), await serve(s)];
        const first = await add(a, "k-two", "two");
        expect(first.status).toBe(200);
        const again = await add(b, "k-two", "two");
        expect(again.status).toBe(200);
        expect(again.headers["idempotent-replayed"]).toBe("true");
        expect(again.text).toBe(first.text);
        // An anonymous caller's key is bound to the whole request: another request runs as its own call.
        const other = await add(b, "k-two", "other");
        expect([other.status, other.headers["idempotent-replayed"]]).toEqual([200, undefined]);

        // Concurrent calls with one key, half through each server: one runs, all get its answer.
        for (let round = 0; round < 3; round++) {
          const keysBefore = await count(s, "SELECT count(*) AS n FROM svc_idempotency_keys");
          const answers = await Promise.all(
            Array.from({ length: 12 }, (_, i) => add(i % 2 === 0 ? a : b, `k-race-${round}`, `race-${round}`)),
          );
          expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
          expect(new Set(answers.map((r) => r.text)).size).toBe(1);
          expect(answers.filter((r) => r.headers["idempotent-replayed"] === "true")).toHaveLength(11);
          expect(await count(s, `SELECT count(*) AS n FROM note WHERE text = 'race-${round}'`)).toBe(1);
          expect(await count(s, "SELECT count(*) AS n FROM svc_idempotency_keys")).toBe(keysBefore + 1);
        }

        // A `fail` keeps nothing, whichever server runs it.
        const keysBefore = await count(s, "SELECT count(*) AS n FROM svc_idempotency_keys");
        const failed = await call(`${a.url}/api/idem:add_then_fail`, { json: { text: "failed" }, headers: { "idempotency-key": "k-fail" } });
        expect(failed.status).toBe(409);
        expect(await count(s, "SELECT count(*) AS n FROM svc_idempotency_keys")).toBe(keysBefore);
        // No row holds a key in clear.
        expect(await count(s, "SELECT count(*) AS n FROM svc_idempotency_keys WHERE idempotency_key <> ''")).toBe(0);

        // A restarted server still knows the key.
        await a.stop();
        const restarted = await serve(s);
        const replayed = await add(restarted, "k-two", "two");
        expect(replayed.headers["idempotent-replayed"]).toBe("true");
        expect(replayed.text).toBe(first.text);
        expect(await count(s, "SELECT count(*) AS n FROM note WHERE text = 'two'")).toBe(1);
      } finally {
        await s.session?.close();
      }
    });
  }
});

describe("a call while the first with its key is still in its transaction", () => {
  for (const backend of ["postgres", "mysql"] as const) {
    (available[backend] ? test : test.skip)(`${backend}: waits for it, then replays its answer`, async () => {
      const s = await setUp(backend, "idemwait");
      const session = s.session!;
      // A second session to hold the lock: `s.session` keeps counting waiters meanwhile.
      const holder = await openSession(namespaces[namespaces.length - 1]);
      try {
        const [a, b] = [await serve(s), await serve(s)];
        expect((await add(a, "k-warm", "warm")).status).toBe(200);
        const keysBefore = await count(s, "SELECT count(*) AS n FROM svc_idempotency_keys");
        const waiting =
          backend === "postgres"
            ? "SELECT count(*) AS n FROM pg_locks WHERE NOT granted"
            : "SELECT count(*) AS n FROM information_schema.processlist WHERE state LIKE 'Waiting for%lock%' OR state = 'update'";
        const waiters = async (n: number) =>
          waitFor(`${n} waiting statements`, async () => ((await count(s, waiting)) >= n ? true : null), 15_000);
        // Hold the note table: the first call claims its key, then waits to insert its note.
        if (backend === "postgres") {
          await holder.run("BEGIN");
          await holder.run("LOCK TABLE note IN EXCLUSIVE MODE");
        } else {
          await holder.run("LOCK TABLES note WRITE");
        }
        const first = add(a, "k-wait", "wait");
        await waiters(1);
        // The second, through the other server, now waits at its claim of the same key.
        const second = add(b, "k-wait", "wait");
        await waiters(2);
        await holder.run(backend === "postgres" ? "COMMIT" : "UNLOCK TABLES");
        const [r1, r2] = await Promise.all([first, second]);
        expect([r1.status, r2.status]).toEqual([200, 200]);
        expect(r1.headers["idempotent-replayed"]).toBeUndefined();
        expect(r2.headers["idempotent-replayed"]).toBe("true");
        expect(r2.text).toBe(r1.text);
        expect(await count(s, "SELECT count(*) AS n FROM note WHERE text = 'wait'")).toBe(1);
        expect(await count(s, "SELECT count(*) AS n FROM svc_idempotency_keys")).toBe(keysBefore + 1);
      } finally {
        await holder.close();
        await session.close();
      }
    });
  }
});
