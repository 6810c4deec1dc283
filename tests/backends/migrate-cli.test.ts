// `svc migrate plan|apply|complete --db postgres://…` (docs/migrations.md) as a user runs it:
// exit codes, the plan's SQL (a golden: fixtures/evolve-plan-postgres/plan/postgres.sql, every kind of change),
// differences no declaration explains as diagnostics at the resource, then apply and complete
// with the data intact and the plan saying every change is done.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";
import { removeDir, tmpDir } from "../support/server.js";
import { outDir } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const FIXTURE = join(repoRoot, "fixtures", "evolve-plan-postgres");

const V1 = `module m

resource task {
  id: id
  title: text
  estimate: text?
  owner: text?
  legacy: text
}

resource audit_old {
  id: id
  note: text
}

query tasks() {
  SELECT * FROM task ORDER BY id
}
`;

function svc(...args: string[]): { status: number | null; out: string; stdout: string } {
  const r = spawnSync(process.execPath, [join(outDir, "compiler", "cli", "svc.js"), ...args], { encoding: "utf8", timeout: 60_000 });
  return { status: r.status, out: r.stdout + r.stderr, stdout: r.stdout };
}

describe("svc migrate: arguments", () => {
  test("a URL of another kind of database is refused with exit 2", () => {
    const r = svc("migrate", "plan", "--db", "redis://127.0.0.1/0", "--module", join(FIXTURE, "input"));
    expect(r.status).toBe(2);
    expect(r.out).toContain("give a postgres:// or mysql:// URL, or a SQLite file");
  });

  test("a SQLite file: apply creates the tables, plan prints the steps, complete contracts", () => {
    const dir = tmpDir("migrate-cli-sqlite-");
    try {
      const v1 = join(dir, "v1");
      mkdirSync(v1);
      writeFileSync(join(v1, "m.svc"), V1);
      const file = join(dir, "app.db");
      // A plan never creates the file it is asked about.
      expect(svc("migrate", "plan", "--db", file, "--module", v1).status).toBe(1);
      expect(existsSync(file)).toBe(false);
      expect(svc("migrate", "apply", "--db", file, "--module", v1)).toMatchObject({ status: 0, out: "svc migrate apply: created task, audit_old\n" });
      const plan = svc("migrate", "plan", "--db", file, "--module", join(FIXTURE, "input"));
      expect(plan.status).toBe(0);
      expect(plan.out).toContain("-- task.headline renamed from title (not begun)");
      expect(svc("migrate", "apply", "--db", file, "--module", join(FIXTURE, "input")).status).toBe(0);
      const complete = svc("migrate", "complete", "--db", file, "--module", join(FIXTURE, "input"));
      expect(complete.status).toBe(0);
      expect(complete.out).toContain("svc migrate complete: drop resource audit_old: contract");
    } finally {
      removeDir(dir);
    }
  });

  test("an unreachable database exits 1, the password hidden", () => {
    const r = svc("migrate", "plan", "--db", "postgres://app:s3cret@127.0.0.1:1/app?connect_timeout_ms=500", "--module", join(FIXTURE, "input"));
    expect(r.status).toBe(1);
    expect(r.out).toContain("svc migrate plan:");
    expect(r.out).not.toContain("s3cret");
  });
});

