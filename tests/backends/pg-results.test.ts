// A PostgreSQL result that no statement completed is never an answer (issue 15, part 2):
// an INSERT … RETURNING whose result lacks PostgreSQL's CommandComplete reads as a lost
// connection (503), not as a success with no row. The driver is replaced by one that
// resolves what it is told to, since the real one does this only when a connection is cut
// at the wrong moment.

import { describe, expect, test } from "../support/jest.js";
import type { Sql } from "postgres";
import { PostgresDatabase } from "../../runtime/db/postgres/index.js";
import { parseNetUrl } from "../../runtime/db/net/url.js";
import { HttpError } from "../../runtime/core/errors.js";
import type { StatementSpec } from "../../runtime/contract/index.js";

const insert: StatementSpec = {
  name: "item.insert",
  sql: { postgres: { text: 'INSERT INTO item ("id") VALUES ($1) RETURNING "id"', slots: [0] } },
};

/** A driver whose every query resolves `rows` carrying `command`, as postgres.js's Result does; `resolved` keeps each. */
function driver(rows: Record<string, unknown>[], command: string | null, resolved: unknown[][] = []): Sql {
  const query = () => {
    const result = Object.assign([...rows], { command, count: rows.length });
    resolved.push(result);
    return Object.assign(Promise.resolve(result), { describe: async () => ({}), state: {}, cancel: () => undefined });
  };
  return { unsafe: query, end: async () => undefined } as unknown as Sql;
}

const pool = (sql: Sql) => ({ lanes: [sql], open: () => sql, live: new Set([sql]), client: () => sql, closed: () => undefined });

async function open(rows: Record<string, unknown>[], command: string | null, resolved?: unknown[][]): Promise<PostgresDatabase> {
  const sql = driver(rows, command, resolved);
  const db = new PostgresDatabase(pool(sql), pool(sql), parseNetUrl("postgres://u@127.0.0.1/db", "postgres", 1000));
  await db.prepare([insert]);
  return db;
}

describe("postgres: results a statement did not complete", () => {
  test("an empty result without CommandComplete is a 503, never a null row", async () => {
    const db = await open([], null);
    const err = await db.one(insert, ["a"]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(503);
    expect((err as HttpError).message).toBe("database unavailable");
    await expect(db.run(insert, ["a"])).rejects.toThrow("database unavailable");
  });

  test("rows without CommandComplete are refused too", async () => {
    const db = await open([{ id: "someone else's" }], null);
    await expect(db.all(insert, ["a"])).rejects.toThrow("database unavailable");
  });

  test("a completed statement answers as it is, an empty result included (ON CONFLICT DO NOTHING)", async () => {
    expect(await (await open([{ id: "a" }], "INSERT")).one(insert, ["a"])).toEqual({ id: "a" });
    expect(await (await open([], "INSERT")).one(insert, ["a"])).toBeNull();
  });
});

describe("postgres: rows are taken out of the driver's result", () => {
  // The driver's result is held by its query and the promises that awaited it, which a busy
  // server's young-generation collections may have moved to the old generation; left full,
  // it would keep every row alive until a full collection (runtime/db/postgres/rows.ts).
  test("the app gets a plain array of the rows, and the driver's result is left empty", async () => {
    const resolved: unknown[][] = [];
    const db = await open([{ id: "a" }, { id: "b" }], "SELECT 2", resolved);
    const rows = await db.all(insert, ["a"]);
    expect(rows).toEqual([{ id: "a" }, { id: "b" }]);
    expect(Object.getPrototypeOf(rows)).toBe(Array.prototype);
    const result = resolved[resolved.length - 1]!;
    expect(result).not.toBe(rows);
    expect(result).toHaveLength(0);
    expect(await db.one(insert, ["a"])).toEqual({ id: "a" });
    expect(resolved[resolved.length - 1]).toHaveLength(0);
  });
});
