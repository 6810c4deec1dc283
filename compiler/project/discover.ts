// Finds what a build reads (docs/language.md §1): the module folders and their `.svc` files,
// and in project mode svc.toml, the app folder and public/. Every path it reports is
// relative to the target folder with forward slashes, and every list is sorted, so the
// output never depends on the order a file system lists folders in.

import path from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { sortDiagnostics } from "../diagnostics/diagnostic.js";
import { configCodes } from "../diagnostics/codes/config.js";
import { defaultConfig, readConfig } from "./config.js";
import type { ProjectConfig, TomlIndex } from "./config.js";
import { collectAppFiles } from "./discover/app-files.js";
import type { DiscoverContext, SourceFile } from "./discover/context.js";
import { byString, readSource, relative } from "./discover/context.js";
import { expandPattern, isPattern, readModuleDir, subfolders } from "./discover/folders.js";
import type { ModuleDir } from "./discover/folders.js";
import { nodeFs } from "./discover/fs.js";
import type { DiscoverFs } from "./discover/fs.js";

export type { DiscoverFs, EntryKind } from "./discover/fs.js";
export type { ModuleDir } from "./discover/folders.js";
export type { SourceFile } from "./discover/context.js";
export { nodeFs } from "./discover/fs.js";

export type DiscoverMode = "module" | "app" | "project";

export interface DiscoverTarget {
  mode: DiscoverMode;
  /** The folder given on the command line (absolute, or relative to the working directory). */
  dir: string;
}

export interface DiscoveredProject {
  mode: DiscoverMode;
  /** Absolute path of the target folder; every other path here is relative to it. */
  root: string;
  /** `project.name` from svc.toml, else the name of the target folder. */
  name: string;
  config: ProjectConfig;
  /** "svc.toml" in project mode when it was read; null otherwise. */
  configFile: string | null;
  /** Sorted by dir; each folder's files sorted by path. */
  moduleDirs: ModuleDir[];
  /** Project mode only, when the folder exists. */
  appDir: string | null;
  /** `public/` beside svc.toml, when it exists (project mode only). */
  publicDir: string | null;
  /** Below appDir: every route.svc, page.html and page.jq, and layout.html at its top. Sorted by path. */
  appFiles: SourceFile[];
  /** svc.toml and every file read, sorted by path: the texts for code frames. */
  sources: SourceFile[];
}

export interface DiscoverResult {
  project: DiscoveredProject;
  diagnostics: Diagnostic[];
}

const CONFIG_FILE = "svc.toml";

export function discover(target: DiscoverTarget, fs: DiscoverFs = nodeFs): DiscoverResult {
  const root = path.resolve(target.dir);
  const ctx: DiscoverContext = { fs, root, diagnostics: [], sources: new Map() };
  const project: DiscoveredProject = {
    mode: target.mode,
    root,
    name: path.basename(root),
    config: defaultConfig(),
    configFile: null,
    moduleDirs: [],
    appDir: null,
    publicDir: null,
    appFiles: [],
    sources: [],
  };
  // The folder as the user wrote it: before there is a project root, nothing else names it.
  const given = target.dir.split(path.sep).join("/");

  const kind = fs.kind(root);
  if (kind !== "dir") {
    ctx.diagnostics.push(configCodes.targetMissing.at(given, null, given, kind !== null));
  } else if (target.mode === "module") {
    const dir = readModuleDir(ctx, root);
    if (dir) project.moduleDirs.push(dir);
    else ctx.diagnostics.push(configCodes.noModules.at(given, null, "module", given));
  } else if (target.mode === "app") {
    for (const sub of subfolders(ctx, root)) {
      const dir = readModuleDir(ctx, sub);
      if (dir) project.moduleDirs.push(dir);
    }
    if (project.moduleDirs.length === 0) ctx.diagnostics.push(configCodes.noModules.at(given, null, "app", given));
  } else {
    discoverProject(ctx, project, given);
  }

  project.config.project.name = project.name;
  project.moduleDirs.sort((a, b) => byString(a.dir, b.dir));
  project.sources = [...ctx.sources].map(([p, text]) => ({ path: p, text })).sort((a, b) => byString(a.path, b.path));
  return { project, diagnostics: sortDiagnostics(ctx.diagnostics) };
}

