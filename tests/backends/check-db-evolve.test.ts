// `svc check --db` against a database where declared changes are not complete (docs/backends.md,
// docs/migrations.md): it checks the statements against the tables as the plan leaves them, so a
// pending rename and a pending retype pass and are named, while a column nothing accounts for
// is still refused, both as a difference (SVC3153) and in the statement that uses it (SVC3150).

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "../support/jest.js";
import BetterSqlite3 from "better-sqlite3";
import { repoRoot } from "../support/paths.js";
import { removeDir, tmpDir } from "../support/server.js";
import { outDir } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const PROJECT = join(repoRoot, "tests", "backends", "projects", "checkdb-evolve");

function svc(...args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [join(outDir, "compiler", "cli", "svc.js"), ...args], { encoding: "utf8", timeout: 90_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`svc check --db ${backend} with declared changes pending`, () => {
    let ns: Namespace;
    const name = backend === "postgres" ? "PostgreSQL" : "MySQL";

    beforeEach(async () => {
      ns = await createNamespace(backend, "checkevolve");
      // The table as the build before declared it: `title`, and `estimate` as text.
      await ns.admin(
        backend === "postgres"
          ? `CREATE TABLE job (id text NOT NULL PRIMARY KEY, title text NOT NULL, estimate text)`
          : `CREATE TABLE job (id VARCHAR(64) NOT NULL PRIMARY KEY, title TEXT NOT NULL, estimate TEXT)`,
      );
      await ns.admin(`INSERT INTO job (id, title, estimate) VALUES ('a', 'one', '5')`);
    });

    afterEach(async () => {
      if (backend === "postgres") {
        for (const v of await ns.admin(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [`${ns.name}_svc_%`])) await ns.admin(`DROP SCHEMA "${String(v.nspname)}" CASCADE`);
      }
      await ns?.drop();
    });

    const columns = async () =>
      (
        await ns.admin(
          backend === "postgres"
            ? `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = '${ns.name}' AND table_name = 'job' ORDER BY ordinal_position`
            : `SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '${ns.name}' AND TABLE_NAME = 'job' ORDER BY ORDINAL_POSITION`,
        )
      ).map((r) => String(r.c));

    test("a pending rename and retype: the statements pass against the planned table, the changes are named, nothing changes", async () => {
      const r = svc("check", "--module", join(PROJECT, "pending"), "--db", ns.url);
      expect(r.out).not.toContain("SVC3153");
      expect(r.out).not.toContain("SVC3150");
      expect(r.out).not.toContain("SVC3151");
      expect(r.out).toContain(
        "svc check: 2 declared changes not complete on " +
          `${ns.url.replace(/:[^:@/]*@/, ":***@")}, checked as done: job.headline renamed from title (not begun), job.estimate changed from text (not begun); ` +
          "`svc migrate plan --db …` shows the steps",
      );
      expect(r.out).toMatch(/svc check: 0 errors, [01] warnings? \(against /);
      expect(r.status).toBe(0);
      expect(await columns()).toEqual(["id", "title", "estimate"]);

      // Expanded (servers of both builds may run): the same, the changes now open.
      const applied = svc("migrate", "apply", "--module", join(PROJECT, "pending"), "--db", ns.url);
      expect(applied.status).toBe(0);
      const again = svc("check", "--module", join(PROJECT, "pending"), "--db", ns.url);
      expect(again.out).toContain("job.headline renamed from title (open), job.estimate changed from text (open)");
      expect(again.status).toBe(0);
    }, 120_000);

    test("a column neither live nor planned is still a difference, and a statement using it is refused", async () => {
      const r = svc("check", "--module", join(PROJECT, "unplanned"), "--db", ns.url);
      expect(r.status).toBe(1);
      expect(r.out).toMatch(/error SVC3153: resource `job`: column due is declared NOT NULL without a default, so it cannot be added/);
      expect(r.out).toMatch(new RegExp(`jobs\\.svc:\\d+:\\d+: error SVC3150: ${name} refuses the SQL of query \`late\``));
      // The renamed and retyped columns are not what is refused.
      expect(r.out).not.toMatch(/SVC3150: [^\n]*query `big`/);
      expect(r.out).not.toContain("headline is not in the database");
      expect(r.out).toContain("svc check: 2 declared changes not complete");
    }, 120_000);
  });
}

describe("svc check --db <SQLite file> with declared changes pending", () => {
  let dir: string;
  let file: string;
  const columns = () => {
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      return (db.prepare(`PRAGMA table_info("job")`).all() as { name: string }[]).map((c) => c.name);
    } finally {
      db.close();
    }
  };

  beforeEach(() => {
    dir = tmpDir("check-evolve-sqlite-");
    file = join(dir, "app.db");
    const db = new BetterSqlite3(file);
    db.exec(`CREATE TABLE job (id TEXT NOT NULL PRIMARY KEY, title TEXT NOT NULL, estimate TEXT); INSERT INTO job VALUES ('a', 'one', '5')`);
    db.close();
  });

  afterEach(() => removeDir(dir));

  test("a pending rename and retype pass and are named; expanded, they are open; the file is left as it was", () => {
    const r = svc("check", "--module", join(PROJECT, "pending"), "--db", file);
    expect(r.out).not.toMatch(/SVC31(50|52|53)/);
    expect(r.out).toContain(`svc check: 2 declared changes not complete on ${file}, checked as done: job.headline renamed from title (not begun), job.estimate changed from text (not begun)`);
    expect(r.status).toBe(0);
    expect(columns()).toEqual(["id", "title", "estimate"]);
    expect(svc("migrate", "apply", "--module", join(PROJECT, "pending"), "--db", file).status).toBe(0);
    const again = svc("check", "--module", join(PROJECT, "pending"), "--db", file);
    expect(again.out).toContain("job.headline renamed from title (open), job.estimate changed from text (open)");
    expect(again.status).toBe(0);
  }, 120_000);

  test("a column neither live nor planned is still a difference, and a statement using it is refused", () => {
    const r = svc("check", "--module", join(PROJECT, "unplanned"), "--db", file);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/error SVC3153: resource `job`: column due is declared NOT NULL without a default/);
    expect(r.out).toMatch(/jobs\.svc:17:\d+: error SVC3150: SQLite refuses the SQL of query `late`: no such column: due/);
    expect(r.out).not.toMatch(/SVC3150: [^\n]*query `big`/);
    expect(columns()).toEqual(["id", "title", "estimate"]);
  }, 120_000);
});
