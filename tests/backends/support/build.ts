import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DiscoverTarget } from "../../../compiler/project/discover.js";
import { buildFiles, serverBuild, writeFiles } from "../../support/build-cache.js";

/**
 * The folder this test run was compiled into (`build/` for `npm test`, or a helper's own
 * out dir): the generated servers import the runtime compiled alongside the tests, so a
 * run tests the runtime of its own compile.
 */
export const outDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** Builds a project into a fresh folder under `<outDir>/tmp` (inside the repository, where the drivers resolve). */
export async function buildServer(target: DiscoverTarget, prefix = "be-"): Promise<string> {
  const base = join(outDir, "tmp");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, prefix));
  writeFiles(dir, await buildFiles(target, serverBuild("../../runtime/index.js")));
  return dir;
}

/**
 * Writes `source` as `est.svc` in the module folder `<src>/<name>` and builds it: one build of
 * a schema change (old, new) as the evolve tests deploy them. The built server's folder.
 */
export async function buildModule(src: string, name: string, source: string, prefix: string): Promise<string> {
  mkdirSync(join(src, name), { recursive: true });
  writeFileSync(join(src, name, "est.svc"), source);
  return buildServer({ mode: "module", dir: join(src, name) }, prefix);
}
