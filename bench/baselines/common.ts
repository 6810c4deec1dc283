// What both baselines share: their command line, the database with its three statements
// (prepared once, at start), and a clean stop. The HTTP side is each baseline's own.
import Database from "better-sqlite3";
import { parseArgs } from "node:util";
import { ulid } from "../ulid.js";

export const PRIORITIES: ReadonlySet<string> = new Set(["low", "medium", "high", "critical"]);
export const MAX_BODY_BYTES = 1_048_576;
/** The task tracker's version (examples/task_tracker/svc.toml), so /health bodies match svc's in size. */
export const APP_VERSION = "0.1.0";
const STARTED_AT = Date.now();

/** GET /health's body, as svc's runtime/health.ts writes it after pinging the database. */
export function healthBody(ok: boolean): string {
  return JSON.stringify({
    status: ok ? "ok" : "unavailable",
    version: APP_VERSION,
    uptime_seconds: Math.floor((Date.now() - STARTED_AT) / 1000),
  });
}

export interface Task {
  id: string;
  title: string;
  description: string | null;
  priority: string;
  assignee: string | null;
  status: string;
  created_at: string;
  completed_at: string | null;
}

export interface NewTask {
  title: string;
  description: string | null;
  priority: string;
  assignee: string | null;
}

export interface TaskStore {
  list(status: string | null, limit: number, offset: number): Task[];
  get(id: string): Task | null;
  create(task: NewTask): Task;
  /** Throws when the database does not answer. */
  ping(): void;
  close(): void;
}

export interface BaselineOptions {
  host: string;
  port: number;
  db: string;
  /** Stop when stdin closes (the bench passes this; a person at a terminal does not). */
  stopWithStdin: boolean;
}

const USAGE = "usage: node <baseline>.js --listen 127.0.0.1:PORT --db FILE [--stop-with-stdin]";

/** Parses the command line; a bad one exits 2 with the usage line. */
export function parseBaselineArgs(argv: string[]): BaselineOptions {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { listen: { type: "string" }, db: { type: "string" }, "stop-with-stdin": { type: "boolean" } },
      strict: true,
    });
    const match = /^(.+):(\d{1,5})$/.exec(values.listen ?? "");
    if (!match || !values.db) throw new Error("--listen and --db are required");
    return { host: match[1], port: Number(match[2]), db: values.db, stopWithStdin: values["stop-with-stdin"] ?? false };
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

export function openTaskStore(file: string): TaskStore {
  const db = new Database(file, { fileMustExist: true });
  // The usual production settings for SQLite behind a web server.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  const list = db.prepare<{ status: string | null; limit: number; offset: number }, Task>(
    `SELECT * FROM task WHERE (@status IS NULL OR status = @status)
     ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
  );
  const get = db.prepare<{ id: string }, Task>("SELECT * FROM task WHERE id = @id");
  const ping = db.prepare("SELECT 1");
  const insert = db.prepare<Task, Task>(
    `INSERT INTO task (id, title, description, priority, assignee, status, created_at, completed_at)
     VALUES (@id, @title, @description, @priority, @assignee, @status, @created_at, @completed_at)
     RETURNING *`,
  );
  return {
    list: (status, limit, offset) => list.all({ status, limit, offset }),
    get: (id) => get.get({ id }) ?? null,
    create: (task) => {
      const now = Date.now();
      const row = insert.get({
        ...task,
        id: ulid(now),
        status: "open",
        created_at: new Date(now).toISOString(),
        completed_at: null,
      });
      if (!row) throw new Error("INSERT … RETURNING gave no row");
      return row;
    },
    ping: () => void ping.get(),
    close: () => db.close(),
  };
}

/**
 * Stops on SIGTERM/SIGINT and, with `withStdin`, when stdin closes: the bench keeps a pipe open
 * to each server, so a bench killed hard (no chance to clean up) still takes its servers along.
 */
export function stopOnSignal(stop: () => Promise<void>, withStdin: boolean): void {
  let stopping = false;
  const once = (): void => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: Error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", once);
  process.on("SIGINT", once);
  if (withStdin) {
    process.stdin.on("end", once);
    process.stdin.resume();
  }
}
