// The build cache on real inputs: every golden fixture (errors of every kind included) and
// the task tracker through a run of edits must build exactly as they do without it.

import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../../support/jest.js";
import { BuildCache } from "../../../compiler/dev/build-cache.js";
import { resolveTarget } from "../../../compiler/cli/target.js";
import { type BuildResult, type DiscoverTarget, build, formatDiagnostics } from "../../../compiler/index.js";
import { repoRoot } from "../../support/paths.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const FIXTURES = join(repoRoot, "fixtures");
const fixtures = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

function expectSame(cached: BuildResult, cold: BuildResult): void {
  expect(cached.diagnostics).toEqual(cold.diagnostics);
  expect(formatDiagnostics(cached)).toBe(formatDiagnostics(cold));
  expect(JSON.stringify(cached.model)).toBe(JSON.stringify(cold.model));
  expect(cached.files).toEqual(cold.files);
}

describe("a build with the cache is the build without it", () => {
  test.each(fixtures)("fixture %s, with the cache empty and then full", async (name) => {
    const target = resolveTarget({ positional: join(FIXTURES, name, "input") });
    if (typeof target === "string") throw new Error(target);
    const options = { pretty: false, runtimeImport: "svc/runtime" };
    const cold = await build(target, options);
    const cache = new BuildCache();
    expectSame(await build(target, { ...options, cache }), cold);
    expectSame(await build(target, { ...options, cache }), cold);
    // The second time round nothing is parsed or checked again.
    const s = cache.stats;
    expect([s.parsed, s.sqlChecked, s.schemasLoaded, s.templatesChecked, s.jqCompiled]).toEqual([0, 0, 0, 0, 0]);
    cache.dispose();
  });

  test("examples/task_tracker through a run of edits, server.ts and all", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-build-cache-tt-"));
    made.push(dir);
    for (const part of ["svc.toml", "modules", "app", "public"]) {
      cpSync(join(repoRoot, "examples", "task_tracker", part), join(dir, part), { recursive: true });
    }
    const target: DiscoverTarget = { mode: "project", dir };
    const edit = (path: string, from: string | RegExp, to: string) => {
      const file = join(dir, path);
      const text = readFileSync(file, "utf8");
      const next = text.replace(from, to);
      if (next === text) throw new Error(`${path}: nothing matches ${String(from)}`);
      writeFileSync(file, next);
    };
    const module = "modules/task_tracker/task_tracker.svc";
    const edits: [string, () => void][] = [
      ["nothing yet", () => undefined],
      ["a page template", () => edit("app/tasks/page.html", /<h1>Tasks<\/h1>/, "<h1>Tasks, all of them</h1>")],
      ["a query", () => edit(module, "SELECT * FROM task WHERE id = @id", "SELECT *\n  FROM task\n  WHERE id = @id")],
      ["a query, broken", () => edit(module, "WHERE status = 'open'", "WHERE state = 'open'")],
      ["the same query, mended", () => edit(module, "WHERE state = 'open'", "WHERE status = 'open'")],
      ["a resource", () => edit(module, "  completed_at: timestamp?\n", "  completed_at: timestamp?\n  due_at: timestamp?\n")],
      ["page.jq", () => edit("app/tasks/page.jq", "{records: .records}", "{records: .records, count: (.records | length)}")],
      ["a route file", () => edit("app/api/task_tracker/route.svc", ", offset: input.query.offset }", " }")],
      ["the layout", () => edit("app/layout.html", "</body>", "<footer>svc</footer>\n</body>")],
      ["an action", () => edit(module, `fail "title is required"`, `fail "a title is required"`)],
    ];
    const cache = new BuildCache();
    const options = { pretty: false, runtimeImport: "svc/runtime" };
    for (const [what, step] of edits) {
      step();
      const cold = await build(target, options);
      expectSame(await build(target, { ...options, cache }), cold);
      // Only the broken query is meant to stop the build.
      expect([what, cold.files.length > 0]).toEqual([what, what !== "a query, broken"]);
    }
    // The one that ships: prettier's server.ts, from the same model.
    const cached = await build(target, { runtimeImport: "svc/runtime", cache });
    const cold = await build(target, { runtimeImport: "svc/runtime" });
    expect(cached.files.find((f) => f.path === "server.ts")?.contents).toBe(cold.files.find((f) => f.path === "server.ts")?.contents);
    expect(cached.files.length).toBeGreaterThan(0);
    cache.dispose();
  });
});
