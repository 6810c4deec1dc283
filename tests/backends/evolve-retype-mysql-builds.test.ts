// Two successive builds retyping columns of one table in place on MariaDB (docs/migrations.md,
// MySQL/MariaDB), through real servers: b1 retypes `estimate`, b2 (deployed before b1 is
// contracted) retypes `estimate` and `hours`. Each build reads and writes the table through its
// own view database. `svc migrate complete` of b1's change is refused (b2's view names the
// shadow it would swap), so b1 and b2 keep serving their types; b2's complete swaps both, and
// its servers move to the app database. Every row written by any build is read back by each build still
// serving, in that build's types.

import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { type TestServer, removeDir, startServer, tmpDir } from "../support/server.js";
import { buildModule, outDir } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

type Build = "b0" | "b1" | "b2";

/** The module as build `b` declares it: b1 retypes estimate, b2 estimate and hours. */
function module(b: Build): string {
  const retyped = (f: string, nullable: string) => `${f}: int${nullable} changed from text using (CAST(${f} AS INTEGER)) lossy`;
  const estimate = b === "b0" ? "estimate: text" : retyped("estimate", "");
  const hours = b === "b2" ? retyped("hours", "?") : "hours: text?";
  const [e, h] = [b === "b0" ? "text" : "int", b === "b2" ? "int" : "text"];
  return (
    `module est\n\nresource job {\n  id: id\n  ${estimate}\n  ${hours}\n}\n\n` +
    `action create(e: ${e}, h: ${h}) {\n  return insert job { estimate: e, hours: h }\n}\n\n` +
    `query one(id: text) {\n  SELECT id, estimate, hours FROM job WHERE id = @id\n}\n`
  );
}

/** A value as build `b` sends and reads it: text before it retypes the column, an int after. */
function as(b: Build, column: "estimate" | "hours", value: number): string | number {
  const retyped = column === "estimate" ? b !== "b0" : b === "b2";
  return retyped ? value : String(value);
}

const ok = await backendAvailable("mysql");
(ok ? describe : describe.skip)("mysql: successive builds retyping one table in place", () => {
  let src: string;
  const dirs = new Map<Build, string>();
  let ns: Namespace;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    src = tmpDir("evolve-retype-builds-src-");
    for (const b of ["b0", "b1", "b2"] as const) dirs.set(b, await buildModule(src, b, module(b), `evolve-retype-builds-${b}-`));
    ns = await createNamespace("mysql", "retypebuilds");
  });

  afterAll(async () => {
    for (const s of servers) await s.stop();
    await ns?.drop();
    for (const d of [...dirs.values(), src]) if (d) removeDir(d);
  });

  const complete = (b: Build) =>
    new Promise<{ status: number | null; out: string }>((resolve) =>
      execFile(process.execPath, [join(outDir, "compiler", "cli", "svc.js"), "migrate", "complete", "--db", ns.url, "--module", join(src, b)], { encoding: "utf8", timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ status: err === null ? 0 : ((err as { code?: number }).code ?? 1), out: stdout + stderr }),
      ),
    );
  const viewDatabases = async () =>
    (await ns.admin(`SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ? ORDER BY 1`, [`${ns.name}\\_svc\\_%`])).map((r) => String(r.name));

  test("each build reads and writes its own types at every step; the first complete leaves both serving, the second swaps both", async () => {
    const start = async (b: Build) => {
      const s = await startServer(dirs.get(b)!, ["--db", ns.url, "--workers", "1"]);
      servers.push(s);
      return s;
    };
    const rows: { id: string; e: number; h: number }[] = [];
    const create = async (server: TestServer, b: Build, e: number, h: number) => {
      const a = await call(`${server.url}/api/est:create`, { json: { e: as(b, "estimate", e), h: as(b, "hours", h) } });
      expect(a.status).toBe(200);
      expect([a.json.data.estimate, a.json.data.hours]).toEqual([as(b, "estimate", e), as(b, "hours", h)]);
      rows.push({ id: a.json.data.id, e, h });
    };
    const readsAll = async (server: TestServer, b: Build) => {
      for (const r of rows) {
        const a = await call(`${server.url}/api/est:one?id=${r.id}`);
        expect(a.status).toBe(200);
        expect(a.json.data).toEqual([{ id: r.id, estimate: as(b, "estimate", r.e), hours: as(b, "hours", r.h) }]);
      }
    };

    const s0 = await start("b0");
    await create(s0, "b0", 1, 2);
    const s1 = await start("b1");
    const s2 = await start("b2");
    // Two view databases: b1's (estimate's shadow) and b2's (both shadows).
    expect(await viewDatabases()).toHaveLength(2);
    await create(s1, "b1", 3, 4);
    await create(s2, "b2", 5, 6);
    await create(s0, "b0", 7, 8);
    for (const [s, b] of [[s0, "b0"], [s1, "b1"], [s2, "b2"]] as const) await readsAll(s, b);

    // b0 is gone. b1's complete would swap estimate's shadow, which b2's view names: it is
    // refused, changing nothing, and both builds serve on.
    expect(await s0.stop()).toBe(0);
    const first = await complete("b1");
    expect(first.status).not.toBe(0);
    expect(first.out).toContain("job: a later build retypes another column in place; complete with that build");
    await create(s1, "b1", 9, 10);
    await create(s2, "b2", 11, 12);
    for (const [s, b] of [[s1, "b1"], [s2, "b2"]] as const) await readsAll(s, b);
    expect(await viewDatabases()).toHaveLength(2);

    // b1 is gone: b2's complete swaps both columns in and drops the view databases; b2 serves on.
    expect(await s1.stop()).toBe(0);
    const second = await complete("b2");
    expect(second.out).not.toMatch(/error/i);
    expect(second.status).toBe(0);
    expect(await viewDatabases()).toEqual([]);
    const cols = await ns.admin(`SELECT COLUMN_NAME AS c, DATA_TYPE AS t FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'job' ORDER BY ORDINAL_POSITION`, [ns.name]);
    expect(cols.map((c) => String(c.c))).toEqual(["id", "estimate", "hours"]);
    expect(cols.slice(1).map((c) => String(c.t))).toEqual(["int", "int"].map((t) => expect.stringContaining(t) as unknown as string));
    await readsAll(s2, "b2");
    await create(s2, "b2", 13, 14);
    await readsAll(s2, "b2");
    // A server of b2 started now serves from the table.
    const s2b = await start("b2");
    await readsAll(s2b, "b2");
  }, 180_000);
});
