// A column added under a running PostgreSQL server (issue 15, part 1): every statement the
// server prepared before the change keeps answering, each caller gets its own rows, and a
// transaction that meets the stale plan runs again instead of failing.
//
// `SELECT *` prepared on a connection changes its result type when a column is added, and
// PostgreSQL refuses the cached plan (0A000 "cached plan must not change result type").
// postgres.js then prepares the statement again behind the queries already pipelined on
// that connection, so with pipelining the next answers were matched to the wrong queries.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { openPostgres } from "../../runtime/db/postgres/index.js";
import type { Database, StatementSpec } from "../../runtime/contract/index.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const ROWS = 40;
const CALLS = 400;

const byId: StatementSpec = {
  name: "item.by_id",
  sql: { postgres: { text: "SELECT * FROM item WHERE id = $1", slots: [0] } },
};

const ok = await backendAvailable("postgres");
(ok ? describe : describe.skip)("postgres: a column added while statements are prepared", () => {
  let ns: Namespace;
  let db: Database;

  beforeAll(async () => {
    ns = await createNamespace("postgres", "stale_plans");
    await ns.admin("CREATE TABLE item (id text PRIMARY KEY, n integer NOT NULL)");
    await ns.admin(`INSERT INTO item SELECT 'r' || i, i FROM generate_series(0, ${ROWS - 1}) AS i`);
    const url = new URL(ns.url);
    url.searchParams.set("pool_size", "2");
    db = openPostgres(url.toString(), { requestTimeoutMs: 10_000 });
    await db.migrate([]);
    await db.prepare([byId]);
  });

  afterAll(async () => {
    await db?.close();
    await ns?.drop();
  });

  /** Many concurrent lookups, more than the pool has connections: each answer checked against its own key. */
  async function lookups(): Promise<{ wrong: string[]; failed: string[] }> {
    const wrong: string[] = [];
    const failed: string[] = [];
    await Promise.all(
      Array.from({ length: CALLS }, async (_, i) => {
        const id = `r${i % ROWS}`;
        try {
          const row = await db.one(byId, [id]);
          if (row === null || row.id !== id || row.n !== i % ROWS) wrong.push(`${id} -> ${JSON.stringify(row)}`);
        } catch (err) {
          failed.push(`${id}: ${(err as Error).message}`);
        }
      }),
    );
    return { wrong, failed };
  }

  test("concurrent lookups after ADD COLUMN: every answer is the caller's own row, none fails", async () => {
    // Prepares the statement on both connections.
    expect(await lookups()).toEqual({ wrong: [], failed: [] });
    const rounds: { wrong: string[]; failed: string[] }[] = [];
    for (let round = 0; round < 3; round++) {
      await ns.admin(`ALTER TABLE item ADD COLUMN extra_${round} text`);
      rounds.push(await lookups());
    }
    console.log(
      `stale plans: ${3 * CALLS} lookups after 3 column additions, ` +
        `${rounds.reduce((n, r) => n + r.wrong.length, 0)} wrong answers, ` +
        `${rounds.reduce((n, r) => n + r.failed.length, 0)} failures`,
    );
    for (const r of rounds) expect(r).toEqual({ wrong: [], failed: [] });
  });

  test("a transaction that meets a stale plan runs again and succeeds", async () => {
    // Both connections have the statement prepared with the current columns.
    await Promise.all([0, 1, 2, 3].map(() => db.transaction((tx) => tx.one(byId, ["r1"]))));
    await ns.admin("ALTER TABLE item ADD COLUMN later text");
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        db.transaction((tx) => tx.one(byId, [`r${i}`])).then(
          (row) => row?.id,
          (err: Error) => `failed: ${err.message}`,
        ),
      ),
    );
    expect(answers).toEqual(["r0", "r1", "r2", "r3"]);
  });
});
