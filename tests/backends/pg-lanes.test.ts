// The PostgreSQL adapter's pools of one-connection clients (runtime/db/postgres/index.ts),
// with stand-in clients: one whose connection was lost is ended and replaced, start-up work
// that `svc dev` repeats on each rebuild never goes to an ended one, and close ends the
// clients in use, replacements included.

import { describe, expect, test } from "../support/jest.js";
import type { Sql } from "postgres";
import { type Lanes, PostgresDatabase } from "../../runtime/db/postgres/index.js";
import { parseNetUrl } from "../../runtime/db/net/url.js";
import type { StatementSpec } from "../../runtime/contract/index.js";

const select: StatementSpec = { name: "item.one", sql: { postgres: { text: "SELECT 1 AS x", slots: [] } } };

interface Stand {
  sql: Sql;
  id: number;
  ended: boolean;
  /** What its next statement does: answer, or fail as a lost connection does. */
  failNext: boolean;
  described: number;
}

function pool(size: number, made: Stand[]): Lanes {
  const live = new Set<Sql>();
  const client = (): Sql => {
    const stand: Stand = { sql: null as unknown as Sql, id: made.length, ended: false, failNext: false, described: 0 };
    const unsafe = () => {
      if (stand.ended) throw new Error(`client ${stand.id} was ended`);
      const fail = stand.failNext;
      stand.failNext = false;
      const result = fail
        ? Promise.reject(Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }))
        : Promise.resolve(Object.assign([{ x: 1 }], { command: "SELECT", count: 1 }));
      return Object.assign(result, {
        describe: async () => {
          if (stand.ended) throw new Error(`client ${stand.id} was ended`);
          stand.described++;
          return {};
        },
      });
    };
    stand.sql = {
      unsafe,
      end: async () => {
        stand.ended = true;
      },
    } as unknown as Sql;
    made.push(stand);
    return stand.sql;
  };
  const open = (): Sql => {
    const sql = client();
    live.add(sql);
    return sql;
  };
  return { lanes: Array.from({ length: size }, open), open, live, client, closed: () => undefined };
}

describe("postgres: pools of one-connection clients", () => {
  test("a client whose connection was lost is replaced; start-up work and close use the live ones", async () => {
    const made: Stand[] = [];
    const db = new PostgresDatabase(pool(1, made), pool(1, []), parseNetUrl("postgres://u@127.0.0.1/db", "postgres", 1000));
    await db.prepare([select]);
    expect(made.map((s) => s.described)).toEqual([1]);

    made[0]!.failNext = true;
    await expect(db.all(select, [])).rejects.toMatchObject({ status: 503 });
    expect(made.map((s) => s.ended)).toEqual([true, false]);
    expect([...(await db.all(select, []))]).toEqual([{ x: 1 }]);

    // `svc dev` prepares the statements of a rebuild on the same database.
    await db.prepare([{ ...select, name: "item.two", sql: { postgres: { text: "SELECT 2 AS x", slots: [] } } }]);
    expect(made.map((s) => s.described)).toEqual([1, 1]);

    await db.close();
    expect(made.map((s) => s.ended)).toEqual([true, true]);
  });
});
