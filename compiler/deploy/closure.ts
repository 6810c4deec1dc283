// The files a deployed server needs from node_modules: the packages the compiled runtime
// loads at run time and everything they depend on, found the way Node resolves them
// (a package's own node_modules, then each parent's). The compiler's own dependencies
// (ts-morph, prettier, chevrotain…) are never reached from the runtime, so they stay out.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** Installers and build tools a package lists as a dependency but never loads once installed. */
const INSTALL_ONLY = new Set([
  "prebuild-install",
  "node-gyp",
  "node-gyp-build-optional-packages",
  "node-addon-api",
  "nan",
]);

export interface PackageFile {
  /** Absolute path on this machine. */
  source: string;
  /** Forward-slash path under the archive's node_modules/, e.g. `better-sqlite3/lib/index.js`. */
  target: string;
  mode: number;
}

export interface ResolvedPackage {
  name: string;
  version: string;
  dir: string;
}

/**
 * Bare package names that the JavaScript files under `dir` import or require: `from "x"`,
 * `import("x")`, `require("x")`, `require.resolve("x/…")`. `node:` built-ins are left out.
 */
export function importedPackages(dir: string): string[] {
  const names = new Set<string>();
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire(?:\.resolve)?\s*\(\s*)["']([^"'./][^"']*)["']/g;
  for (const file of walk(dir)) {
    if (!file.endsWith(".js")) continue;
    for (const m of readFileSync(file, "utf8").matchAll(pattern)) {
      const spec = m[1];
      if (spec.startsWith("node:")) continue;
      const parts = spec.split("/");
      names.add(spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
    }
  }
  return [...names].sort();
}

/**
 * Every package reachable from `roots` through `dependencies` (optional ones when
 * installed), resolved from `from` (a folder inside the project whose node_modules holds
 * them). Throws naming a root or dependency that is not installed.
 */
export function dependencyClosure(roots: readonly string[], from: string): ResolvedPackage[] {
  const found = new Map<string, ResolvedPackage>();
  const visit = (name: string, fromDir: string, optional: boolean, via: string): void => {
    if (INSTALL_ONLY.has(name)) return;
    const dir = resolvePackageDir(name, fromDir);
    if (dir === null) {
      if (optional) return;
      throw new Error(`${name} (needed by ${via}) is not installed; run npm install`);
    }
    if (found.has(dir)) return;
    const manifest = readManifest(dir);
    found.set(dir, { name, version: manifest.version ?? "0.0.0", dir });
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false, name);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true, name);
  };
  for (const root of roots) visit(root, from, false, "the runtime");
  return [...found.values()].sort((a, b) => (a.dir < b.dir ? -1 : 1));
}

/**
 * The files of each package, placed under node_modules/ as they sit relative to the
 * node_modules folder that holds them. A package with a native addon (a binding.gyp)
 * keeps only its compiled `build/Release/*.node` of the build output: its C sources and
 * object files are for building, and the addon was built for this platform at install.
 */
export function packageFiles(packages: readonly ResolvedPackage[]): PackageFile[] {
  const files: PackageFile[] = [];
  for (const pkg of packages) {
    const native = existsSync(join(pkg.dir, "binding.gyp"));
    const base = nodeModulesRoot(pkg.dir);
    for (const file of walk(
      pkg.dir,
      (d) => d === join(pkg.dir, "node_modules") || (native && isBuildInput(pkg.dir, d)),
    )) {
      const rel = relative(pkg.dir, file).split(sep).join("/");
      if (native && rel.startsWith("build/") && !/^build\/Release\/[^/]+\.node$/.test(rel)) continue;
      if (/\.(d\.ts|d\.mts|d\.cts|map|md)$/i.test(rel) && !/^(license|licence)/i.test(rel)) continue;
      const stat = statSync(file);
      files.push({ source: file, target: relative(base, file).split(sep).join("/"), mode: stat.mode & 0o777 });
    }
  }
  return files;
}

function isBuildInput(pkgDir: string, dir: string): boolean {
  return (
    dir === join(pkgDir, "deps") ||
    dir === join(pkgDir, "src") ||
    dir === join(pkgDir, "build", "Release", "obj.target")
  );
}

/** Node's lookup: `<dir>/node_modules/<name>` from `fromDir` up to the filesystem root. */
export function resolvePackageDir(name: string, fromDir: string): string | null {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The node_modules folder a package directory sits in (for a scoped package, above its scope). */
function nodeModulesRoot(pkgDir: string): string {
  let dir = dirname(pkgDir);
  if (dir.split(sep).pop()?.startsWith("@")) dir = dirname(dir);
  return dir;
}

interface Manifest {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
}

/** Files under `dir`, sorted, following symlinks to files; `skip` prunes folders. */
export function walk(dir: string, skip: (dir: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat === undefined) continue;
      if (stat.isDirectory()) {
        if (!skip(path)) visit(path);
      } else if (stat.isFile()) {
        out.push(path);
      }
    }
  };
  visit(dir);
  return out;
}
