// What `svc dev` keeps from one build to the next, so that a save re-parses and re-checks
// only what it changed. Everything is keyed by content, never by modification time:
//   module and route files   path + exact text                     → AST and diagnostics
//   SQL statements           schema + backend rules + statement    → result (sql-check-cache.ts)
//   templates                file + where it starts + its text     → diagnostics
//   page.jq programs         path + text                           → compiled program
// Name resolution, typing, routes and the rest of analysis rerun on every build: they walk
// the ASTs in memory, cost little next to parsing and SQLite, and depend on every file at
// once, so remembering them would mean tracking what depends on what for no real gain.
//
// A one-shot `svc build`/`svc check` passes no cache and runs every step afresh.

import type { Backend, ResourceModel } from "../analyze/model/model.js";
import { type BuildClock, Memo } from "./memo.js";
import { Reporter } from "../analyze/shared/context.js";
import { SqlCheckCache } from "./sql-check-cache.js";
import type { SqlChecker } from "../analyze/sql/dialect.js";
import { type AnalyzeSteps, directSteps } from "../analyze/steps.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { JqCompileResult } from "../jq/index.js";
import { parseModule, parseRouteFile } from "../parse/index.js";
import type { ModuleFile, RouteFile } from "../parse/index.js";
import type { PositionMap } from "../parse/positions.js";

/** What the last build did and what it took from the cache. */
export interface BuildCacheStats {
  /** Module and route files parsed. */
  parsed: number;
  parseHits: number;
  /** SQL statements prepared (and explained, for queries). */
  sqlChecked: number;
  sqlHits: number;
  /** Schemas loaded into a new SQLite database: 0 while the resources stay as they were. */
  schemasLoaded: number;
  templatesChecked: number;
  templateHits: number;
  jqCompiled: number;
  jqHits: number;
}

interface Parsed<T> {
  text: string;
  result: { ast: T; diagnostics: Diagnostic[] };
}

interface CheckedTemplate {
  raw: Set<string> | null;
  diagnostics: Diagnostic[];
}

export class BuildCache implements AnalyzeSteps {
  private readonly clock: BuildClock = { build: 0 };
  private counts = zeroStats();
  private readonly modules = new Memo<Parsed<ModuleFile>>(this.clock);
  private readonly routeFiles = new Memo<Parsed<RouteFile>>(this.clock);
  private readonly sql = new SqlCheckCache(this.clock, this.counts);
  private readonly templates = new Memo<CheckedTemplate>(this.clock);
  private readonly jq = new Memo<JqCompileResult>(this.clock);

  /** The counts of the build under way, or of the last one. */
  get stats(): BuildCacheStats {
    return { ...this.counts };
  }

  /** How many entries are held, per kind: after a build, exactly what that build used. */
  get sizes(): { parses: number; schemas: number; statements: number; templates: number; jq: number } {
    return {
      parses: this.modules.size + this.routeFiles.size,
      ...this.sql.sizes,
      templates: this.templates.size,
      jq: this.jq.size,
    };
  }

  /** Starts a build: counts start from zero, and what it uses is marked as its own. */
  begin(): void {
    this.clock.build++;
    // Reset in place: the SQL cache holds this object.
    Object.assign(this.counts, zeroStats());
  }

  /**
   * Ends a build that got as far as analysis: whatever it did not use (files deleted or
   * changed since, old schemas and their databases) is dropped. A build that stopped
   * earlier (a broken svc.toml) leaves the cache as the last full build left it.
   */
  finish(): void {
    this.modules.sweep();
    this.routeFiles.sweep();
    this.sql.sweep();
    this.templates.sweep();
    this.jq.sweep();
  }

  /** Closes the SQLite databases; the cache is empty after. */
  dispose(): void {
    this.modules.clear();
    this.routeFiles.clear();
    this.sql.clear();
    this.templates.clear();
    this.jq.clear();
  }

  /** The module files of the last build, as parsed (`svc lsp` reads names and spans from them). */
  moduleAsts(): ModuleFile[] {
    return this.modules.values().map((p) => p.result.ast);
  }

