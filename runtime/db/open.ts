// Picks the adapter for `--backend` / `--db`. Only SQLite exists so far.

import { StartupError } from "../errors.js";
import type { Database, ServerOptions } from "../types.js";
import { openSqlite } from "./sqlite.js";

export interface OpenOptions {
  backend: ServerOptions["backend"];
  db: string;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  switch (options.backend) {
    case "sqlite":
      return openSqlite(sqlitePath(options.db));
    case "postgres":
    case "mysql":
    case "tidb":
      throw new StartupError(`backend ${options.backend} is not supported yet`);
    default:
      throw new StartupError(`unknown backend ${String(options.backend)}; use sqlite, postgres, mysql or tidb`);
  }
}

/**
 * The file path in `--db` for sqlite: a path, `:memory:`, or a `sqlite:` URL
 * (`sqlite:data/tasks.db`, `sqlite:///var/lib/tasks.db`, `sqlite::memory:`).
 */
export function sqlitePath(db: string): string {
  const value = db.trim();
  if (value === "") throw new StartupError("--db is empty; pass a sqlite file path or :memory:");
  if (value.toLowerCase().startsWith("sqlite:")) {
    let rest = value.slice("sqlite:".length);
    // `sqlite://` + an absolute path keeps its own leading slash: sqlite:///var/x.db
    if (rest.startsWith("//")) rest = rest.slice(2);
    if (rest === "") throw new StartupError(`--db ${db} names no file; use e.g. sqlite:data/app.db or sqlite::memory:`);
    return rest;
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value);
  if (scheme) {
    throw new StartupError(
      `--db ${redact(value)} is a ${scheme[1]} URL, but the backend is sqlite; pass --backend or a file path`,
    );
  }
  return value;
}

/** Connection URLs may carry a password; error messages end up in logs. */
function redact(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}
