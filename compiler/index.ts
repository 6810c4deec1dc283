// The compiler: discover → parse → analyze → generate, chained in one place.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { analyze, type ParsedModuleDir } from "./analyze/index.js";
import { type DiscoverFs, type DiscoverTarget, discover } from "./project/discover.js";
import { readPublicFiles } from "./project/public-files.js";
import type { Backend, ExpressionType, Model } from "./analyze/model/model.js";
import { type Diagnostic, hasErrors, sortDiagnostics } from "./diagnostics/diagnostic.js";
import { renderDiagnostics } from "./diagnostics/render.js";
import { warmFormatter } from "./generate/format.js";
import type { GenerateOptions, OutputFile } from "./generate/index.js";
import { parseModule, parseRouteFile } from "./parse/index.js";
import { parseApp } from "./parse/app.js";
import type { BuildCache } from "./dev/build-cache.js";

export type { DiscoverTarget, Diagnostic, Model, OutputFile };

export interface CheckResult {
  /** Null when discovery failed before anything could be analyzed. */
  model: Model | null;
  diagnostics: Diagnostic[];
  /** Path → text of every file read, for code frames. */
  sources: Map<string, string>;
  /** Absolute path of the project root. */
  root: string;
}

/** Everything up to the model: what `svc check` runs. Never throws on bad input. */
export interface CheckOptions {
  /** Check SQL for this backend instead of svc.toml's `[database] backend` (`svc check --db URL`). */
  backend?: Backend;
  /**
   * `svc dev`'s cache, kept across its rebuilds: unchanged files are not parsed again, nor
   * unchanged SQL, templates and page.jq checked again. The result is the same as without.
   */
  cache?: BuildCache;
  /** The files as `svc lsp` sees them: the editor's unsaved buffers over the disk. Default: the disk. */
  fs?: DiscoverFs;
  /** Given, analysis adds the type of every expression of action, fn and job bodies to it (`svc lsp`'s hover). */
  expressionTypes?: ExpressionType[];
}

export function check(target: DiscoverTarget, options: CheckOptions = {}): CheckResult {
  const cache = options.cache;
  cache?.begin();
  const found = discover(target, options.fs);
  const sources = new Map(found.project.sources.map((s) => [s.path, s.text]));
  const diagnostics = [...found.diagnostics];
  if (hasErrors(found.diagnostics)) {
    return { model: null, diagnostics: sortDiagnostics(diagnostics), sources, root: found.project.root };
  }
  const p = found.project;
  const modules: ParsedModuleDir[] = p.moduleDirs.map((m) => ({
    dir: m.dir,
    files: m.files.map((f) => {
      const parsed = cache ? cache.parseModule(f.path, f.text) : parseModule(f.path, f.text);
      diagnostics.push(...parsed.diagnostics);
      return parsed.ast;
    }),
  }));
  // The app folder and public/ exist in project mode only; public/ is read as bytes here.
  const app = parseApp(p.appFiles, cache ? (file, text) => cache.parseRouteFile(file, text) : parseRouteFile);
  diagnostics.push(...app.diagnostics);
  const publicFiles = readPublicFiles(p.root, p.publicDir);
  diagnostics.push(...publicFiles.diagnostics);
  const hasApp = p.appDir !== null || p.publicDir !== null;
  const analyzed = analyze({
    name: p.name,
    version: p.config.project.version,
    mode: p.mode,
    config: p.config,
    modules,
    sources: p.sources.map((s) => s.path),
    ...(options.backend !== undefined ? { backend: options.backend } : {}),
    ...(hasApp ? { app: { dir: p.appDir ?? "app", files: p.appFiles, parsed: app.ast, publicFiles: publicFiles.files } } : {}),
    ...(cache ? { steps: cache } : {}),
    ...(options.expressionTypes ? { expressionTypes: options.expressionTypes } : {}),
  });
  cache?.finish();
  diagnostics.push(...analyzed.diagnostics);
  return { model: analyzed.model, diagnostics: sortDiagnostics(diagnostics), sources, root: p.root };
}

export interface BuildResult extends CheckResult {
  /** Empty when there were errors: a broken project generates nothing. */
  files: OutputFile[];
}

export interface BuildOptions extends GenerateOptions {
  /** See CheckOptions.cache. */
  cache?: BuildCache;
}

let generator: Promise<typeof import("./generate/index.js")> | null = null;

/**
 * The generator (ts-morph, and TypeScript under it) is loaded by the first build only: `svc
 * check`, the language server and the CLI's other commands never pay its ~0.6 s of a core. One
 * import for every build, however many start at once.
 */
function loadGenerator(): Promise<typeof import("./generate/index.js")> {
  generator ??= import("./generate/index.js");
  return generator;
}

/** Check, then generate when there is no error. */
export async function build(target: DiscoverTarget, options: BuildOptions = {}): Promise<BuildResult> {
  const { cache, ...generateOptions } = options;
  if (generateOptions.pretty !== false) warmFormatter();
  const checked = check(target, cache ? { cache } : {});
  if (!checked.model || hasErrors(checked.diagnostics)) return { ...checked, files: [] };
  const { generate } = await loadGenerator();
  return { ...checked, files: await generate(checked.model, generateOptions) };
}

/** All diagnostics as text, with code frames. */
export function formatDiagnostics(result: Pick<CheckResult, "diagnostics" | "sources">): string {
  return renderDiagnostics(result.diagnostics, result.sources);
}

/** Writes a build's files below `dir`, making the folders they need (public/ keeps its tree). */
export function writeOutputFiles(dir: string, files: readonly OutputFile[]): void {
  for (const f of files) {
    const path = join(dir, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.contents);
  }
}
