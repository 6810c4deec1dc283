// Declared changes on SQLite and MariaDB, end to end (docs/migrations.md): servers built from
// .svc start on a database holding the old build's rows. A rename: the new build expands at
// start, a server of the old build starts again beside it (the history says which columns the
// open change keeps), both write and read each other's rows, then `svc migrate complete`
// contracts while the new server runs. A retype in place: on SQLite the new build refuses to
// serve once expanded, with what to do; on MariaDB it serves beside the old build through its
// view database; both serve after `svc migrate complete`.

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { type TestServer, removeDir, startServer, tmpDir } from "../support/server.js";
import { buildServer, outDir } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const work = tmpDir("evolve-sqlite-");
const dirs: string[] = [work];
const servers: TestServer[] = [];
const namespaces: Namespace[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const ns of namespaces) await ns.drop();
  for (const d of dirs) removeDir(d);
});

/** A fresh database of `backend`: a file, or a MariaDB database of this run. */
async function fresh(backend: "sqlite" | "mysql", name: string): Promise<string> {
  if (backend === "sqlite") return join(work, `${name}.db`);
  const ns = await createNamespace("mysql", name);
  namespaces.push(ns);
  return ns.url;
}

const builds = new Map<string, Promise<{ src: string; out: string }>>();
/** Each build once, whichever backend asks first (they run one after the other). */
function once(name: string, fields: string, field: string, type = "text"): Promise<{ src: string; out: string }> {
  if (!builds.has(name)) builds.set(name, build(name, fields, field, type));
  return builds.get(name)!;
}

const module = (fields: string, field: string, type: string) => `module notes

resource note {
  id: id
${fields}
}

action create(text: ${type}) {
  return insert note { ${field}: text }
}

query one(id: text) {
  SELECT id, ${field} AS text FROM note WHERE id = @id
}
`;

async function build(name: string, fields: string, field: string, type = "text"): Promise<{ src: string; out: string }> {
  const src = join(work, name);
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, "notes.svc"), module(fields, field, type));
  const out = await buildServer({ mode: "module", dir: src }, `evolve-sqlite-${name}-`);
  dirs.push(out);
  return { src, out };
}

async function start(dir: string, db: string): Promise<TestServer> {
  const s = await startServer(dir, ["--db", db]);
  servers.push(s);
  return s;
}

function svc(...args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [join(outDir, "compiler", "cli", "svc.js"), ...args], { encoding: "utf8", timeout: 60_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

async function create(s: TestServer, text: string | number): Promise<string> {
  const r = await call(`${s.url}/api/notes:create`, { json: { text } });
  expect(r.status).toBe(200);
  return r.json.data.id as string;
}

async function read(s: TestServer, id: string): Promise<unknown> {
  const r = await call(`${s.url}/api/notes:one?id=${id}`);
  expect(r.status).toBe(200);
  return r.json.data?.[0]?.text;
}

const mysqlUp = await backendAvailable("mysql");
for (const backend of ["sqlite", "mysql"] as const) {
  (backend === "sqlite" || mysqlUp ? describe : describe.skip)(`${backend}: declared changes end to end`, () => {
    test("a rename: expand at start, both builds on one database, svc migrate complete under the new server", async () => {
      const db = await fresh(backend, "rename");
      const old = await once("old", "  title: text", "title");
      const next = await once("new", "  headline: text renamed from title", "headline");

      let o = await start(old.out, db);
      const first = await create(o, "before");
      expect(await o.stop()).toBe(0);

      const n = await start(next.out, db);
      o = await start(old.out, db);
      const byOld = await create(o, "by old");
      const byNew = await create(n, "by new");
      for (const [id, text] of [[first, "before"], [byOld, "by old"], [byNew, "by new"]] as const) {
        expect(await read(o, id)).toBe(text);
        expect(await read(n, id)).toBe(text);
      }
      expect(await o.stop()).toBe(0);

      const plan = svc("migrate", "plan", "--db", db, "--module", next.src);
      expect(plan.out).toContain("note.headline renamed from title");
      expect(plan.status).toBe(0);
      const done = svc("migrate", "complete", "--db", db, "--module", next.src);
      expect(done.out).toContain("svc migrate complete: note.headline renamed from title: contract");
      expect(done.status).toBe(0);
      for (const [id, text] of [[first, "before"], [byOld, "by old"], [byNew, "by new"]] as const) expect(await read(n, id)).toBe(text);
      expect(await read(n, await create(n, "after"))).toBe("after");
      // The old build no longer matches the table, and says so.
      await expect(start(old.out, db)).rejects.toThrow(/column title|headline/);
    }, 60_000);

    const refuses = backend === "sqlite";
    test(`a retype in place: the new build ${refuses ? "refuses to serve once expanded" : "serves beside the old one through its views"}, and serves after complete`, async () => {
      const db = await fresh(backend, "retype");
      const old = await once("old-n", "  n: text", "n");
      const next = await once("new-n", "  n: int changed from text using (CAST(n AS INTEGER)) lossy", "n", "int");
      const o = await start(old.out, db);
      const id = await create(o, "42");
      if (refuses) {
        await expect(start(next.out, db)).rejects.toThrow(/note\.n changed from text: the column keeps its old type until contract[\s\S]*svc migrate complete/);
      } else {
        // MariaDB: each build reads the other's rows in its own type.
        const beside = await start(next.out, db);
        expect(await read(beside, id)).toBe(42);
        expect(await read(o, await create(beside, 5))).toBe("5");
        expect(await beside.stop()).toBe(0);
      }
      // Expand committed: the old build goes on serving, its writes carried to the new column.
      const later = await create(o, "7");
      expect(await read(o, later)).toBe("7");
      expect(await o.stop()).toBe(0);
      const done = svc("migrate", "complete", "--db", db, "--module", next.src);
      expect(done.out).toContain("svc migrate complete: note.n changed from text: contract");
      expect(done.status).toBe(0);
      const n = await start(next.out, db);
      expect(await read(n, id)).toBe(42);
      expect(await read(n, later)).toBe(7);
      expect(await read(n, await create(n, 9))).toBe(9);
    }, 60_000);
  });
}