  /** The route files of the last build, as parsed. */
  routeFileAsts(): RouteFile[] {
    return this.routeFiles.values().map((p) => p.result.ast);
  }

  parseModule(file: string, text: string): { ast: ModuleFile; diagnostics: Diagnostic[] } {
    return this.parse(this.modules, parseModule, file, text);
  }

  parseRouteFile(file: string, text: string): { ast: RouteFile; diagnostics: Diagnostic[] } {
    return this.parse(this.routeFiles, parseRouteFile, file, text);
  }

  sqlChecker(resources: readonly ResourceModel[], backend: Backend | undefined): SqlChecker {
    return this.sql.checker(resources, backend);
  }

  checkTemplate(file: string, text: string, positions: PositionMap, template: string, offset: number, r: Reporter): Set<string> | null {
    // A diagnostic's place is `positions` at the template's start plus some way into the
    // file's text from there: the start's line and column and the text the template
    // covers (which for a quoted title is not the title itself) fix it.
    const at = positions.position(offset);
    const covered = text.slice(offset, offset + template.length + 1);
    const key = `${file}\0${offset}\0${at.line}:${at.column}\0${template}\0${covered}`;
    let checked = this.templates.get(key);
    if (checked === undefined) {
      this.counts.templatesChecked++;
      const own = new Reporter();
      const raw = directSteps.checkTemplate(file, text, positions, template, offset, own);
      checked = { raw, diagnostics: own.diagnostics };
      this.templates.set(key, checked);
    } else {
      this.counts.templateHits++;
    }
    r.addAll(copies(checked.diagnostics));
    return checked.raw === null ? null : new Set(checked.raw);
  }

  compileJq(file: string, program: string): JqCompileResult {
    const key = `${file}\0${program}`;
    let result = this.jq.get(key);
    if (result === undefined) {
      this.counts.jqCompiled++;
      result = directSteps.compileJq(file, program);
      this.jq.set(key, result);
    } else {
      this.counts.jqHits++;
    }
    return result.kind === "error" ? { kind: "error", diagnostics: copies(result.diagnostics) } : { ...result };
  }

  /**
   * The AST is handed out as it is, not copied: analysis only reads it (it builds the model
   * beside it), and copying every file's AST would cost about what parsing does.
   */
  private parse<T>(
    memo: Memo<Parsed<T>>,
    parse: (file: string, text: string) => { ast: T; diagnostics: Diagnostic[] },
    file: string,
    text: string,
  ): { ast: T; diagnostics: Diagnostic[] } {
    const cached = memo.get(file);
    if (cached !== undefined && cached.text === text) {
      this.counts.parseHits++;
      return { ast: cached.result.ast, diagnostics: copies(cached.result.diagnostics) };
    }
    this.counts.parsed++;
    const result = parse(file, text);
    memo.set(file, { text, result: { ast: result.ast, diagnostics: copies(result.diagnostics) } });
    return result;
  }
}

/** One line for the dev log: how much of the last build came from the cache. */
export function describeReuse(s: BuildCacheStats): string {
  const part = (hits: number, done: number, what: string) => (hits + done === 0 ? [] : [`${hits}/${hits + done} ${what}`]);
  const parts = [
    ...part(s.parseHits, s.parsed, "files"),
    ...part(s.sqlHits, s.sqlChecked, "SQL statements"),
    ...part(s.templateHits + s.jqHits, s.templatesChecked + s.jqCompiled, "templates and jq programs"),
  ];
  return parts.length === 0 ? "" : `reused ${parts.join(", ")}`;
}

function zeroStats(): BuildCacheStats {
  return {
    parsed: 0,
    parseHits: 0,
    sqlChecked: 0,
    sqlHits: 0,
    schemasLoaded: 0,
    templatesChecked: 0,
    templateHits: 0,
    jqCompiled: 0,
    jqHits: 0,
  };
}

/** Diagnostics are plain objects a caller may hold on to; each build gets its own. */
function copies(ds: readonly Diagnostic[]): Diagnostic[] {
  return ds.map((d) => ({ ...d }));
}
