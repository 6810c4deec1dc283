// The portability corpus (issue 31, part 1): the SQL docs/language.md and docs/backends.md
// teach, one construct a query (tests/backends/projects/portability), run through a real
// generated server on SQLite, PostgreSQL and MariaDB: every backend answers SQLite's
// transcript, byte for byte once ids are renamed. It extends same-json.test.ts (types, JSON
// builders, errors) and names.test.ts (`user`, `rank`, camelCase) with joins, aggregates,
// grouping, paging, lists, NULL order, text comparison, CASE, booleans, times, subqueries,
// CTEs, UNION, window functions, division, and names that are keywords elsewhere. What SQL
// cannot say alike everywhere is refused (or warned of) at build time for the backend the
// project declares: the last block builds such a project per construct and asserts the code.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "../../compiler/index.js";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";
import { removeDir } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { backendAvailable } from "./support/databases.js";
import { type Step, Transcript, serversPerBackend } from "./support/transcript.js";

const available = { postgres: await backendAvailable("postgres"), mysql: await backendAvailable("mysql") };

const ITEMS = [
  { name: "alpha", note: "first", qty: 3, price: 2.5, active: true, at: "2024-05-01T10:00:00.000Z", grp: "x", key: "k1", interval: 2, itemCode: "A-1" },
  { name: "Beta", note: null, qty: 12, price: 0.1, active: false, at: "2024-05-02T00:00:00Z", grp: "y", key: null, interval: 0, itemCode: null },
  { name: "gamma", note: "Crème", qty: 0, price: 10, active: true, at: "2024-04-30T23:59:59.999Z", grp: "x", key: "k0", interval: 5, itemCode: "g" },
  { name: "delta", note: null, qty: -4, price: 1.25, active: false, at: "2024-05-01T00:00:00Z", grp: null, key: "k2", interval: 2, itemCode: null },
  { name: "epsilon", note: "", qty: 7, price: 0, active: true, at: "2024-05-03T12:30:00.5Z", grp: "y", key: null, interval: 1, itemCode: "e" },
];

async function transcript(url: string): Promise<Step[]> {
  const t = new Transcript(`${url}/api/portability`);
  const { record } = t;
  const ids: Record<string, string> = {};
  for (const item of ITEMS) ids[item.name] = (await record(`add ${item.name}`, "add_item", item)).data.id;
  const sales: [string, number, string][] = [
    ["alpha", 2, "2024-05-04T00:00:00Z"],
    ["alpha", 9, "2024-05-05T00:00:00Z"],
    ["Beta", 1, "2024-05-04T12:00:00Z"],
    ["gamma", 200, "2024-05-06T00:00:00Z"],
    ["epsilon", 4, "2024-05-07T00:00:00Z"],
  ];
  for (const [name, n, at] of sales) await record(`sale ${name} ${n}`, "add_sale", { item: ids[name], n, at });
  for (const q of [
    "joined",
    "left_joined",
    "groups?min=2",
    "groups?min=3",
    "aggregates",
    "empty_aggregates",
    "paged?limit=2&offset=0",
    "paged?limit=2&offset=2",
    "paged?limit=10&offset=4",
    `by_names?names=${encodeURIComponent('["alpha","gamma","zeta"]')}`,
    `by_names?names=${encodeURIComponent("[]")}`,
    `by_qty?qtys=${encodeURIComponent("[0,7,-4]")}`,
    "nulls_ascending",
    "nulls_descending",
    "named?name=alpha",
    "named?name=ALPHA",
    "named?name=beta",
    `matching?pattern=${encodeURIComponent("%A%")}`,
    `matching?pattern=${encodeURIComponent("b_ta")}`,
    "strings",
    "arithmetic",
    "division",
    "conditions",
    "active_items?active=true",
    "active_items?active=false",
    "truthy",
    `since?t=${encodeURIComponent("2024-05-01T00:00:00Z")}`,
    `since?t=${encodeURIComponent("2024-05-01T12:00:00+02:00")}`,
    `between_times?a=${encodeURIComponent("2024-05-04T00:00:00Z")}&b=${encodeURIComponent("2024-05-06T00:00:00Z")}`,
    "before_literal",
    "subqueries",
    "from_subquery",
    "with_cte",
    "unions",
    "distinct_groups",
    "keywords",
    "camel",
    "json_built",
    "windowed",
  ]) {
    await record(q, q);
  }
  await record("restock x", "restock", { grp: "x", by: 10 });
  await record("after restock", "left_joined");
  await record("after restock, items", "strings");
  return t.steps;
}

