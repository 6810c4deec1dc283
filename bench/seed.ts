import Database from "better-sqlite3";
import { seededRandom, ulid } from "./ulid.js";

/**
 * The task table as the svc server declares it, used only when the svc server could not be
 * built (the baselines need a table; the svc server must create its own, see run.ts).
 */
export const FALLBACK_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS task (id TEXT NOT NULL PRIMARY KEY, title TEXT NOT NULL, description TEXT, priority TEXT NOT NULL DEFAULT 'medium' CHECK (priority IN ('low','medium','high','critical')), assignee TEXT, status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','in_progress','blocked','done','cancelled')), created_at TEXT NOT NULL, completed_at TEXT)`,
  `CREATE INDEX IF NOT EXISTS task_status_idx ON task (status)`,
  `CREATE INDEX IF NOT EXISTS task_created_at_id_idx ON task (created_at DESC, id DESC)`,
];

export interface SeededTask {
  id: string;
  title: string;
  description: string | null;
  priority: string;
  assignee: string | null;
  status: string;
  created_at: string;
  completed_at: string | null;
}

const PRIORITIES = ["low", "medium", "medium", "medium", "high", "high", "critical"];
const STATUSES = ["open", "open", "open", "in_progress", "in_progress", "blocked", "done", "done", "done", "cancelled"];
const ASSIGNEES = ["ada", "grace", "linus", "barbara", "ken", "margaret", "edsger", "frances"];
const VERBS = ["Fix", "Write", "Review", "Migrate", "Document", "Refactor", "Profile", "Deploy", "Test", "Design"];
const NOUNS = [
  "login form",
  "billing export",
  "search index",
  "release notes",
  "cache layer",
  "audit log",
  "onboarding email",
  "rate limiter",
  "settings page",
  "backup job",
];
const DAY_MS = 86_400_000;

/**
 * Makes `count` tasks spread over the 90 days before `endMs`, oldest first, with ids whose time
 * part is their created_at. The same `count` and `endMs` give the same rows (seeded PRNG).
 */
export function makeTasks(count: number, endMs: number): SeededTask[] {
  const rng = seededRandom(20240611);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng.next() * list.length)];
  const spanMs = 90 * DAY_MS;
  const tasks: SeededTask[] = [];
  for (let i = 0; i < count; i++) {
    const createdMs = Math.floor(endMs - spanMs + (spanMs * (i + rng.next())) / count);
    const status = pick(STATUSES);
    const hasDescription = rng.next() < 0.6;
    const words = 5 + Math.floor(rng.next() * 30);
    tasks.push({
      id: ulid(createdMs, rng.source),
      title: `${pick(VERBS)} ${pick(NOUNS)} #${i + 1}`,
      description: hasDescription ? Array.from({ length: words }, () => pick(NOUNS)).join(", ") : null,
      priority: pick(PRIORITIES),
      assignee: status === "open" && rng.next() < 0.5 ? null : pick(ASSIGNEES),
      status,
      created_at: new Date(createdMs).toISOString(),
      completed_at: status === "done" ? new Date(createdMs + Math.floor(rng.next() * 7 * DAY_MS)).toISOString() : null,
    });
  }
  return tasks;
}

/**
 * Inserts `tasks` into the task table of `file` (creating the table from FALLBACK_SCHEMA when
 * `createSchema`), leaves the file in WAL mode and checkpointed so it can be copied as is.
 */
export function seedDatabase(file: string, tasks: readonly SeededTask[], createSchema: boolean): void {
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    if (createSchema) for (const sql of FALLBACK_SCHEMA) db.exec(sql);
    const existing = (db.prepare("SELECT count(*) AS n FROM task").get() as { n: number }).n;
    if (existing !== 0) throw new Error(`seed: ${file} already holds ${existing} tasks; expected an empty table`);
    const insert = db.prepare(
      `INSERT INTO task (id, title, description, priority, assignee, status, created_at, completed_at)
       VALUES (@id, @title, @description, @priority, @assignee, @status, @created_at, @completed_at)`,
    );
    db.transaction(() => {
      for (const task of tasks) insert.run(task);
    })();
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/**
 * Deletes every task that is not one of the seeded ids, so each run starts from the same 1,000
 * rows whatever the create_task runs before it inserted. Matching on the seeded ids (kept in a
 * TEMP table, private to this connection) works whatever id or timestamp format a server writes.
 * Called while the server is idle; WAL lets this second connection write beside it.
 */
export function trimToSeed(file: string, seededIds: readonly string[]): number {
  const db = new Database(file);
  try {
    db.pragma("busy_timeout = 5000");
    db.exec("CREATE TEMP TABLE seeded (id TEXT PRIMARY KEY)");
    const keep = db.prepare("INSERT INTO temp.seeded (id) VALUES (?)");
    db.transaction(() => {
      for (const id of seededIds) keep.run(id);
    })();
    const { changes } = db.prepare("DELETE FROM main.task WHERE id NOT IN (SELECT id FROM temp.seeded)").run();
    db.pragma("wal_checkpoint(TRUNCATE)");
    return changes;
  } finally {
    db.close();
  }
}