function discoverProject(ctx: DiscoverContext, project: DiscoveredProject, given: string): void {
  const configPath = path.join(ctx.root, CONFIG_FILE);
  if (ctx.fs.kind(configPath) !== "file") {
    ctx.diagnostics.push(configCodes.configMissing.at(CONFIG_FILE, null, given));
    return;
  }
  const source = readSource(ctx, configPath);
  if (!source) return;
  const { config, diagnostics, index } = readConfig(CONFIG_FILE, source.text);
  ctx.diagnostics.push(...diagnostics);
  project.config = config;
  project.configFile = CONFIG_FILE;
  if (config.project.name !== undefined) project.name = config.project.name;

  findModuleDirs(ctx, project, index);

  const appAbs = path.resolve(ctx.root, config.app.dir);
  const appKind = ctx.fs.kind(appAbs);
  if (appKind === "dir") {
    project.appDir = relative(ctx, appAbs);
    project.appFiles = collectAppFiles(ctx, appAbs);
  } else if (index?.key(["app", "dir"])) {
    // Only a folder the user named must exist: without the key, a project may have no app.
    ctx.diagnostics.push(
      configCodes.appDirMissing.at(CONFIG_FILE, index.best(["app", "dir"]), config.app.dir, appKind !== null),
    );
  }

  const publicAbs = path.join(ctx.root, "public");
  if (ctx.fs.kind(publicAbs) === "dir") project.publicDir = relative(ctx, publicAbs);
}

/**
 * Expands modules.dirs. Entries the user did not write (the default `modules/*`) are not
 * reported one by one; when nothing is found at all, one diagnostic says so.
 */
function findModuleDirs(ctx: DiscoverContext, project: DiscoveredProject, index: TomlIndex | null): void {
  const entries = project.config.modules.dirs;
  const written = index !== null && index.key(["modules", "dirs"]) !== null;
  const span = entrySpans(index, entries.length);
  const found = new Map<string, ModuleDir>();
  let reported = false;
  const report = (d: Diagnostic) => {
    ctx.diagnostics.push(d);
    reported = true;
  };
  const read = (abs: string): ModuleDir | null => {
    const rel = relative(ctx, abs);
    const known = found.get(rel);
    if (known) return known;
    const dir = readModuleDir(ctx, abs);
    if (dir) found.set(rel, dir);
    return dir;
  };

  entries.forEach((entry, i) => {
    if (isPattern(entry)) {
      const matched = expandPattern(ctx, entry);
      const modules = matched.filter((abs) => read(abs) !== null);
      if (modules.length === 0 && written)
        report(configCodes.globMatchesNothing.at(CONFIG_FILE, span(i), entry, matched.length));
      return;
    }
    const abs = path.resolve(ctx.root, entry);
    const kind = ctx.fs.kind(abs);
    if (kind !== "dir") {
      if (written) report(configCodes.moduleDirMissing.at(CONFIG_FILE, span(i), entry, kind !== null));
    } else if (read(abs) === null && written) {
      report(configCodes.moduleDirEmpty.at(CONFIG_FILE, span(i), entry));
    }
  });

  project.moduleDirs = [...found.values()];
  if (project.moduleDirs.length === 0 && !reported) {
    ctx.diagnostics.push(
      configCodes.noModules.at(CONFIG_FILE, index?.best(["modules", "dirs"]) ?? null, "project", "."),
    );
  }
}

/**
 * The place of the i-th entry of modules.dirs. The config reader drops invalid entries,
 * so the i-th read entry is the i-th written one only when none was dropped; otherwise
 * the whole key is the most precise honest place.
 */
function entrySpans(index: TomlIndex | null, count: number) {
  if (!index) return () => null;
  let written = 0;
  while (index.value(["modules", "dirs", written])) written++;
  return (i: number) =>
    (written === count ? index.value(["modules", "dirs", i]) : null) ?? index.best(["modules", "dirs"]);
}
