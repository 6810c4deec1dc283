// A retype in place on PostgreSQL through real servers (docs/migrations.md, PostgreSQL): a server
// of the new build expands at start and then reads and writes through its view schema (its
// pool's search_path), seeing ints, while a server of the old build keeps the table's text.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { type TestServer, removeDir, startServer, tmpDir } from "../support/server.js";
import { buildModule } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const module = (field: string, arg: string) =>
  `module est\n\nresource job {\n  id: id\n  ${field}\n}\n\naction create(e: ${arg}) {\n  return insert job { estimate: e }\n}\n\nquery all() {\n  SELECT id, estimate FROM job ORDER BY id\n}\n`;

const ok = await backendAvailable("postgres");
(ok ? describe : describe.skip)("postgres: a retype in place, old and new servers side by side", () => {
  let src: string;
  let oldDir: string;
  let newDir: string;
  let ns: Namespace;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    src = tmpDir("evolve-retype-src-");
    oldDir = await buildModule(src, "old", module("estimate: text?", "text"), "evolve-retype-old-");
    newDir = await buildModule(src, "new", module("estimate: int? changed from text using (CAST(estimate AS INTEGER)) lossy", "int"), "evolve-retype-new-");
    ns = await createNamespace("postgres", "evolveretype");
  });

  afterAll(async () => {
    for (const s of servers) await s.stop();
    if (ns !== undefined) {
      const views = await ns.admin(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [`${ns.name}_svc_%`]);
      for (const v of views) await ns.admin(`DROP SCHEMA "${String(v.nspname)}" CASCADE`);
      await ns.drop();
    }
    for (const d of [oldDir, newDir, src]) if (d) removeDir(d);
  });

  test("the new build's servers read and write ints through their view, the old build's text in the table", async () => {
    const old = await startServer(oldDir, ["--db", ns.url, "--workers", "1"]);
    servers.push(old);
    expect((await call(`${old.url}/api/est:create`, { json: { e: "3" } })).status).toBe(200);
    const fresh = await startServer(newDir, ["--db", ns.url, "--workers", "1"]);
    servers.push(fresh);
    const made = await call(`${fresh.url}/api/est:create`, { json: { e: 40 } });
    expect(made.json.data?.estimate).toBe(40);
    expect((await call(`${old.url}/api/est:create`, { json: { e: "7" } })).status).toBe(200);
    expect((await call(`${fresh.url}/api/est:all`)).json.data.map((r: { estimate: unknown }) => r.estimate)).toEqual([3, 40, 7]);
    expect((await call(`${old.url}/api/est:all`)).json.data.map((r: { estimate: unknown }) => r.estimate)).toEqual(["3", "40", "7"]);
  }, 120_000);
});
