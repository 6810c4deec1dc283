// One build per project per test run. Many suites build the same example or test project
// (examples/accounts alone is built by a dozen files), and a build is a few seconds of a
// core (ts-morph, prettier, TypeScript's transpile). The first suite to build a project
// keeps its output files under build/.test-cache, keyed by a hash of every file below the
// project's folder and the build options; every later build of the same inputs in the
// same run reads them back. Each test still gets its own fresh output folder, so tests stay
// independent: only the generated files are shared, never a folder a server writes in.
//
// The cache lives for one jest run: tests/support/global-setup.ts empties it at the start,
// so a compiler changed (and recompiled) between runs is never served a stale build.
// Builds that fail are not kept: the caller reports the diagnostics as before.
//
// The compiler itself is imported only when a build is not in the cache: loading it (ts-morph,
// prettier, TypeScript) costs more than a second of a core in every suite that does.

import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { DiscoverTarget } from "../../compiler/project/discover.js";
import type { BuildOptions, OutputFile } from "../../compiler/index.js";
import { testCacheDir } from "./paths.js";

interface Stored {
  path: string;
  text?: string;
  base64?: string;
}

/**
 * The files a build of `target` with `options` writes, built now or read back from this run's
 * cache. A build with errors throws, its diagnostics rendered with code frames.
 */
export async function buildFiles(target: DiscoverTarget, options: BuildOptions): Promise<OutputFile[]> {
  const file = cacheFile(target, options);
  const hit = read(file);
  if (hit !== null) return hit;
  const { build, formatDiagnostics } = await loadCompiler();
  const result = await build(target, options);
  if (result.files.length === 0) throw new Error(`build failed:\n${formatDiagnostics(result)}`);
  write(file, result.files);
  return result.files;
}

let compiler: Promise<typeof import("../../compiler/index.js")> | null = null;

/**
 * One import of the compiler per suite, however many builds start at once: two concurrent
 * `import()`s of its graph (which has a top-level await) let jest's module loader hand the
 * second a module still evaluating ("Cannot access 'parser' before initialization").
 */
function loadCompiler(): Promise<typeof import("../../compiler/index.js")> {
  compiler ??= import("../../compiler/index.js");
  return compiler;
}

/**
 * The options of a build whose server a test runs: unformatted. Prettier only reformats (about
 * a second of a core a build, of the few it takes); the golden fixtures and the CLI tests
 * check the formatted output, and every other test runs the same program either way.
 */
export function serverBuild(runtimeImport: string): BuildOptions {
  return { runtimeImport, pretty: false };
}

/** Writes a build's files below `dir`, as the compiler's writeOutputFiles does, without loading the compiler. */
export function writeFiles(dir: string, files: readonly OutputFile[]): void {
  for (const f of files) {
    const path = join(dir, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.contents);
  }
}

/** Where a build of these inputs is kept (it may not exist yet). */
export function cacheFile(target: DiscoverTarget, options: BuildOptions): string {
  return join(testCacheDir, `${cacheKey(target, options)}.json`);
}

function cacheKey(target: DiscoverTarget, options: BuildOptions): string {
  const hash = createHash("sha256");
  // The folder itself too: its name is the project's name when svc.toml gives none.
  hash.update(JSON.stringify({ dir: resolve(target.dir), mode: target.mode, options }));
  hashTree(hash, resolve(target.dir), "");
  return hash.digest("hex").slice(0, 32);
}

/** Every file below `dir` (names and bytes, sorted), node_modules aside: whatever a build may read. */
function hashTree(hash: ReturnType<typeof createHash>, dir: string, rel: string): void {
  let entries;
  try {
    entries = readdirSync(join(dir, rel), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) {
      if (e.name === "node_modules" || e.name === ".git") continue;
      hash.update(`dir ${path}\0`);
      hashTree(hash, dir, path);
    } else {
      let bytes: Buffer;
      try {
        bytes = readFileSync(join(dir, path));
      } catch {
        continue;
      }
      hash.update(`file ${path} ${bytes.length}\0`);
      hash.update(bytes);
    }
  }
}

function read(file: string): OutputFile[] | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const stored = JSON.parse(text) as Stored[];
  return stored.map((s) => ({ path: s.path, contents: s.base64 !== undefined ? Buffer.from(s.base64, "base64") : s.text! }));
}

/** Written to a temporary name, then renamed: a suite reading at the same time sees all of it or nothing. */
function write(file: string, files: readonly OutputFile[]): void {
  mkdirSync(testCacheDir, { recursive: true });
  const stored: Stored[] = files.map((f) =>
    typeof f.contents === "string" ? { path: f.path, text: f.contents } : { path: f.path, base64: f.contents.toString("base64") },
  );
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, JSON.stringify(stored));
  try {
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
}
