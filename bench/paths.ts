import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Where things are, from the compiled bench's own location: <repo>/<outDir>/bench/paths.js. */
export interface BenchPaths {
  repoRoot: string;
  /** The tsc output dir this bench was compiled into (build/ for `npm run bench`). */
  buildDir: string;
  svcCli: string;
  exampleProject: string;
  bareServer: string;
  fastifyServer: string;
  driver: string;
  resultsDir: string;
}

export function benchPaths(): BenchPaths {
  const benchDir = dirname(fileURLToPath(import.meta.url));
  const buildDir = resolve(benchDir, "..");
  const repoRoot = resolve(buildDir, "..");
  if (!existsSync(join(repoRoot, "package.json")) || !existsSync(join(repoRoot, "bench"))) {
    throw new Error(`the bench expects to run from <repo>/<outDir>/bench/, but ${repoRoot} is not the repository root`);
  }
  return {
    repoRoot,
    buildDir,
    svcCli: join(buildDir, "compiler", "cli", "svc.js"),
    exampleProject: join(repoRoot, "examples", "task_tracker"),
    bareServer: join(benchDir, "baselines", "bare.js"),
    fastifyServer: join(benchDir, "baselines", "fastify.js"),
    driver: join(benchDir, "driver.js"),
    resultsDir: join(repoRoot, "bench", "results"),
  };
}
