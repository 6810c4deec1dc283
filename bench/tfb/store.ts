// The baselines' database work, on postgres.js as svc uses it (prepared statements, a pool of
// POOL_SIZE, svc's default pool_size), against TFB's tables (data.ts).
import type postgres from "postgres";
import { connect } from "./data.js";
import { randomWorld } from "./rules.js";

export const POOL_SIZE = 10;

export interface World {
  id: number;
  randomNumber: number;
}

export interface TfbStore {
  world(id: number): Promise<World>;
  /** `n` worlds of random ids, each read by a query of its own (TFB's rule for /queries and /updates). */
  worlds(n: number): Promise<World[]>;
  fortunes(): Promise<{ id: number; message: string }[]>;
  /** `n` random worlds read one by one, each given a new random number, written back in one statement. */
  update(n: number): Promise<World[]>;
  close(): Promise<void>;
}

export function tfbStore(url: string): TfbStore {
  const sql: postgres.Sql = connect(url, POOL_SIZE);
  const world = async (id: number): Promise<World> => {
    const [row] = await sql<World[]>`SELECT id, randomnumber AS "randomNumber" FROM world WHERE id = ${id}`;
    if (row === undefined) throw new Error(`world ${id} is missing`);
    return row;
  };
  const worlds = (n: number): Promise<World[]> => {
    const reads: Promise<World>[] = [];
    for (let i = 0; i < n; i++) reads.push(world(randomWorld()));
    return Promise.all(reads);
  };
  return {
    world,
    worlds,
    fortunes: () => sql<{ id: number; message: string }[]>`SELECT id, message FROM fortune`,
    update: async (n) => {
      const rows = await worlds(n);
      // An id drawn twice is written once, with its last number, which every copy then shows.
      const latest = new Map<number, number>();
      for (const row of rows) latest.set(row.id, (row.randomNumber = randomWorld()));
      for (const row of rows) row.randomNumber = latest.get(row.id)!;
      // In id order, so two concurrent updates lock their rows in the same order (no deadlock).
      const ids = [...latest.keys()].sort((a, b) => a - b);
      const numbers = ids.map((id) => latest.get(id)!);
      await sql`UPDATE world SET randomnumber = v.r
        FROM (SELECT unnest(${ids}::int[]) AS id, unnest(${numbers}::int[]) AS r) AS v
        WHERE world.id = v.id`;
      return rows;
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
