// The postgres and mysql adapters used directly (runtime/contract/server.ts `Database`), on the
// real servers: binding by slots, values as JSON wants them, errors as answers, retries
// only for what may be retried, transactions that roll back, start-up failures that say
// what failed.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { openMysql } from "../../runtime/db/mysql/index.js";
import { BindError } from "../../runtime/db/net/args.js";
import { openPostgres } from "../../runtime/db/postgres/index.js";
import { HttpError, StartupError } from "../../runtime/core/errors.js";
import type { Database, Dialect, StatementSpec, TableSpec } from "../../runtime/contract/index.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

type Net = "postgres" | "mysql";

function open(backend: Net, url: string, requestTimeoutMs?: number): Database {
  return backend === "postgres" ? openPostgres(url, { requestTimeoutMs }) : openMysql(url, { requestTimeoutMs });
}

/** A statement with this backend's SQL only; `$1`-style for postgres, `?` for mysql. */
function stmt(backend: Net, name: string, text: string, slots: number[]): StatementSpec {
  const dialect: Dialect = backend;
  return { name, sql: { [dialect]: { text, slots } } };
}

function retryable(backend: Net): Error {
  return backend === "postgres"
    ? Object.assign(new Error("could not serialize access due to concurrent update"), {
        name: "PostgresError",
        code: "40001",
      })
    : Object.assign(new Error("Deadlock found when trying to get lock"), { errno: 1213, code: "ER_LOCK_DEADLOCK" });
}