let dir: string;
const servers = serversPerBackend(() => dir, "portability.db", "portability");

beforeAll(async () => {
  dir = await buildServer({ mode: "module", dir: join(repoRoot, "tests", "backends", "projects", "portability", "portability") });
});

afterAll(async () => {
  await servers.stopAll();
  removeDir(dir);
});

describe("the portability corpus answers alike on every backend", () => {
  let reference: Step[];

  beforeAll(async () => {
    reference = await transcript(await servers.serve("sqlite"));
  });

  test("sqlite: every step succeeds", () => {
    expect(reference.filter((s) => s.status !== 200).map((s) => [s.step, s.status, s.body])).toEqual([]);
  });

  for (const backend of ["postgres", "mysql"] as const) {
    (available[backend] ? test : test.skip)(`${backend}: the same transcript as sqlite`, async () => {
      const steps = await transcript(await servers.serve(backend));
      const differing = steps
        .map((s, i) => [s, reference[i]] as const)
        .filter(([s, r]) => JSON.stringify(s) !== JSON.stringify(r))
        .map(([s, r]) => ({ step: s.step, [backend]: s.body, sqlite: r?.body }));
      expect(differing).toEqual([]);
    });
  }
});

/** The codes a build of one query reports when svc.toml declares `backend`. */
async function codes(backend: "postgres" | "mysql", sql: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "svc-portability-"));
  try {
    mkdirSync(join(dir, "modules", "refused"), { recursive: true });
    writeFileSync(join(dir, "svc.toml"), `[project]\nname = "refused"\nversion = "0.1.0"\n\n[database]\nbackend = "${backend}"\n\n[modules]\ndirs = ["modules/*"]\n`);
    writeFileSync(
      join(dir, "modules", "refused", "refused.svc"),
      `module refused\n\nresource item {\n  id: id\n  name: text\n  note: text?\n  qty: int = 0\n  active: bool = false\n  at: timestamp = now()\n}\n\nquery q() {\n  ${sql}\n}\n`,
    );
    const result = await build({ mode: "project", dir }, { pretty: false });
    return [...new Set(result.diagnostics.filter((d) => d.code.startsWith("SVC31")).map((d) => `${d.severity} ${d.code}`))];
  } finally {
    removeDir(dir);
  }
}

describe("what does not port is refused at build, with the fix in the hint", () => {
  test.each<["postgres" | "mysql", string, string[]]>([
    // SQLite's case-insensitive LIKE: the portable spelling is lower(x) LIKE lower(@p), as the corpus writes it.
    ["postgres", "SELECT name FROM item WHERE name LIKE 'a%'", ["warning SVC3111"]],
    ["mysql", "SELECT name FROM item WHERE name LIKE 'a%'", ["warning SVC3111"]],
    ["postgres", "SELECT ifnull(note, '') AS n FROM item", ["error SVC3101"]],
    ["postgres", "SELECT name FROM item WHERE name == 'a'", ["error SVC3102"]],
    ["mysql", "SELECT CAST(qty AS INTEGER) AS n FROM item", ["error SVC3109"]],
    ["mysql", "SELECT name FROM item ORDER BY note NULLS LAST", ["error SVC3108"]],
    ["postgres", "SELECT name FROM item WHERE active = 1", ["error SVC3112"]],
    ["postgres", "SELECT name FROM item LIMIT 1, 2", ["error SVC3105"]],
    ["mysql", "SELECT name FROM item WHERE at > date('now')", ["error SVC3114"]],
    ["postgres", "SELECT strftime('%Y', at) AS y FROM item", ["error SVC3101"]],
    ["mysql", "SELECT max(qty, 1) AS m FROM item", ["error SVC3113"]],
  ])("%s: %s", async (backend, sql, expected) => {
    expect(await codes(backend, sql)).toEqual(expected);
  });

  test("the corpus spellings build without errors on both backends (LIKE keeps its warning, which cannot see lower() on both sides)", async () => {
    for (const backend of ["postgres", "mysql"] as const) {
      expect(await codes(backend, "SELECT name, qty / 2 AS half FROM item WHERE lower(name) LIKE lower('A%') ORDER BY note, name")).toEqual(["warning SVC3111"]);
    }
  });
});
