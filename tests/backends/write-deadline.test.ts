// A 503 at the write timeout means nothing was written (issue 15, part 4): an action's
// transaction still running when its request's deadline is near is rolled back, never
// committed after its client was told 503 (PostgreSQL and MySQL); on PostgreSQL a single
// statement still running then is cancelled on the server.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { openMysql } from "../../runtime/db/mysql/index.js";
import { commitMarginMs } from "../../runtime/db/net/deadline.js";
import { openPostgres } from "../../runtime/db/postgres/index.js";
import { HttpError } from "../../runtime/core/errors.js";
import type { Database, StatementSpec } from "../../runtime/contract/index.js";
import { type Namespace, backendAvailable, createNamespace, openSession } from "./support/databases.js";

const DEADLINE_MS = 800;
/**
 * The cancel test's deadline: long enough that the commit margin (commitMarginMs, at most
 * 250 ms) stands between svc's cancel and the session's statement_timeout even on a loaded
 * machine, whose timers run late; at 800 ms the margin is 80 ms, and the server's own timeout
 * could win the race.
 */
const CANCEL_DEADLINE_MS = 2500;

const insert: StatementSpec = {
  name: "item.insert",
  sql: {
    postgres: { text: "INSERT INTO item (id) VALUES ($1)", slots: [0] },
    mysql: { text: "INSERT INTO item (id) VALUES (?)", slots: [0] },
  },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const failure = (work: Promise<unknown>): Promise<unknown> =>
  work.then(
    () => null,
    (e: unknown) => e,
  );

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend}: work past its request's deadline`, () => {
    let ns: Namespace;
    let db: Database;

    beforeAll(async () => {
      ns = await createNamespace(backend, "write_deadline");
      await ns.admin(`CREATE TABLE item (id ${backend === "postgres" ? "text" : "VARCHAR(64)"} PRIMARY KEY)`);
      db = (backend === "postgres" ? openPostgres : openMysql)(ns.url, { requestTimeoutMs: DEADLINE_MS });
      await db.migrate([]);
      await db.prepare([insert]);
    });

    afterAll(async () => {
      await db?.close();
      await ns?.drop();
    });

    const stored = async (id: string) =>
      (await ns.admin(`SELECT id FROM item WHERE id = ${backend === "postgres" ? "$1" : "?"}`, [id])).length;

    test("a transaction whose work ends past the deadline is rolled back and answered 503", async () => {
      const err = await failure(
        db.transaction(async (tx) => {
          await tx.run(insert, ["late"]);
          // The action's work outlasts the request (a lock waited for, say).
          await sleep(DEADLINE_MS);
          return "done";
        }),
      );
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(503);
      expect(await stored("late")).toBe(0);
    });

    test("a transaction whose work ends within the deadline, less the commit margin, commits", async () => {
      expect(DEADLINE_MS - commitMarginMs(DEADLINE_MS)).toBeGreaterThan(DEADLINE_MS / 2);
      const done = await db.transaction(async (tx) => {
        await tx.run(insert, ["in time"]);
        return "done";
      });
      expect(done).toBe("done");
      expect(await stored("in time")).toBe(1);
    });

    // PostgreSQL only: MySQL runs a statement outside a transaction on a pooled connection
    // svc does not cancel, so there is no such promise to test there.
    if (backend === "postgres") test(
      "a statement outside a transaction still running at its deadline is cancelled before the write timeout",
      async () => {
        const patient = openPostgres(ns.url, { requestTimeoutMs: CANCEL_DEADLINE_MS });
        const session = await openSession(ns);
        let err: unknown;
        try {
          await patient.migrate([]);
          await patient.prepare([insert]);
          await session.run("BEGIN");
          await session.run("LOCK TABLE item IN ACCESS EXCLUSIVE MODE");
          err = await failure(patient.run(insert, ["blocked"]));
        } finally {
          await session.run("ROLLBACK");
          await session.close();
          await patient.close();
        }
        expect(err).toBeInstanceOf(HttpError);
        expect((err as HttpError).status).toBe(503);
        // Cancelled by svc at its deadline, before the session's statement_timeout (the
        // write timeout, counted from when the server got it) would have stopped it.
        expect(String(((err as HttpError).cause as Error).message)).toMatch(/user request/);
        expect(await stored("blocked")).toBe(0);
      },
    );
  });
}