const NO_TABLES: TableSpec[] = [];

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend} adapter`, () => {
    let ns: Namespace;
    let db: Database;
    const p = (i: number) => (backend === "postgres" ? `$${i}` : "?");

    beforeAll(async () => {
      ns = await createNamespace(backend, "adapter");
      const ddl =
        backend === "postgres"
          ? [
              `CREATE TABLE parent (id text PRIMARY KEY)`,
              `CREATE TABLE child (id text PRIMARY KEY, parent_id text NOT NULL REFERENCES parent (id), label text)`,
            ]
          : [
              `CREATE TABLE parent (id VARCHAR(64) PRIMARY KEY) ENGINE=InnoDB`,
              `CREATE TABLE child (id VARCHAR(64) PRIMARY KEY, parent_id VARCHAR(64) NOT NULL, label TEXT, FOREIGN KEY (parent_id) REFERENCES parent (id)) ENGINE=InnoDB`,
            ];
      for (const sql of ddl) await ns.admin(sql);
      db = open(backend, ns.url);
      await db.migrate(NO_TABLES);
    });

    afterAll(async () => {
      await db?.close();
      await ns?.drop();
    });

    test("binds by slots: a name used twice is bound twice, from one argument", async () => {
      const s =
        backend === "postgres"
          ? stmt(backend, "t.twice", "SELECT $1::text AS a, $1::text || $2::text AS b", [0, 1])
          : stmt(backend, "t.twice", "SELECT ? AS a, CONCAT(?, ?) AS b", [0, 0, 1]);
      await db.prepare([s]);
      expect(await db.one(s, ["x", "y"])).toEqual({ a: "x", b: "xy" });
    });

    test("numbers, booleans, timestamps and JSON come back as JSON wants them", async () => {
      const s =
        backend === "postgres"
          ? stmt(
              backend,
              "t.values",
              "SELECT 9007199254740991::bigint AS big, count(*) AS n, 1.5::numeric AS dec, 0.1::float8 AS f, TRUE AS yes, '2024-05-01 12:00:00.123456+02'::timestamptz AS at, '{\"a\": [1]}'::jsonb AS doc",
              [],
            )
          : stmt(
              backend,
              "t.values",
              "SELECT 9007199254740991 AS big, COUNT(*) AS n, CAST(1.5 AS DECIMAL(4,1)) AS `dec`, CAST(0.1 AS DOUBLE) AS f, TRUE AS yes, CAST('2024-05-01 10:00:00.123456' AS DATETIME(6)) AS at, '{\"a\": [1]}' AS doc",
              [],
            );
      await db.prepare([s]);
      expect(await db.one(s, [])).toEqual({
        big: 9007199254740991,
        n: 1,
        dec: 1.5,
        f: 0.1,
        yes: backend === "postgres" ? true : 1,
        at: "2024-05-01T10:00:00.123Z",
        doc: '{"a": [1]}',
      });
    });

    test("an object or an array never reaches the database", async () => {
      const s = stmt(backend, "t.echo", `SELECT ${p(1)} AS v`, [0]);
      await db.prepare([s]);
      await expect(db.one(s, [{ $gt: "" }])).rejects.toThrow(BindError);
      await expect(db.one(s, [["a"]])).rejects.toThrow(/argument 0 is an array/);
      await expect(db.one(s, [Number.NaN])).rejects.toThrow(/NaN/);
      await expect(db.one(s, [])).rejects.toThrow(/argument 0 is missing/);
    });

    test("a foreign key is a 409, a missing value a 400 naming the field", async () => {
      const insert = stmt(
        backend,
        "t.child",
        `INSERT INTO child (id, parent_id, label) VALUES (${p(1)}, ${p(2)}, ${p(3)})`,
        [0, 1, 2],
      );
      await db.prepare([insert]);
      const fk = await db.run(insert, ["c1", "nobody", null]).catch((e: unknown) => e);
      expect(fk).toBeInstanceOf(HttpError);
      expect(fk).toMatchObject({ status: 409, message: expect.stringMatching(/^foreign key constraint failed/) });
      const nul = await db.run(insert, ["c2", null, null]).catch((e: unknown) => e);
      // MySQL does not say which table; for a table svc did not declare, the column alone names the field.
      expect(nul).toMatchObject({
        status: 400,
        message: backend === "postgres" ? "child.parent_id is required" : "parent_id is required",
      });
    });

    if (backend === "postgres") {
      test("text PostgreSQL cannot store (a NUL) is a 400, not a 500", async () => {
        await ns.admin(`INSERT INTO parent (id) VALUES ('p0') ON CONFLICT DO NOTHING`);
        const insert = stmt(
          backend,
          "t.nul",
          `INSERT INTO child (id, parent_id, label) VALUES ($1, $2, $3)`,
          [0, 1, 2],
        );
        await db.prepare([insert]);
        await expect(db.run(insert, ["c3", "p0", "a\u0000b"])).rejects.toMatchObject({ status: 400 });
      });
    }

    test("a transaction commits when its body resolves and rolls back when it throws", async () => {
      const insert = stmt(backend, "t.parent", `INSERT INTO parent (id) VALUES (${p(1)})`, [0]);
      const count = stmt(backend, "t.count", `SELECT COUNT(*) AS n FROM parent WHERE id = ${p(1)}`, [0]);
      await db.prepare([insert, count]);
      await db.transaction(async (tx) => tx.run(insert, ["kept"]));
      await expect(
        db.transaction(async (tx) => {
          await tx.run(insert, ["dropped"]);
          throw new HttpError(400, "changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      expect(await db.one(count, ["kept"])).toEqual({ n: 1 });
      expect(await db.one(count, ["dropped"])).toEqual({ n: 0 });
    });

    test("a serialization failure or deadlock is retried; any other error is not", async () => {
      let attempts = 0;
      const value = await db.transaction(async () => {
        attempts++;
        if (attempts < 3) throw retryable(backend);
        return "done";
      });
      expect([value, attempts]).toEqual(["done", 3]);

      const insert = stmt(backend, "t.parent2", `INSERT INTO parent (id) VALUES (${p(1)})`, [0]);
      await db.prepare([insert]);
      let tries = 0;
      const dup = await db
        .transaction(async (tx) => {
          tries++;
          await tx.run(insert, ["kept"]);
        })
        .catch((e: unknown) => e);
      expect(dup).toMatchObject({
        status: 409,
        message: backend === "postgres" ? "parent.id already exists" : "a row with the same primary key already exists",
      });
      expect(tries).toBe(1);
    });

    test("retries stop at the request deadline with a 503", async () => {
      const short = open(backend, ns.url, 300);
      try {
        await short.migrate(NO_TABLES);
        // The transaction connection opens on first use: opened here, so the deadline below is
        // spent on retries, not on a connect that a busy machine can make slow (then the 503 is
        // the deadline's, with another message).
        await short.transaction(async () => undefined);
        const started = Date.now();
        let attempts = 0;
        const err = await short
          .transaction(async () => {
            attempts++;
            throw retryable(backend);
          })
          .catch((e: unknown) => e);
        expect(err).toMatchObject({ status: 503, message: "database busy: too many conflicting writes, try again" });
        expect(attempts).toBeGreaterThan(1);
        expect(Date.now() - started).toBeLessThan(1500);
      } finally {
        await short.close();
      }
    });

    test("a statement the database refuses, or one built without this dialect, is a start-up error naming it", async () => {
      await expect(db.prepare([stmt(backend, "t.broken", "SELECT nope FROM nowhere", [])])).rejects.toThrow(
        /statement t\.broken does not prepare/,
      );
      const other: StatementSpec = { name: "t.sqlite_only", sql: { sqlite: { text: "SELECT 1", slots: [] } } };
      await expect(db.prepare([other])).rejects.toThrow(StartupError);
      await expect(db.prepare([other])).rejects.toThrow(`statement t.sqlite_only has no ${backend} SQL`);
    });

    test("a database that cannot be reached at start is a start-up error that says where, without the password", async () => {
      const url =
        backend === "postgres"
          ? "postgres://app:s3cret@127.0.0.1:1/app?connect_timeout_ms=500"
          : "mysql://app:s3cret@127.0.0.1:1/app?connect_timeout_ms=500";
      const unreachable = open(backend, url);
      try {
        const err = await unreachable.migrate(NO_TABLES).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StartupError);
        expect((err as Error).message).toMatch(new RegExp(`cannot connect to ${backend} 127\\.0\\.0\\.1:1/app`));
        expect((err as Error).message).not.toContain("s3cret");
      } finally {
        await unreachable.close();
      }
    });
  });
}
