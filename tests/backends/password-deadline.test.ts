// An action that hashes runs again after the hash (runtime/auth/password-work.ts); the run
// that writes keeps the first attempt's deadline. A hash that outlasts the request (a long
// queue of sign-ins, say) must not let the write commit after the client got its 503: it is
// rolled back, and nothing is written (PostgreSQL and MySQL, whose adapters bound work by
// the request's deadline).

import { afterAll, afterEach, beforeAll, describe, expect, test } from "../support/jest.js";
import { passwordTransaction, hashPassword } from "../../runtime/auth/password-work.js";
import { useScryptForTests } from "../../runtime/auth/password.js";
import { openMysql } from "../../runtime/db/mysql/index.js";
import { openPostgres } from "../../runtime/db/postgres/index.js";
import { HttpError } from "../../runtime/core/errors.js";
import type { Database, StatementSpec } from "../../runtime/contract/index.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const DEADLINE_MS = 800;

const insert: StatementSpec = {
  name: "account.insert",
  sql: {
    postgres: { text: "INSERT INTO account (id, password) VALUES ($1, $2)", slots: [0, 1] },
    mysql: { text: "INSERT INTO account (id, password) VALUES (?, ?)", slots: [0, 1] },
  },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend}: a sign-up whose hash outlasts the request`, () => {
    let ns: Namespace;
    let db: Database;

    beforeAll(async () => {
      ns = await createNamespace(backend, "password_deadline");
      await ns.admin(`CREATE TABLE account (id ${backend === "postgres" ? "text" : "VARCHAR(64)"} PRIMARY KEY, password TEXT)`);
      db = (backend === "postgres" ? openPostgres : openMysql)(ns.url, { requestTimeoutMs: DEADLINE_MS });
      await db.migrate([]);
      await db.prepare([insert]);
    });

    afterEach(() => useScryptForTests(null));

    afterAll(async () => {
      await db?.close();
      await ns?.drop();
    });

    const stored = async (id: string) =>
      (await ns.admin(`SELECT id FROM account WHERE id = ${backend === "postgres" ? "$1" : "?"}`, [id])).length;

    const signUp = (id: string) =>
      passwordTransaction(db, async (tx) => {
        await tx.run(insert, [id, await hashPassword("a password", tx)]);
        return id;
      });

    test("the run after the hash is past the first attempt's deadline: rolled back, a 503, nothing written", async () => {
      useScryptForTests((real) => async (...args) => {
        await sleep(DEADLINE_MS);
        return real(...args);
      });
      const err = await signUp("late").then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(503);
      expect(await stored("late")).toBe(0);
    });

    test("a hash well within the deadline: written", async () => {
      useScryptForTests((real) => (password, salt, length, options) => real(password, salt, length, { ...options, N: 2 ** 10 }));
      expect(await signUp("in time")).toBe("in time");
      expect(await stored("in time")).toBe(1);
    });
  });
}
