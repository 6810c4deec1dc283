// One test over every folder of fixtures/: run the compiler on `input/` and compare
// each output with `expected/`. `UPDATE_FIXTURES=1 npm run fixtures:update` rewrites
// the expectations on purpose; review the diff before committing it.

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/jest.js";
import { hasErrors } from "../../compiler/diagnostics/diagnostic.js";
import { build, formatDiagnostics } from "../../compiler/index.js";
import { parseModule, parseRouteFile } from "../../compiler/parse/index.js";
import { resolveTarget } from "../../compiler/cli/target.js";
import { repoRoot } from "../support/paths.js";

const FIXTURES = join(repoRoot, "fixtures");
const UPDATE = process.env.UPDATE_FIXTURES === "1";

interface CaseOptions {
  /** Also snapshot the AST of every .svc file under input/ as ast.json. */
  ast?: boolean;
  /** Another test prints this case's outputs (evolve-plan: evolve-plan.test.ts), not the compiler. */
  driver?: string;
}

function caseOptions(dir: string): CaseOptions {
  return existsSync(join(dir, "case.json")) ? JSON.parse(readFileSync(join(dir, "case.json"), "utf8")) : {};
}

async function outputs(dir: string): Promise<Map<string, string>> {
  const input = join(dir, "input");
  const options = caseOptions(dir);
  const target = resolveTarget({ positional: input });
  if (typeof target === "string") throw new Error(target);
  const out = new Map<string, string>();
  const result = await build(target, { runtimeImport: "svc/runtime" });
  if (result.diagnostics.length) out.set("diagnostics.txt", `${formatDiagnostics(result)}\n`);
  if (result.model && !hasErrors(result.diagnostics)) out.set("model.json", `${JSON.stringify(result.model, null, 2)}\n`);
  // server.ts and its companion sql.ts (the SQL it runs, per dialect).
  for (const name of ["server.ts", "sql.ts"]) {
    const file = result.files.find((f) => f.path === name);
    if (file) out.set(name, String(file.contents));
  }
  if (options.ast) {
    const asts = [...result.sources.entries()]
      .filter(([path]) => path.endsWith(".svc"))
      // Route files (app/**/route.svc, fixtures keep the default app folder) have their own grammar.
      .map(([path, text]) => (path.startsWith("app/") ? parseRouteFile(path, text).ast : parseModule(path, text).ast));
    out.set("ast.json", `${JSON.stringify(asts, null, 2)}\n`);
  }
  return out;
}

const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && caseOptions(join(FIXTURES, d.name)).driver === undefined)
  .map((d) => d.name)
  .sort();

describe("golden fixtures", () => {
  test("there are fixtures, each with an input folder", () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
    for (const c of cases) expect(existsSync(join(FIXTURES, c, "input"))).toBe(true);
  });

  test.each(cases)("%s", async (name) => {
    const dir = join(FIXTURES, name);
    const expectedDir = join(dir, "expected");
    const actual = await outputs(dir);
    if (UPDATE) {
      rmSync(expectedDir, { recursive: true, force: true });
      mkdirSync(expectedDir, { recursive: true });
      for (const [file, contents] of actual) writeFileSync(join(expectedDir, file), contents);
      return;
    }
    const expectedFiles = existsSync(expectedDir) ? readdirSync(expectedDir).sort() : [];
    expect([...actual.keys()].sort()).toEqual(expectedFiles);
    for (const file of expectedFiles) {
      expect(actual.get(file)).toBe(readFileSync(join(expectedDir, file), "utf8"));
    }
  });
});
