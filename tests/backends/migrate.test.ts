// The schema at start on PostgreSQL and MySQL/MariaDB (docs/language.md §2.1, as
// tests/http/migrate.test.ts checks it on SQLite): missing tables are created, nullable
// or defaulted columns added, every other difference refused naming table and column;
// several servers starting at once against an empty database all start, and make the
// table once.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer, outDir } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace, waitFor } from "./support/databases.js";

const work = join(outDir, "tmp", `be-migrate-src-${process.pid}`);
const dirs: string[] = [work];

afterAll(() => {
  for (const d of dirs) removeDir(d);
});

/** A one-module project whose `item` resource has the given fields. */
async function version(name: string, fields: string, withAdd = true): Promise<string> {
  const src = join(work, name);
  mkdirSync(src, { recursive: true });
  writeFileSync(
    join(src, "m.svc"),
    `module m\n\nresource item {\n  id: id\n${fields}\n}\n\nquery items() {\n  SELECT * FROM item ORDER BY id\n}\n${withAdd ? "\naction add(name: text) {\n  return insert item { name: name }\n}\n" : ""}`,
  );
  const out = await buildServer({ mode: "module", dir: src });
  dirs.push(out);
  return out;
}

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend}: schema at start`, () => {
    let ns: Namespace;
    const start = (dir: string, db = ns.url): Promise<TestServer> => startServer(dir, ["--db", db, "--workers", "1"]);

    afterAll(async () => {
      await ns?.drop();
    });

    test("v1 creates the table; v2 adds nullable and defaulted columns and an index, and keeps the data", async () => {
      ns = await createNamespace(backend, "migrate");
      const v1 = await version(`${backend}-v1`, "  name: text");
      let s = await start(v1);
      await call(`${s.url}/api/m:add`, { json: { name: "first" } });
      expect(await s.stop()).toBe(0);

      const v2 = await version(
        `${backend}-v2`,
        "  name: text\n  note: text?\n  count: int = 7\n  seen: timestamp = now()\n  index (name)",
      );
      s = await start(v2);
      const r = await call(`${s.url}/api/m:items`);
      expect(r.json.data).toEqual([
        {
          id: expect.any(String),
          name: "first",
          note: null,
          count: 7,
          seen: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ]);
      expect(await s.stop()).toBe(0);
      // Started again, nothing is left to do, and nothing fails for it.
      s = await start(v2);
      expect((await call(`${s.url}/api/m:items`)).json.data).toHaveLength(1);
      expect(await s.stop()).toBe(0);
      const indexes =
        backend === "postgres"
          ? await ns.admin(
              `SELECT indexname AS name FROM pg_indexes WHERE schemaname = '${ns.name}' AND tablename = 'item'`,
            )
          : await ns.admin(
              `SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = '${ns.name}' AND TABLE_NAME = 'item'`,
            );
      expect(indexes.map((i) => i.name)).toContain("item_name_idx");
    });

    test("a dropped column stops the server with a message naming table and column", async () => {
      const v3 = await version(`${backend}-v3`, "  name: text\n  count: int = 7\n  seen: timestamp = now()");
      await expect(start(v3)).rejects.toThrow(/table item: column note is in the database but not declared/);
    });

    test("a retyped column stops the server too", async () => {
      const v4 = await version(
        `${backend}-v4`,
        "  name: int\n  note: text?\n  count: int = 7\n  seen: timestamp = now()",
        false,
      );
      await expect(start(v4)).rejects.toThrow(
        /table item: column name is \w+ in the database but declared \w+; add `changed from <its old type>` on the field/,
      );
    });

    test("a column made nullable stops the server", async () => {
      const v5 = await version(
        `${backend}-v5`,
        "  name: text?\n  note: text?\n  count: int = 7\n  seen: timestamp = now()",
      );
      await expect(start(v5)).rejects.toThrow(
        /table item: column name is NOT NULL in the database but declared nullable/,
      );
    });

    test("a new required column without a default stops the server, and nothing of its start is left behind", async () => {
      const v6 = await version(
        `${backend}-v6`,
        "  name: text\n  note: text?\n  count: int = 7\n  seen: timestamp = now()\n  owner: text\n  extra: text?",
        false,
      );
      await expect(start(v6)).rejects.toThrow(/column owner is declared NOT NULL without a default/);
      const columns =
        backend === "postgres"
          ? await ns.admin(
              `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = '${ns.name}' AND table_name = 'item'`,
            )
          : await ns.admin(
              `SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '${ns.name}' AND TABLE_NAME = 'item'`,
            );
      expect(columns.map((c) => c.name)).not.toContain("extra");
    });

    test("five servers starting at once against an empty database all start and make the table once", async () => {
      const fresh = await createNamespace(backend, "migrate_race");
      try {
        const v2 = await version(`${backend}-race`, "  name: text\n  note: text?\n  index (name)\n  unique (note)");
        const servers = await Promise.all(Array.from({ length: 5 }, () => start(v2, fresh.url)));
        const added = await Promise.all(
          servers.map((s, i) => call(`${s.url}/api/m:add`, { json: { name: `from ${i}` } })),
        );
        expect(added.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
        expect((await call(`${servers[0].url}/api/m:items`)).json.data).toHaveLength(5);
        for (const s of servers) expect(await s.stop()).toBe(0);
      } finally {
        await fresh.drop();
      }
    });

    if (backend === "postgres") {
      test("the migration's connection is closed once the server has started; one action's transaction opens another", async () => {
        const fresh = await createNamespace(backend, "migrate_conns");
        let s: TestServer | null = null;
        try {
          // Two statements make `rename` a transaction; `add`, one statement, runs outside one.
          const src = join(work, "conns");
          mkdirSync(src, { recursive: true });
          writeFileSync(
            join(src, "m.svc"),
            `module m\n\nresource item {\n  id: id\n  name: text\n}\n\naction add(name: text) {\n  return insert item { name: name }\n}\n\naction rename(id: id, name: text) {\n  let item = get item(id)\n  if item == null { fail 404 "no such item" }\n  return update item(id) { name: name }\n}\n`,
          );
          const out = await buildServer({ mode: "module", dir: src });
          dirs.push(out);
          const appName = `svc_conns_${process.pid}`;
          const url = new URL(fresh.url);
          url.searchParams.set("application_name", appName);
          const query = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1";
          const connections = async (): Promise<number> => Number((await fresh.admin(query, [appName]))[0].n);
          s = await start(out, url.toString());
          // The lane that checked the statements at start; the migration's client has gone
          // (before, it stayed a minute, until postgres.js's idle timeout).
          await waitFor("one connection", async () => ((await connections()) === 1 ? true : null), 5_000);
          expect(await connections()).toBe(1);
          const added = await call(`${s.url}/api/m:add`, { json: { name: "a" } });
          expect(added.status).toBe(200);
          expect(await connections()).toBe(1);
          const renamed = await call(`${s.url}/api/m:rename`, { json: { id: added.json.data.id, name: "b" } });
          expect(renamed.json.data.name).toBe("b");
          expect(await connections()).toBe(2);
          const server = s;
          s = null;
          expect(await server.stop()).toBe(0);
        } finally {
          // A failed check must not leave the server running (jest would wait for it).
          await s?.stop();
          await fresh.drop();
        }
      });
    }
  });
}
