// Picks the adapter for `--backend` / `--db`. Each driver is loaded only when its backend
// is chosen: a server loads one of better-sqlite3, postgres.js and mysql2.

import { StartupError } from "../core/errors.js";
import type { Database, ServerOptions } from "../contract/index.js";

export { indexName } from "./index-name.js";

export interface OpenOptions {
  backend: ServerOptions["backend"];
  db: string;
  /** The request deadline (--write-timeout): network adapters bound their waits and retries by it. */
  writeTimeoutMs?: number;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  switch (options.backend) {
    case "sqlite": {
      const path = sqlitePath(options.db);
      const { openSqlite } = await import("./sqlite/index.js");
      return openSqlite(path);
    }
    case "postgres": {
      const { openPostgres } = await import("./postgres/index.js");
      return openPostgres(options.db, { requestTimeoutMs: options.writeTimeoutMs });
    }
    case "mysql":
    case "tidb": {
      const { openMysql } = await import("./mysql/index.js");
      return openMysql(options.db, { flavor: options.backend, requestTimeoutMs: options.writeTimeoutMs });
    }
    default:
      throw new StartupError("SVC_ERR_DB_URL", `unknown backend ${String(options.backend)}; use sqlite, postgres, mysql or tidb`);
  }
}

/**
 * The file path in `--db` for sqlite: a path, `:memory:`, or a `sqlite:` URL
 * (`sqlite:data/tasks.db`, `sqlite:///var/lib/tasks.db`, `sqlite::memory:`).
 */
export function sqlitePath(db: string): string {
  const value = db.trim();
  if (value === "") throw new StartupError("SVC_ERR_DB_URL", "--db is empty; pass a sqlite file path or :memory:");
  if (value.toLowerCase().startsWith("sqlite:")) {
    let rest = value.slice("sqlite:".length);
    // `sqlite://` + an absolute path keeps its own leading slash: sqlite:///var/x.db
    if (rest.startsWith("//")) rest = rest.slice(2);
    if (rest === "") throw new StartupError("SVC_ERR_DB_URL", `--db ${db} names no file; use e.g. sqlite:data/app.db or sqlite::memory:`);
    return rest;
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value);
  if (scheme) {
    throw new StartupError(
      "SVC_ERR_DB_URL",
      `--db ${redact(value)} is a ${scheme[1]} URL, but the backend is sqlite; pass --backend or a file path`,
    );
  }
  return value;
}

/** Connection URLs may carry a password; error messages end up in logs. */
function redact(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}
export { type OwnSql, ownStatement, ownTable } from "./own-table.js";
