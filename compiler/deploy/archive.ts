// The deploy archive (docs/language.md §7, `svc deploy`): everything a machine with only Node needs
// to run the project with `node server.js`:
//
//   server.js, server.ts, sql.js, sql.ts, package.json   the generated server ("type": "module")
//   public/                               the project's public/ files, which server.js reads at start
//   start.sh                              cd to the archive's folder, then `node server.js "$@"` (templates/output/)
//   node_modules/svc/                     the compiled runtime, exported as `svc/runtime`
//   node_modules/<package>/               the runtime's production dependencies (native ones as built here)
//   app/, modules/, svc.toml               the project's sources, as built
//
// The generated server embeds its pages, so the sources are for whoever reads the archive, not
// for the server; public/ is the build's own output, the bytes the build checked.

import { readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildResult } from "../index.js";
import { readTemplate } from "../templates.js";
import { dependencyClosure, importedPackages, packageFiles, walk } from "./closure.js";
import { type TarEntry, writeTarGz } from "./tar.js";

/** Where the compiled runtime is: beside the compiled compiler this file is part of. */
export const RUNTIME_DIR = fileURLToPath(new URL("../../runtime/", import.meta.url));

export interface ArchiveContents {
  entries: TarEntry[];
  /** Packages copied under node_modules/ (besides svc), as `name@version`. */
  packages: string[];
}

/** The archive's entries for a successful build of the project at `build.root`. */
export function archiveEntries(build: BuildResult, runtimeDir: string = RUNTIME_DIR): ArchiveContents {
  if (build.model === null || build.files.length === 0) throw new Error("the project has errors; nothing to deploy");
  const entries: TarEntry[] = [];
  for (const f of build.files) entries.push({ path: f.path, data: Buffer.from(f.contents) });
  entries.push({ path: "start.sh", data: Buffer.from(readTemplate("output/start.sh")), mode: 0o755 });

  entries.push({ path: "node_modules/svc/package.json", data: Buffer.from(svcManifest(runtimeDir)) });
  for (const file of walk(runtimeDir)) {
    if (!file.endsWith(".js")) continue;
    entries.push({
      path: `node_modules/svc/build/runtime/${slash(relative(runtimeDir, file))}`,
      data: readFileSync(file),
    });
  }

  const usesJqWeb = build.model.app?.pages.some((p) => p.loader?.kind === "jq") ?? false;
  const declared = svcDependencies(runtimeDir);
  // Only names svc itself depends on: a scan of JavaScript text also sees `from "…"` in comments.
  const roots = importedPackages(runtimeDir).filter((n) => declared.has(n) && (n !== "jq-web" || usesJqWeb));
  const packages = dependencyClosure(roots, runtimeDir);
  for (const f of packageFiles(packages)) {
    entries.push({ path: `node_modules/${f.target}`, data: readFileSync(f.source), mode: f.mode });
  }

  // Sources (modules, svc.toml, route files, pages, layout) as they were built.
  for (const s of build.model.sources) {
    entries.push({ path: s, data: readFileSync(join(build.root, s)) });
  }
  return { entries, packages: packages.map((p) => `${p.name}@${p.version}`) };
}

/** The `.tar.gz` bytes of the archive. */
export function deployArchive(
  build: BuildResult,
  runtimeDir: string = RUNTIME_DIR,
): { bytes: Buffer; packages: string[] } {
  const { entries, packages } = archiveEntries(build, runtimeDir);
  return { bytes: writeTarGz(entries), packages };
}

/** svc's package.json for the archive: only the runtime export, so `import "svc/runtime"` resolves there. */
function svcManifest(runtimeDir: string): string {
  const own = readSvcManifest(runtimeDir);
  return `${JSON.stringify(
    {
      name: "svc",
      version: own.version ?? "0.0.0",
      type: "module",
      exports: { "./runtime": "./build/runtime/index.js" },
    },
    null,
    2,
  )}\n`;
}

function svcDependencies(runtimeDir: string): Set<string> {
  return new Set(Object.keys(readSvcManifest(runtimeDir).dependencies ?? {}));
}

/** The runtime sits at `<svc>/<build dir>/runtime`, so svc's package.json is two folders up. */
function readSvcManifest(runtimeDir: string): { version?: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(dirname(dirname(runtimeDir.replace(/[\\/]$/, ""))), "package.json"), "utf8")) as {
    version?: string;
    dependencies?: Record<string, string>;
  };
}

function slash(path: string): string {
  return path.split(sep).join("/");
}
