// Uploads kept in the database (`[uploads] store = "database"`, docs/operations.md "Uploads")
// on SQLite, PostgreSQL and MariaDB: every byte value goes in and comes back exactly (BLOB,
// bytea, LONGBLOB), the same bytes are one row, the `file` field's metadata reads back
// as a value, and a refused upload leaves no row and no temporary file.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { FormData, request } from "undici";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, type Session, backendAvailable, createNamespace, openSession } from "./support/databases.js";

const available = {
  sqlite: true,
  postgres: await backendAvailable("postgres"),
  mysql: await backendAvailable("mysql"),
};

let dir: string;
const servers: TestServer[] = [];
const namespaces: Namespace[] = [];
const sessions: Session[] = [];

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "tests", "backends", "projects", "uploads") }, "uploads-");
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const s of sessions) await s.close();
  for (const ns of namespaces) await ns.drop();
  removeDir(dir);
});

/** Every byte value, then a run long enough to cross the reader's chunks. */
const BYTES = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.alloc(200_000, 0xfe)]);

async function upload(server: TestServer, title: string, bytes: Buffer) {
  const form = new FormData();
  form.set("title", title);
  form.set("attachment", new Blob([bytes], { type: "application/octet-stream" }), `${title}.bin`);
  const res = await request(`${server.url}/api/files:upload`, { method: "POST", body: form });
  return { status: res.statusCode, json: JSON.parse(await res.body.text()) };
}

describe.each(["sqlite", "postgres", "mysql"] as const)("%s", (backend) => {
  const run = available[backend] ? test : test.skip;
  run("bytes go into svc_uploads and come back exactly, once per distinct file", async () => {
    let db: string;
    let rows: (sql: string) => Promise<Record<string, unknown>[]>;
    if (backend === "sqlite") {
      db = join(dir, `files-${Date.now()}.db`);
      rows = async (sql) => {
        const conn = new Database(db, { readonly: true });
        try {
          return conn.prepare(sql).all() as Record<string, unknown>[];
        } finally {
          conn.close();
        }
      };
    } else {
      const ns = await createNamespace(backend, "uploads");
      namespaces.push(ns);
      const session = await openSession(ns);
      sessions.push(session);
      db = ns.url;
      rows = (sql) => session.run(sql);
    }
    const server = await startServer(dir, ["--backend", backend, "--db", db]);
    servers.push(server);

    const first = await upload(server, "first", BYTES);
    expect(first.status).toBe(200);
    expect(first.json.data.size).toBe(BYTES.length);
    expect((await upload(server, "again", BYTES)).status).toBe(200);
    const stored = await rows("SELECT sha256, size FROM svc_uploads");
    expect(stored.map((r) => [r.sha256, Number(r.size)])).toEqual([[first.json.data.sha256, BYTES.length]]);

    const res = await request(`${server.url}/docs/${first.json.data.id}/file`);
    const back = Buffer.from(await res.body.arrayBuffer());
    expect(res.statusCode).toBe(200);
    expect(back.equals(BYTES)).toBe(true);
    expect(res.headers.etag).toBe(`"${first.json.data.sha256}"`);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="first.bin"; filename*=UTF-8''first.bin`);
    const cached = await request(`${server.url}/docs/${first.json.data.id}/file`, { headers: { "if-none-match": res.headers.etag as string } });
    await cached.body.text();
    expect(cached.statusCode).toBe(304);

    // The field holds the metadata, read back as a value on every backend.
    const list = await call(`${server.url}/api/files:list_docs`);
    expect(list.json.data[0].attachment).toEqual({ name: "first.bin", type: "application/octet-stream", size: BYTES.length, sha256: first.json.data.sha256 });

    // Past max_file_size: a 413, no row, and no temporary file left in `dir`.
    const big = await upload(server, "big", Buffer.alloc(300_001, 1));
    expect([big.status, big.json.error]).toEqual([413, 'file "attachment" is larger than 300000 bytes']);
    expect((await rows("SELECT count(*) AS n FROM svc_uploads")).map((r) => Number(r.n))).toEqual([1]);
    const incoming = join(dir, "incoming", ".incoming");
    expect(existsSync(incoming) ? readdirSync(incoming) : []).toEqual([]);
  });
});
