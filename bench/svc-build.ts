import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BenchPaths } from "./paths.js";
import type { Resources } from "./resources.js";

const BUILD_TIMEOUT_MS = 120_000;
const HELP_TIMEOUT_MS = 15_000;
const OUTPUT_TAIL_CHARS = 3000;

export type SvcBuild = { ok: true; serverJs: string; acceptsWorkers: boolean } | { ok: false; reason: string };

/**
 * `svc build --project examples/task_tracker --out <outDir>`. Any failure is a reason to skip
 * the svc server (the baselines still run), never a crash of the bench.
 */
export async function buildSvc(paths: BenchPaths, outDir: string, resources: Resources): Promise<SvcBuild> {
  if (!existsSync(paths.svcCli)) return { ok: false, reason: `the svc CLI is not built (${paths.svcCli} is missing)` };
  if (!existsSync(paths.exampleProject)) {
    return { ok: false, reason: `the example project ${paths.exampleProject} is missing` };
  }
  const args = [paths.svcCli, "build", "--project", paths.exampleProject, "--out", outDir];
  const command = `node ${args.join(" ")}`;
  const build = await runNode(args, paths.repoRoot, BUILD_TIMEOUT_MS, resources);
  if (build.code !== 0) return { ok: false, reason: `\`${command}\` failed (${build.code}):\n${build.output.trim()}` };
  const serverJs = join(outDir, "server.js");
  if (!existsSync(serverJs)) return { ok: false, reason: `\`${command}\` succeeded but wrote no ${serverJs}` };
  installRuntimePackage(paths, dirname(outDir));
  // --workers is in the spec but may not be implemented yet; passing an unknown flag would
  // stop the server, so ask its --help first.
  const help = await runNode([serverJs, "--help"], dirname(outDir), HELP_TIMEOUT_MS, resources);
  return { ok: true, serverJs, acceptsWorkers: /--workers\b/.test(help.output) };
}

/** Runs `node <args>` to completion, keeping the tail of its output; killed after `timeoutMs`. */
function runNode(
  args: string[],
  cwd: string,
  timeoutMs: number,
  resources: Resources,
): Promise<{ code: number | string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    resources.track(child);
    let output = "";
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_TAIL_CHARS);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeoutMs / 1000} s)`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: error.message, output });
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? "unknown", output });
    });
  });
}

/**
 * The generated server imports `svc/runtime`, as it would when svc is an installed dependency.
 * This makes `<dir>/node_modules/svc` such an installed copy: the repository's package.json
 * `exports` (which point into ./build/) with ./build linked to the output dir this bench was
 * compiled into, so the server runs against the same compile as the bench. Node resolves the
 * link to its real path, so the runtime's own imports find the repository's node_modules.
 */
function installRuntimePackage(paths: BenchPaths, dir: string): void {
  const manifest = JSON.parse(readFileSync(join(paths.repoRoot, "package.json"), "utf8")) as {
    name: string;
    exports: unknown;
  };
  const target = join(dir, "node_modules", manifest.name);
  mkdirSync(target, { recursive: true });
  writeFileSync(
    join(target, "package.json"),
    JSON.stringify({ name: manifest.name, type: "module", exports: manifest.exports }, null, 2),
  );
  symlinkSync(paths.buildDir, join(target, "build"), "dir");
}
