// The live database check of `svc lsp` against real servers: a project whose svc.toml names
// a PostgreSQL or MariaDB database, or a SQLite file, that differs from its resources. Turned on, a save gives
// exactly what `svc check --db` gives for the same project (codes, files, lines, columns,
// messages), on top of the checks made without a database; turned off again, those go.

import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import path, { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { fileURLToPath } from "node:url";
import { LspClient } from "../../bench/lsp/client.js";
import { repoRoot } from "../support/paths.js";
import { tmpDir } from "../support/server.js";
import { outDir } from "../backends/support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "../backends/support/databases.js";

const FILE = "modules/stock/stock.svc";

interface Seen {
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

/** `svc check`'s diagnostics as `file:line:col: severity CODE: message` lines, parsed. */
function svcCheck(project: string, db: string): Seen[] {
  const r = spawnSync(process.execPath, [join(outDir, "compiler", "cli", "svc.js"), "check", "--project", project, "--db", db], {
    encoding: "utf8",
    timeout: 60_000,
  });
  const seen: Seen[] = [];
  for (const m of (r.stdout + r.stderr).matchAll(/^(\S+):(\d+):(\d+): (?:error|warning|info) (SVC\d+): (.*)$/gm)) {
    seen.push({ file: m[1], line: Number(m[2]), column: Number(m[3]), code: m[4], message: m[5] });
  }
  return seen;
}

function published(client: LspClient, root: string): Seen[] {
  const seen: Seen[] = [];
  for (const [u, list] of client.diagnostics) {
    const file = path.relative(root, fileURLToPath(u));
    for (const d of list) {
      seen.push({ file, line: d.range.start.line + 1, column: d.range.start.character + 1, code: String(d.code), message: typeof d.message === "string" ? d.message : d.message.value });
    }
  }
  return seen;
}

const order = (list: Seen[]) => [...list].sort((a, b) => `${a.file}:${a.line}:${a.column}:${a.code}`.localeCompare(`${b.file}:${b.line}:${b.column}:${b.code}`));

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`svc lsp, live database on ${backend}`, () => {
    let ns: Namespace;
    let root: string;
    let client: LspClient;

    beforeAll(async () => {
      ns = await createNamespace(backend, "lsplive");
      root = tmpDir("lsp-live-");
      cpSync(join(repoRoot, "tests", "backends", "projects", "checkdb"), root, { recursive: true });
      const toml = join(root, "svc.toml");
      writeFileSync(toml, `${readFileSync(toml, "utf8")}\n[database]\nbackend = "${backend}"\nurl = "${ns.url}"\n`);
      // The live table has qty as text and one column more: the drift svc check --db reports.
      await ns.admin(
        backend === "postgres"
          ? `CREATE TABLE item (id text NOT NULL PRIMARY KEY, name text NOT NULL, qty text NOT NULL, extra text)`
          : `CREATE TABLE item (id VARCHAR(64) NOT NULL PRIMARY KEY, name TEXT NOT NULL, qty TEXT NOT NULL, extra TEXT)`,
      );
      client = new LspClient();
      const checked = client.nextCheck(root);
      await client.initialize([root]);
      await checked;
    }, 60_000);

    afterAll(async () => {
      await client?.stop();
      await ns?.drop();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    test("a save with the check on publishes what svc check --db reports, and turning it off takes it back", async () => {
      const file = path.join(root, FILE);
      const first = client.nextCheck(root);
      await client.open(file);
      await first;
      const offline = published(client, root);
      // The URL svc.toml names, which the server asks once the check is turned on.
      const expected = svcCheck(root, ns.url);
      const liveCodes = ["SVC3150", "SVC3151", "SVC3152", "SVC3153"];
      // Refused SQL, a row shape and column types that differ, and the schema's drift.
      expect(new Set(expected.filter((d) => liveCodes.includes(d.code)).map((d) => d.code))).toEqual(new Set(liveCodes));
      expect(offline.some((d) => liveCodes.includes(d.code))).toBe(false);

      await client.configure({ svc: { liveDatabase: true } });
      const live = client.nextCheck(root);
      await client.save(file);
      await live;
      expect(order(published(client, root))).toEqual(order(expected));

      // Turned off, the database's diagnostics go at once, without waiting for an edit.
      const again = client.nextCheck(root);
      await client.configure({ svc: { liveDatabase: false } });
      await again;
      expect(order(published(client, root))).toEqual(order(offline));
    }, 60_000);
  });
}

describe("svc lsp, live database on a SQLite file", () => {
  let root: string;
  let client: LspClient;

  beforeAll(async () => {
    root = tmpDir("lsp-live-sqlite-");
    cpSync(join(repoRoot, "tests", "backends", "projects", "checkdb"), root, { recursive: true });
    const toml = join(root, "svc.toml");
    // Relative, as svc.toml usually says it: found from the project's folder, not the editor's.
    writeFileSync(toml, `${readFileSync(toml, "utf8")}\n[database]\nbackend = "sqlite"\nurl = "sqlite:data/app.db"\n`);
    mkdirSync(join(root, "data"));
    // The file's table has a column the resource does not declare, and lacks qty (which start-up would add).
    const file = new BetterSqlite3(join(root, "data", "app.db"));
    file.exec("CREATE TABLE item (id TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL, extra TEXT NOT NULL)");
    file.close();
    client = new LspClient();
    const checked = client.nextCheck(root);
    await client.initialize([root]);
    await checked;
  }, 60_000);

  afterAll(async () => {
    await client?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("a save with the check on publishes what svc check --db reports for the file", async () => {
    const file = path.join(root, FILE);
    const first = client.nextCheck(root);
    await client.open(file);
    await first;
    const offline = published(client, root);
    const expected = svcCheck(root, join(root, "data", "app.db"));
    // The undeclared column, and the row shape it gives `SELECT *`.
    expect(expected.map((d) => d.code).filter((c) => c.startsWith("SVC315"))).toEqual(["SVC3153", "SVC3152"]);
    expect(offline.some((d) => d.code.startsWith("SVC315"))).toBe(false);

    await client.configure({ svc: { liveDatabase: true } });
    const live = client.nextCheck(root);
    await client.save(file);
    await live;
    expect(order(published(client, root))).toEqual(order(expected));
  }, 60_000);
});
