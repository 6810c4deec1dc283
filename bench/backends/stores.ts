// The task store of the Fastify baseline on PostgreSQL and on MySQL/MariaDB, written as a
// Node user would write it with the same drivers svc uses: postgres.js tagged templates
// (prepared statements, its default pool, Dates for timestamps) and mysql2/promise
// `execute()` (prepared statements on a pool). MySQL has no RETURNING, so create inserts
// then selects the row back, as svc does; on PostgreSQL both use INSERT … RETURNING. create
// stores the title trimmed, as svc's create_task does; the SQLite baselines store it as sent.

import mysql from "mysql2/promise";
import postgres from "postgres";
import type { NewTask } from "../baselines/common.js";
import { ulid } from "../ulid.js";

/** A row as the drivers give it: timestamps as Date objects, which Fastify's serializer writes as ISO text. */
export interface NetTask {
  id: string;
  title: string;
  description: string | null;
  priority: string;
  assignee: string | null;
  status: string;
  created_at: Date | string;
  completed_at: Date | string | null;
}

export interface NetTaskStore {
  list(status: string | null, limit: number, offset: number): Promise<NetTask[]>;
  get(id: string): Promise<NetTask | null>;
  create(task: NewTask): Promise<NetTask>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const POOL_SIZE = 10;

export function postgresStore(url: string): NetTaskStore {
  const u = new URL(url);
  const schema = u.searchParams.get("schema");
  u.searchParams.delete("schema");
  const sql = postgres(u.toString(), {
    max: POOL_SIZE,
    onnotice: () => undefined,
    ...(schema ? { connection: { search_path: schema } } : {}),
  });
  return {
    list: (status, limit, offset) =>
      sql<NetTask[]>`SELECT * FROM task WHERE (${status}::text IS NULL OR status = ${status})
        ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
    get: async (id) => (await sql<NetTask[]>`SELECT * FROM task WHERE id = ${id}`)[0] ?? null,
    create: async (task) => {
      const now = new Date();
      const [row] = await sql<
        NetTask[]
      >`INSERT INTO task (id, title, description, priority, assignee, status, created_at, completed_at)
        VALUES (${ulid(now.getTime())}, ${task.title.trim()}, ${task.description}, ${task.priority}, ${task.assignee}, 'open', ${now}, NULL)
        RETURNING *`;
      return row;
    },
    ping: async () => void (await sql`SELECT 1`),
    close: () => sql.end({ timeout: 5 }),
  };
}

export function mysqlStore(url: string): NetTaskStore {
  const pool = mysql.createPool({ uri: url, connectionLimit: POOL_SIZE, timezone: "Z", charset: "UTF8MB4_BIN" });
  const one = async (id: string): Promise<NetTask | null> => {
    const [rows] = await pool.execute<mysql.RowDataPacket[]>("SELECT * FROM task WHERE id = ?", [id]);
    return (rows[0] as NetTask | undefined) ?? null;
  };
  return {
    list: async (status, limit, offset) => {
      const [rows] = await pool.execute<mysql.RowDataPacket[]>(
        "SELECT * FROM task WHERE (? IS NULL OR status = ?) ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
        [status, status, String(limit), String(offset)],
      );
      return rows as NetTask[];
    },
    get: one,
    create: async (task) => {
      const now = new Date();
      const id = ulid(now.getTime());
      await pool.execute(
        "INSERT INTO task (id, title, description, priority, assignee, status, created_at, completed_at) VALUES (?, ?, ?, ?, ?, 'open', ?, NULL)",
        [id, task.title.trim(), task.description, task.priority, task.assignee, now],
      );
      const row = await one(id);
      if (row === null) throw new Error("the inserted task is not there");
      return row;
    },
    ping: async () => void (await pool.query("SELECT 1")),
    close: () => pool.end(),
  };
}
