// The database servers the backend tests run against (PostgreSQL and MariaDB on
// 127.0.0.1, as .ci/run starts them), each test file in a schema or database of its own,
// named per run and dropped afterwards, so runs never see each other's rows.
//
// A server that does not answer skips its backend's tests with a message, unless
// CI=true: there, a missing database is a failure, never a silent skip.

import { randomBytes } from "node:crypto";
import mysql from "mysql2";
import postgres from "postgres";

export type NetBackend = "postgres" | "mysql";

/** Where the servers are; SVC_TEST_POSTGRES_URL / SVC_TEST_MYSQL_URL point elsewhere. */
export const SERVER_URLS: Record<NetBackend, string> = {
  postgres: process.env.SVC_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  mysql: process.env.SVC_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test",
};

export interface Namespace {
  backend: NetBackend;
  /** A schema (postgres) or a database (mysql) of this run only. */
  name: string;
  /** `--db` for a server that keeps its tables there. */
  url: string;
  /** Runs SQL as an administrator, outside any server under test, in the namespace. */
  admin(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Drops the namespace and closes the admin connection. */
  drop(): Promise<void>;
}

export interface Availability {
  ok: boolean;
  reason: string;
}

/** Whether the server answers within 3 s. */
export async function probe(backend: NetBackend): Promise<Availability> {
  try {
    if (backend === "postgres") {
      const sql = postgres(SERVER_URLS.postgres, { max: 1, connect_timeout: 3, onnotice: () => undefined });
      try {
        await sql`SELECT 1`;
      } finally {
        await sql.end({ timeout: 1 });
      }
    } else {
      const conn = mysql.createConnection({ uri: SERVER_URLS.mysql, connectTimeout: 3000 });
      conn.on("error", () => undefined);
      try {
        await new Promise<void>((resolve, reject) => conn.query("SELECT 1", (err) => (err ? reject(err) : resolve())));
      } finally {
        conn.destroy();
      }
    }
    return { ok: true, reason: "" };
  } catch (err) {
    return { ok: false, reason: `${backend} at ${SERVER_URLS[backend]} does not answer: ${(err as Error).message}` };
  }
}

/**
 * `describe` when the backend's server answers; otherwise `describe.skip` with a message,
 * or, under CI=true, an error that fails the test file.
 */
export async function backendAvailable(backend: NetBackend): Promise<boolean> {
  const a = await probe(backend);
  if (a.ok) return true;
  if (process.env.CI === "true") throw new Error(`CI=true, and ${a.reason}; .ci/run starts the database servers`);
  console.warn(`SKIPPED ${backend} tests: ${a.reason} (start it, or run .ci/run)`);
  return false;
}

/** A fresh schema (postgres) or database (mysql) for one test file. */
export async function createNamespace(backend: NetBackend, label: string): Promise<Namespace> {
  const name = `svc_t_${label
    .replace(/[^a-z0-9]/gi, "_")
    .toLowerCase()
    .slice(0, 20)}_${process.pid}_${randomBytes(3).toString("hex")}`;
  return backend === "postgres" ? postgresNamespace(name) : mysqlNamespace(name);
}

async function postgresNamespace(name: string): Promise<Namespace> {
  const sql = postgres(SERVER_URLS.postgres, {
    max: 1,
    onnotice: () => undefined,
    connection: { search_path: name },
  });
  await sql.unsafe(`CREATE SCHEMA "${name}"`);
  const url = new URL(SERVER_URLS.postgres);
  url.searchParams.set("schema", name);
  return {
    backend: "postgres",
    name,
    url: url.toString(),
    admin: async (text, params = []) => [...(await sql.unsafe(text, params as never[]))],
    drop: async () => {
      try {
        await sql.unsafe(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      } finally {
        await sql.end({ timeout: 2 });
      }
    },
  };
}

async function mysqlNamespace(name: string): Promise<Namespace> {
  const conn = mysql.createConnection({ uri: SERVER_URLS.mysql, multipleStatements: false });
  conn.on("error", () => undefined);
  const run = (text: string, params: unknown[] = []) =>
    new Promise<Record<string, unknown>[]>((resolve, reject) =>
      conn.query(text, params, (err, rows) =>
        err ? reject(err) : resolve(Array.isArray(rows) ? (rows as Record<string, unknown>[]) : []),
      ),
    );
  await run(`CREATE DATABASE \`${name}\``);
  await run(`USE \`${name}\``);
  const url = new URL(SERVER_URLS.mysql);
  url.pathname = `/${name}`;
  return {
    backend: "mysql",
    name,
    url: url.toString(),
    admin: run,
    drop: async () => {
      try {
        // The view databases a build retyping in place made beside it (docs/migrations.md) go with it.
        const views = await run(`SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?`, [`${name.replace(/_/g, "\\_")}\\_svc\\_%`]);
        for (const v of views) await run(`DROP DATABASE \`${String(v.name)}\``);
        await run(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        conn.destroy();
      }
    },
  };
}

/** One dedicated administrator connection in the namespace (for holding locks across calls). */
export interface Session {
  run(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function openSession(ns: Namespace): Promise<Session> {
  if (ns.backend === "postgres") {
    // max: 1 keeps every statement on one connection, so BEGIN … ROLLBACK spans calls.
    const sql = postgres(SERVER_URLS.postgres, {
      max: 1,
      onnotice: () => undefined,
      connection: { search_path: ns.name },
    });
    return {
      run: async (text) => [...(await sql.unsafe(text))],
      close: () => sql.end({ timeout: 1 }),
    };
  }
  const conn = mysql.createConnection({ uri: SERVER_URLS.mysql, database: ns.name });
  conn.on("error", () => undefined);
  return {
    run: (text) =>
      new Promise((resolve, reject) =>
        conn.query(text, (err, rows) =>
          err ? reject(err) : resolve(Array.isArray(rows) ? (rows as Record<string, unknown>[]) : []),
        ),
      ),
    close: async () => conn.destroy(),
  };
}

/** Polls `probe` until it returns a value other than null, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A one-connection PostgreSQL client as a server of `ns` sees the database: `path` (a build's
 * view schema, docs/migrations.md) first on its search_path when given. The caller ends it.
 */
export function searchPathClient(ns: Namespace, path: string | null = null): postgres.Sql {
  return postgres(SERVER_URLS.postgres, {
    max: 1,
    onnotice: () => undefined,
    connection: { search_path: path === null ? `"${ns.name}"` : `"${path}", "${ns.name}"` },
  });
}
