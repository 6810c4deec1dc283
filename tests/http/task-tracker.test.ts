// The task tracker example over HTTP on SQLite; the suite itself runs on every backend
// (tests/backends/task-tracker.suite.ts).

import { join } from "node:path";
import Database from "better-sqlite3";
import { taskTrackerSuite } from "../backends/task-tracker.suite.js";

taskTrackerSuite({
  name: "sqlite",
  setup: async (dir) => ["--db", join(dir, "tasks.db")],
  renameTable: async (dir, from, to) => {
    const db = new Database(join(dir, "tasks.db"));
    try {
      db.exec(`ALTER TABLE "${from}" RENAME TO "${to}"`);
    } finally {
      db.close();
    }
  },
  missingTableLog: /no such table/,
  teardown: async () => undefined,
});
