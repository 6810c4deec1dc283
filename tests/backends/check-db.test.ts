// `svc check --db URL` (issue 5, part 4): every statement prepared and described by the
// live database, mismatches reported at file:line:col, and the database left as it was.

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";
import { outDir } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const PROJECT = join(repoRoot, "tests", "backends", "projects", "checkdb");
const FILE = "modules/stock/stock.svc";

function svcCheck(...args: string[]): { status: number | null; out: string } {
  const r = spawnSync(
    process.execPath,
    [join(outDir, "compiler", "cli", "svc.js"), "check", "--project", PROJECT, ...args],
    {
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  return { status: r.status, out: r.stdout + r.stderr };
}

describe("svc check --db: arguments", () => {
  test("a URL that is not postgres:// or mysql:// (nor a SQLite file), or that contradicts --backend, is refused", () => {
    expect(svcCheck("--db", "redis://127.0.0.1/0")).toMatchObject({
      status: 2,
      out: expect.stringContaining("is not a postgres:// or mysql:// URL, nor a SQLite file"),
    });
    // A SQLite file is checked, and never created.
    expect(svcCheck("--db", "no/such/app.db")).toMatchObject({
      status: 1,
      out: expect.stringContaining("error SVC3154: cannot check against no/such/app.db"),
    });
    expect(svcCheck("--backend", "postgres", "--db", "mysql://root@127.0.0.1/x")).toMatchObject({
      status: 2,
      out: expect.stringContaining("--backend postgres does not match --db mysql://root@127.0.0.1/x"),
    });
  });

  test("a database that cannot be reached is an error, with the password hidden", () => {
    const r = svcCheck("--db", "postgres://app:s3cret@127.0.0.1:1/app?connect_timeout_ms=500");
    expect(r.status).toBe(1);
    expect(r.out).toContain("error SVC3154: cannot check against postgres://app:***@127.0.0.1:1/app");
    expect(r.out).not.toContain("s3cret");
  });

  test("--backend alone checks SQL for that backend, without a database", () => {
    const r = svcCheck("--backend", "postgres");
    expect(r.status).toBe(0);
    expect(r.out).toContain("svc check: 0 errors");
  });
});

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`svc check --db ${backend}`, () => {
    let ns: Namespace;

    beforeAll(async () => {
      ns = await createNamespace(backend, "checkdb");
    });

    afterAll(async () => {
      await ns?.drop();
    });

    const tables = async () =>
      backend === "postgres"
        ? (
            await ns.admin(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = '${ns.name}'`)
          ).map((r) => r.t)
        : (
            await ns.admin(`SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${ns.name}'`)
          ).map((r) => r.t);

    test("an empty database: the statement it refuses, where it points, and the database left empty", async () => {
      const r = svcCheck("--db", ns.url);
      expect(r.status).toBe(1);
      // `qty` on line 20, column 16: the bare column beside GROUP BY.
      expect(r.out).toContain(
        `${FILE}:20:16: error SVC3150: ${backend === "postgres" ? "PostgreSQL" : "MySQL"} refuses the SQL of query \`by_name\``,
      );
      expect(r.out).toMatch(/> 20 \|\s+SELECT name, qty FROM item\n\s+\|\s+\^\^\^/);
      expect(r.out).toContain("svc check: 1 error, 0 warnings (against");
      // Typed expression columns (count, JSON functions, EXISTS) meet their live types.
      expect(r.out).not.toContain("summary");
      expect(await tables()).toEqual([]);
    });

    test("a live table that differs: the schema problem, and what svc's types and columns would meet", async () => {
      const ddl =
        backend === "postgres"
          ? `CREATE TABLE item (id text NOT NULL PRIMARY KEY, name text NOT NULL, qty text NOT NULL, extra text)`
          : `CREATE TABLE item (id VARCHAR(64) NOT NULL PRIMARY KEY, name TEXT NOT NULL, qty TEXT NOT NULL, extra TEXT)`;
      await ns.admin(ddl);
      const r = svcCheck("--db", ns.url);
      expect(r.status).toBe(1);
      expect(r.out).toMatch(
        /modules\/stock\/stock\.svc:3:10: error SVC3153: resource `item`: column qty is text in the database but declared (bigint|BIGINT); add `changed from <its old type>`/,
      );
      expect(r.out).toContain("error SVC3153: resource `item`: column extra is in the database but not declared");
      expect(r.out).toContain(
        `${FILE}:10:7: error SVC3152: query \`items\` returns id, name, qty, extra in the database, but id, name, qty to svc`,
      );
      expect(r.out).toContain(
        `${FILE}:14:7: warning SVC3151: column \`qty\` of query \`counts\` is int to svc but text in the database`,
      );
      expect(await tables()).toEqual(["item"]);
    });
  });
}
