// A MigrationSession on one reserved PostgreSQL connection (postgres.js): the session advisory
// lock is the key the additive migration has always used (db/postgres/migrate.ts), so servers
// of this build, of an older one, and `svc migrate` exclude each other; it is held for the
// whole phase while each step commits on its own. Statements go by the simple protocol, so a
// step may hold several (a retype's swap) and DO blocks run as written.

import type { ReservedSql, Sql } from "postgres";
import type { MigrationSession } from "./engine.js";
import { StartupError } from "../core/errors.js";

/** How long a start waits for another server's migration, and a step for a table's lock. */
export const PG_MIGRATE_LOCK_TIMEOUT = "60s";
const LOCK_WAIT_MS = 60_000;

/** How long one try of a step waits for a table's lock, and how many tries before the step fails. */
const STEP_LOCK_TIMEOUT = "2s";
const LOCK_ATTEMPTS = 20;

const LOCK = `hashtext('svc.migrate:' || coalesce($1::text, current_schema(), ''))`;

export async function postgresSession(sql: Sql, schema: string | null): Promise<{ session: MigrationSession; release(): void }> {
  // postgres.js hands a reserved connection only from those already open: a client that has not
  // connected yet would wait forever, so one statement opens it first.
  await sql.unsafe("SELECT 1");
  const conn: ReservedSql = await sql.reserve();
  // The connection's statement_timeout is the request deadline; a backfill or an index is not a request.
  await conn.unsafe(`SET statement_timeout = 0`);
  await conn.unsafe(`SET lock_timeout = '${PG_MIGRATE_LOCK_TIMEOUT}'`);
  const count = (rows: { count: number | null }) => rows.count ?? 0;
  const exec = async (text: string): Promise<number> => {
    const result = await conn.unsafe(text).simple();
    // Several statements answer one result each; the last one's count is the step's.
    const last = Array.isArray(result) && Array.isArray(result[result.length - 1]) ? result[result.length - 1] : result;
    return count(last as unknown as { count: number | null });
  };
  const session: MigrationSession = {
    dialect: "postgres",
    exec,
    async transaction(fn) {
      // A step waiting for a table's lock queues every server's statements on that table behind
      // it: it waits briefly, gives way, and tries again (LOCK_ATTEMPTS times).
      for (let attempt = 1; ; attempt++) {
        await conn.unsafe("BEGIN");
        try {
          await conn.unsafe(`SET LOCAL lock_timeout = '${STEP_LOCK_TIMEOUT}'`);
          const out = await fn(exec);
          await conn.unsafe("COMMIT");
          return out;
        } catch (err) {
          await conn.unsafe("ROLLBACK").catch(() => undefined);
          if ((err as { code?: string }).code !== "55P03" || attempt >= LOCK_ATTEMPTS) throw err;
          await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
        }
      }
    },
    async query(text, params = []) {
      return [...(await conn.unsafe(text, params as never[]))] as Record<string, unknown>[];
    },
    async hasTable(table) {
      const rows = await conn.unsafe(`SELECT to_regclass(quote_ident(current_schema()) || '.' || quote_ident($1)) IS NOT NULL AS present`, [table]);
      return rows[0]?.present === true;
    },
    async lock() {
      // Asked for again and again rather than waited for: a statement waiting on the lock is a
      // transaction with a snapshot, and CREATE INDEX CONCURRENTLY in the holder's migration
      // waits for every such transaction to end (a deadlock PostgreSQL then breaks by failing one).
      const deadline = Date.now() + LOCK_WAIT_MS;
      for (;;) {
        const [row] = await conn.unsafe(`SELECT pg_try_advisory_lock(${LOCK}) AS locked`, [schema]);
        if (row?.locked === true) return;
        if (Date.now() >= deadline) {
          throw new StartupError("SVC_ERR_MIGRATION", `another server's migration held the lock for ${PG_MIGRATE_LOCK_TIMEOUT}; start again once it is done`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async unlock() {
      await conn.unsafe(`SELECT pg_advisory_unlock(${LOCK})`, [schema]);
    },
  };
  return { session, release: () => conn.release() };
}
