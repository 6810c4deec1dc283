// A rename under load (issue 35, target 1), on PostgreSQL and on MariaDB: three servers of the old build serve
// creates and reads while two servers of the new build, whose field is `renamed from` the old
// one, start beside them (the first expands the change at start, the second finds it done),
// and all five serve at once; then the old servers stop and `svc migrate complete` contracts.
// No request may fail, and every row written by either build must read back, with its value,
// through both builds while both run, and through the new one after the contract.

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import { call } from "../../support/http.js";
import { type TestServer, removeDir, startServer, tmpDir } from "../../support/server.js";
import { buildServer, outDir } from "./build.js";
import { type Namespace, type NetBackend, backendAvailable, createNamespace } from "./databases.js";

const RUN_MS = 4000;
const CLIENTS_PER_SERVER = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const module = (field: string) => `module notes

resource note {
  id: id
  ${field}
}

action create(text: text) {
  return insert note { ${field.split(":")[0]}: text }
}

query one(id: text) {
  SELECT id, ${field.split(":")[0]} AS text FROM note WHERE id = @id
}
`;

interface Build {
  name: "old" | "new";
  servers: TestServer[];
}

/** The describe of one backend; each test file calls it once (the suites run apart). */
export async function rollingRename(backend: NetBackend): Promise<void> {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend}: a rename under load, old and new builds side by side`, () => {
    let src: string;
    let oldDir: string;
    let newDir: string;
    let ns: Namespace;
    const servers: TestServer[] = [];

    beforeAll(async () => {
      src = tmpDir("evolve-rolling-src-");
      for (const [name, field] of [["old", "title: text"], ["new", "headline: text renamed from title"]] as const) {
        mkdirSync(join(src, name), { recursive: true });
        writeFileSync(join(src, name, "notes.svc"), module(field));
      }
      // One after the other: the builds share the compiler's modules.
      oldDir = await buildServer({ mode: "module", dir: join(src, "old") }, "evolve-old-");
      newDir = await buildServer({ mode: "module", dir: join(src, "new") }, "evolve-new-");
      ns = await createNamespace(backend, "evolverolling");
    });

    afterAll(async () => {
      for (const s of servers) await s.stop();
      await ns?.drop();
      for (const d of [oldDir, newDir, src]) if (d) removeDir(d);
    });

    test("zero failed requests; every row readable by both builds with its value; complete keeps them", async () => {
      const url = new URL(ns.url);
      url.searchParams.set("pool_size", "3");
      const db = url.toString();
      const olds: Build = { name: "old", servers: await Promise.all([0, 1, 2].map(() => startServer(oldDir, ["--db", db, "--workers", "1"]))) };
      const news: Build = { name: "new", servers: [] };
      servers.push(...olds.servers);

      const failed: string[] = [];
      const wrong: string[] = [];
      const created: { id: string; text: string; by: string }[] = [];
      // The old build serves alone until the new one has started; then all five serve for RUN_MS.
      let until = Number.POSITIVE_INFINITY;
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
      const read = async (server: TestServer, row: { id: string; text: string }, who: string) => {
        const a = await call(`${server.url}/api/notes:one?id=${row.id}`);
        if (a.status !== 200) failed.push(`${who} one ${a.status} ${a.text}`);
        else if (a.json.data?.[0]?.text !== row.text) wrong.push(`${who} one ${row.id}: ${a.text}, wrote ${row.text}`);
      };
      const client = async (build: Build, c: number) => {
        for (let i = 0; Date.now() < until; i++) {
          const server = pick(build.servers);
          if (i % 2 === 0 || created.length === 0) {
            const text = `${build.name} c${c} n${i}`;
            const a = await call(`${server.url}/api/notes:create`, { json: { text } });
            if (a.status !== 200) failed.push(`${build.name} create ${a.status} ${a.text}`);
            else created.push({ id: a.json.data.id, text, by: build.name });
          } else {
            // Any row, written by either build, through this build.
            await read(server, pick(created), build.name);
          }
        }
      };
      const load = [...Array.from({ length: CLIENTS_PER_SERVER * 3 }, (_, c) => client(olds, c))];
      await sleep(RUN_MS / 4);
      // The first new server expands at start (under the migration lock); the second waits, then finds it done.
      news.servers.push(...(await Promise.all([0, 1].map(() => startServer(newDir, ["--db", db, "--workers", "1"])))));
      servers.push(...news.servers);
      until = Date.now() + RUN_MS;
      load.push(...Array.from({ length: CLIENTS_PER_SERVER * 2 }, (_, c) => client(news, c)));
      await Promise.all(load);

      // Every row through both builds, while both still run.
      for (const row of created) {
        await read(pick(olds.servers), row, "old after");
        await read(pick(news.servers), row, "new after");
      }
      const byNew = created.filter((r) => r.by === "new").length;
      console.log(`evolve rolling: ${created.length} rows (${byNew} by the new build), ${failed.length} failed, ${wrong.length} wrong`);
      expect(byNew).toBeGreaterThan(0);
      expect(failed).toEqual([]);
      expect(wrong).toEqual([]);

      for (const s of olds.servers) expect(await s.stop()).toBe(0);
      const complete = spawnSync(process.execPath, [join(outDir, "compiler", "cli", "svc.js"), "migrate", "complete", "--db", db, "--module", join(src, "new")], { encoding: "utf8", timeout: 60_000 });
      expect(complete.stderr).toBe("");
      expect(complete.stdout).toContain("svc migrate complete: note.headline renamed from title: contract");
      expect(complete.status).toBe(0);
      for (const row of created) await read(pick(news.servers), row, "new after complete");
      expect(failed).toEqual([]);
      expect(wrong).toEqual([]);
      const columns = await ns.admin(
        backend === "postgres"
          ? "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'note' ORDER BY ordinal_position"
          : "SELECT COLUMN_NAME AS column_name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'note' ORDER BY ORDINAL_POSITION",
        [ns.name],
      );
      expect(columns.map((r) => r.column_name)).toEqual(["id", "headline"]);
    }, 120_000);
  });
}
