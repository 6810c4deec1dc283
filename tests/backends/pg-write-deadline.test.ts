// A 503 at the write timeout means nothing was written (issue 15, part 4): an action's
// transaction still running when its request's deadline is near is rolled back, never
// committed after its client was told 503.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { commitMarginMs, openPostgres } from "../../runtime/db/postgres.js";
import { HttpError } from "../../runtime/errors.js";
import type { Database, StatementSpec } from "../../runtime/types.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const DEADLINE_MS = 800;

const insert: StatementSpec = {
  name: "item.insert",
  sql: { postgres: { text: "INSERT INTO item (id) VALUES ($1)", slots: [0] } },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ok = await backendAvailable("postgres");
(ok ? describe : describe.skip)("postgres: a transaction past its request's deadline", () => {
  let ns: Namespace;
  let db: Database;

  beforeAll(async () => {
    ns = await createNamespace("postgres", "write_deadline");
    await ns.admin("CREATE TABLE item (id text PRIMARY KEY)");
    db = openPostgres(ns.url, { requestTimeoutMs: DEADLINE_MS });
    await db.migrate([]);
    await db.prepare([insert]);
  });

  afterAll(async () => {
    await db?.close();
    await ns?.drop();
  });

  const stored = async (id: string) => (await ns.admin("SELECT id FROM item WHERE id = $1", [id])).length;

  test("work that ends past the deadline is rolled back and answered 503", async () => {
    const err = await db
      .transaction(async (tx) => {
        await tx.run(insert, ["late"]);
        // The action's work outlasts the request (a lock waited for, say).
        await sleep(DEADLINE_MS);
        return "done";
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(503);
    expect(await stored("late")).toBe(0);
  });

  test("work that ends within the deadline, less the commit margin, commits", async () => {
    const spare = DEADLINE_MS - commitMarginMs(DEADLINE_MS);
    expect(spare).toBeGreaterThan(DEADLINE_MS / 2);
    expect(
      await db.transaction(async (tx) => {
        await tx.run(insert, ["in time"]);
        return "done";
      }),
    ).toBe("done");
    expect(await stored("in time")).toBe(1);
  });
});