const ok = await backendAvailable("postgres");
(ok ? describe : describe.skip)("svc migrate against PostgreSQL", () => {
  let ns: Namespace;
  let work: string;
  const module = (name: string, text: string): string => {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "m.svc"), text);
    return dir;
  };

  beforeAll(async () => {
    ns = await createNamespace("postgres", "migratecli");
    work = tmpDir("migrate-cli-");
  });

  afterAll(async () => {
    const views = await ns.admin(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [`${ns.name}_svc_%`]);
    for (const v of views) await ns.admin(`DROP SCHEMA "${String(v.nspname)}" CASCADE`);
    await ns.drop();
    removeDir(work);
  });

  test("plan prints every kind of change as SQL; apply expands; complete contracts; the data stays", async () => {
    const v1 = module("v1", V1);
    const v2 = join(FIXTURE, "input");
    expect(svc("migrate", "apply", "--db", ns.url, "--module", v1)).toMatchObject({ status: 0, out: "svc migrate apply: created task, audit_old\n" });
    await ns.admin(`INSERT INTO task (id, title, estimate, owner, legacy) VALUES ('1', 'a', '1', NULL, 'x'), ('2', 'b', '2', 'bob', 'y')`);

    const plan = svc("migrate", "plan", "--db", ns.url, "--module", v2);
    expect(plan.status).toBe(0);
    // The namespace differs per run: the golden names it `app`.
    const text = plan.stdout.split(ns.name).join("app").replace(/^-- svc migrate plan: .*, build/m, "-- svc migrate plan: postgres://…, build");
    const golden = join(FIXTURE, "plan", "postgres.sql");
    if (process.env.UPDATE_FIXTURES === "1" || !existsSync(golden)) {
      mkdirSync(join(FIXTURE, "plan"), { recursive: true });
      writeFileSync(golden, text);
    }
    expect(text).toBe(readFileSync(golden, "utf8"));

    const json = JSON.parse(svc("migrate", "plan", "--db", ns.url, "--module", v2, "--json").stdout) as { changes: { change: string; status: string }[] };
    expect(json.changes.map((c) => c.status)).toEqual(json.changes.map(() => "not begun"));

    const applied = svc("migrate", "apply", "--db", ns.url, "--module", v2);
    expect(applied.status).toBe(0);
    expect(applied.out).toContain("svc migrate apply: task.headline renamed from title: expand, 8 steps, 2 rows\n");
    // The old build still starts (its schema check reads the open changes from svc_migrations).
    expect(svc("migrate", "apply", "--db", ns.url, "--module", v1)).toMatchObject({ status: 0, out: "svc migrate apply: nothing to do\n" });
    await ns.admin(`INSERT INTO task (id, title, estimate, owner, legacy) VALUES ('3', 'c', '3', NULL, 'z')`);

    const completed = svc("migrate", "complete", "--db", ns.url, "--module", v2);
    expect(completed.status).toBe(0);
    expect(completed.out).toContain("svc migrate complete: drop resource audit_old: contract, 1 step\n");
    expect(await ns.admin(`SELECT id, headline, estimate, owner FROM task ORDER BY id`)).toEqual([
      { id: "1", headline: "a", estimate: "1", owner: "nobody" },
      { id: "2", headline: "b", estimate: "2", owner: "bob" },
      { id: "3", headline: "c", estimate: "3", owner: "nobody" },
    ]);
    const after = svc("migrate", "plan", "--db", ns.url, "--module", v2);
    expect(after.status).toBe(0);
    expect(after.out).toContain("-- done (complete on this database; the declarations may be removed):\n--   task.headline renamed from title\n");
  });

  test("a difference no declaration explains is a diagnostic at the resource naming the declaration to add", async () => {
    // The live table has `headline` and `estimate` (bigint); this build calls the column `summary`.
    const wrong = module("wrong", V1.replace("  title: text\n", "  summary: text\n  headline: text\n").replace("  estimate: text?\n", "  estimate: bool? changed from text using (estimate = '1') lossy\n"));
    const r = svc("migrate", "plan", "--db", ns.url, "--module", wrong);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/m\.svc:3:10: error SVC8121: task\.estimate changed from text: column estimate is bigint in the database, not the type the declaration changes from/);
    expect(r.out).toMatch(/m\.svc:3:10: error SVC8120: the live table `task` does not match: column summary is declared NOT NULL without a default/);
    expect(r.out).toContain("svc migrate plan: ");
    // Nothing ran: apply refuses too.
    const apply = svc("migrate", "apply", "--db", ns.url, "--module", wrong);
    expect(apply.status).toBe(1);
    expect(apply.out).toContain("declare the change (docs/migrations.md)");
  });
});
