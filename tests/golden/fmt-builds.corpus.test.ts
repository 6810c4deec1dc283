// A corpus (npm run test:corpora; CI runs it): it builds every fixture and example twice.
// `svc fmt` changes layout, never meaning: every fixture and example that builds builds to
// the same server.ts after its .svc files are scrambled (tests/unit/fmt/corpus.ts) and then
// formatted, in a copy under build/tmp.

import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { resolveTarget } from "../../compiler/cli/target.js";
import { svcFiles } from "../../compiler/fmt/files.js";
import { formatSvc } from "../../compiler/fmt/index.js";
import { build } from "../../compiler/index.js";
import { repoRoot } from "../support/paths.js";
import { tmpDir } from "../support/server.js";
import { scramble } from "../unit/fmt/corpus.js";

const projects = [
  ...readdirSync(join(repoRoot, "fixtures")).map((c) => join("fixtures", c, "input")),
  ...readdirSync(join(repoRoot, "examples")).map((e) => join("examples", e)),
]
  .filter((dir) => existsSync(join(repoRoot, dir)))
  .sort();

const work = tmpDir("fmt-builds-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function serverTs(dir: string): Promise<string | null> {
  const target = resolveTarget({ positional: dir });
  if (typeof target === "string") throw new Error(target);
  const result = await build(target, { runtimeImport: "svc/runtime", pretty: false, apiOutputs: false });
  const server = result.files.find((f) => f.path === "server.ts");
  return server ? String(server.contents) : null;
}

describe("formatted projects build to the same server.ts", () => {
  test.each(projects)("%s", async (project) => {
    const original = join(repoRoot, project);
    const before = await serverTs(original);
    if (before === null) return; // a fixture of diagnostics: nothing to compare
    // The same folder name: a project is named after its folder.
    const copy = join(work, project);
    cpSync(original, copy, { recursive: true });
    for (const file of svcFiles([copy])) {
      const name = relative(copy, file);
      writeFileSync(file, formatSvc(scramble(name, readFileSync(file, "utf8")), name));
    }
    expect(await serverTs(copy)).toBe(before);
  });
});
