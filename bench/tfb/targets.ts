// The implementations `npm run bench:tfb` can put side by side. Each is prepared once (a build,
// for svc) and then started per run with the `--db` URL of its own seeded schema. To add one,
// add an entry to TARGETS.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { BenchPaths } from "../paths.js";
import type { Resources } from "../resources.js";
import type { ServerSpec } from "../server-process.js";
import { buildSvc } from "../svc-build.js";
import type { LoadRequest } from "../endpoints.js";
import { TFB_PATHS, type TestType } from "./verify.js";

export interface PreparedTarget {
  /** The server on the database at `dbUrl` (a `postgres://…?schema=` URL). */
  spec(dbUrl: string): ServerSpec;
  /** Paths where they are not TFB's (/json, /db, /queries?queries=, …). */
  paths?: Partial<Record<TestType, string>>;
  /**
   * The server creates its own tables at start and refuses others (svc): it is started once
   * on the empty schema, then the rows are seeded into its tables.
   */
  ownsSchema: boolean;
}

export interface TfbTarget {
  name: string;
  /** Throws, saying why, when the target cannot run here. */
  prepare(paths: BenchPaths, tmp: string, resources: Resources): Promise<PreparedTarget>;
}

const baseline = (name: string, script: string[]): TfbTarget => ({
  name,
  prepare: async (paths, tmp) => ({
    spec: (dbUrl) => ({
      name,
      args: [join(paths.buildDir, "bench", "tfb", ...script), "--db", dbUrl, "--stop-with-stdin"],
      cwd: tmp,
      readyPath: "/json",
    }),
    ownsSchema: false,
  }),
});

/** svc's TFB app (issue 31): one process (`--workers 1`), as the baselines are, request log off. */
const svc: TfbTarget = {
  name: "svc",
  prepare: async (paths, tmp, resources) => {
    const project = join(paths.repoRoot, "examples", "techempower");
    if (!existsSync(join(project, "svc.toml"))) throw new Error(`${project} does not exist yet`);
    const build = await buildSvc({ ...paths, exampleProject: project }, join(tmp, "svc-dist"), resources);
    if (!build.ok) throw new Error(`svc build failed: ${build.reason}`);
    return {
      spec: (dbUrl) => ({
        name: "svc",
        args: [build.serverJs, "--db", dbUrl, "--log-level", "error", ...(build.acceptsWorkers ? ["--workers", "1"] : [])],
        cwd: tmp,
        readyPath: "/json",
      }),
      ownsSchema: true,
    };
  },
};

export const TARGETS: readonly TfbTarget[] = [
  baseline("bare", ["bare.js"]),
  baseline("fastify", ["fastify", "server.js"]),
  svc,
];

/** The request each load connection repeats for `test` on a target. */
export function tfbRequest(test: TestType, prepared: PreparedTarget, queries: number): LoadRequest {
  const path = prepared.paths?.[test] ?? TFB_PATHS[test];
  return { method: "GET", path: test === "queries" || test === "updates" ? `${path}${queries}` : path };
}
