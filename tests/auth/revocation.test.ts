// Revocation on SQLite: the suite of revocation.suite.ts, two server processes on one file.

import { join } from "node:path";
import Database from "better-sqlite3";
import { removeDir, tmpDir } from "../support/server.js";
import { revocationSuite } from "./revocation.suite.js";

revocationSuite("sqlite", async () => {
  const dir = tmpDir("revocation-db-");
  const file = join(dir, "accounts.db");
  return {
    args: ["--db", file],
    admin: async (sql) => {
      const db = new Database(file);
      try {
        const stmt = db.prepare(sql);
        return stmt.reader ? (stmt.all() as Record<string, unknown>[]) : (stmt.run(), []);
      } finally {
        db.close();
      }
    },
    close: async () => removeDir(dir),
  };
});
