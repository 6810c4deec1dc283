// A database of its own per server and backend, named per run and dropped at the end: a
// PostgreSQL schema or a MySQL database. The svc server creates the table in each (it
// refuses a table that differs from its declaration), the bench seeds the same 1,000
// tasks into each, and after each create_task run deletes the rows the run added.

import mysql from "mysql2/promise";
import postgres from "postgres";
import type { SeededTask } from "../seed.js";

export type NetBackend = "postgres" | "mysql";

export const SERVER_URLS: Record<NetBackend, string> = {
  postgres: process.env.SVC_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  mysql: process.env.SVC_BENCH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test",
};

export interface BenchDatabase {
  /** `--db` for servers using this database. */
  url: string;
  seed(tasks: readonly SeededTask[]): Promise<void>;
  /** Deletes the tasks created since `since` (every seeded task is older). */
  trim(since: Date): Promise<void>;
  drop(): Promise<void>;
}

/** Null when the server answers; else why not. */
export async function unreachable(backend: NetBackend): Promise<string | null> {
  try {
    const db = await open(backend, "svc_bench_probe", false);
    await db.drop();
    return null;
  } catch (error) {
    return `${backend} at ${SERVER_URLS[backend]}: ${(error as Error).message}`;
  }
}

export async function createDatabase(backend: NetBackend, label: string): Promise<BenchDatabase> {
  return open(backend, `svc_bench_${label}_${process.pid}`, true);
}

async function open(backend: NetBackend, name: string, create: boolean): Promise<BenchDatabase> {
  if (backend === "postgres") {
    const sql = postgres(SERVER_URLS.postgres, {
      max: 1,
      onnotice: () => undefined,
      connect_timeout: 3,
      connection: { search_path: name },
    });
    try {
      if (create) await sql.unsafe(`CREATE SCHEMA "${name}"`);
      else await sql`SELECT 1`;
    } catch (error) {
      await sql.end({ timeout: 1 });
      throw error;
    }
    const url = new URL(SERVER_URLS.postgres);
    url.searchParams.set("schema", name);
    return {
      url: url.toString(),
      seed: async (tasks) => {
        await sql.begin(async (tx) => {
          for (const t of tasks) {
            await tx`INSERT INTO task (id, title, description, priority, assignee, status, created_at, completed_at)
              VALUES (${t.id}, ${t.title}, ${t.description}, ${t.priority}, ${t.assignee}, ${t.status}, ${t.created_at}, ${t.completed_at})`;
          }
        });
        await sql`ANALYZE task`;
      },
      trim: async (since) => void (await sql`DELETE FROM task WHERE created_at >= ${since}`),
      drop: async () => {
        try {
          if (create) await sql.unsafe(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
        } finally {
          await sql.end({ timeout: 2 });
        }
      },
    };
  }
  const conn = await mysql.createConnection({ uri: SERVER_URLS.mysql, connectTimeout: 3000, timezone: "Z" });
  if (create) {
    await conn.query(`CREATE DATABASE \`${name}\``);
    await conn.query(`USE \`${name}\``);
  }
  const url = new URL(SERVER_URLS.mysql);
  url.pathname = `/${name}`;
  const wall = (iso: string | null) => (iso === null ? null : iso.replace("T", " ").replace("Z", ""));
  return {
    url: url.toString(),
    seed: async (tasks) => {
      await conn.query("SET time_zone = '+00:00'");
      await conn.beginTransaction();
      for (const t of tasks) {
        await conn.execute(
          "INSERT INTO task (id, title, description, priority, assignee, status, created_at, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          [t.id, t.title, t.description, t.priority, t.assignee, t.status, wall(t.created_at), wall(t.completed_at)],
        );
      }
      await conn.commit();
      await conn.query("ANALYZE TABLE task");
    },
    trim: async (since) =>
      void (await conn.execute("DELETE FROM task WHERE created_at >= ?", [wall(since.toISOString())])),
    drop: async () => {
      try {
        if (create) await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await conn.end();
      }
    },
  };
}
