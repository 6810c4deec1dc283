// One project as the server holds it: where it is, the check of its files as the editor
// has them (open buffers over the disk), and the symbol table of that check. A check reuses
// `svc dev`'s build cache, so a keystroke re-parses the one file it changed and re-checks
// only SQL it changed; the rest of analysis is a walk over trees in memory.

import type { DiscoverTarget } from "../project/discover.js";
import { readConfig } from "../project/config.js";
import type { Span } from "../parse/ast.js";
import type { ExpressionType } from "../analyze/model/model.js";
import { BuildCache } from "../dev/build-cache.js";
import { type CheckResult, check } from "../index.js";
import type { OverlayFs } from "./overlay-fs.js";
import { SymbolIndex, indexProject } from "./symbols.js";

export class Project {
  readonly cache = new BuildCache();
  /** The last check; null before the first. */
  result: CheckResult | null = null;
  private built = new SymbolIndex();
  /** Set by a check: the table is built when a request first needs it, so diagnostics never wait for it. */
  private stale: (() => SymbolIndex) | null = null;
  /** The type of every expression of the last check's action, fn and job bodies (hover). */
  expressionTypes: ExpressionType[] = [];
  /** Absolute paths that were given diagnostics last time: each must be cleared when they go away. */
  published = new Set<string>();

  constructor(
    readonly target: DiscoverTarget,
    private readonly fs: OverlayFs,
  ) {}

  get root(): string {
    return this.result?.root ?? this.target.dir;
  }

  /** Checks the project as the editor has it, and rebuilds the symbol table when the files could be read. */
  check(): CheckResult {
    const expressionTypes: ExpressionType[] = [];
    const result = check(this.target, { cache: this.cache, fs: this.fs, expressionTypes });
    this.result = result;
    this.expressionTypes = expressionTypes;
    if (result.model !== null) {
      const modules = this.cache.moduleAsts();
      const routeFiles = this.cache.routeFileAsts();
      this.stale = () => indexProject(modules, routeFiles, result.sources, credentialSpans(result.sources));
    }
    return result;
  }

  /** The symbol table of the last check that could read the project's files. */
  get index(): SymbolIndex {
    if (this.stale) {
      this.built = this.stale();
      this.stale = null;
    }
    return this.built;
  }

  text(file: string): string | undefined {
    return this.result?.sources.get(file);
  }

  dispose(): void {
    this.cache.dispose();
  }
}

/** Where svc.toml declares each credential: the definition that `credentials.x` goes to. */
function credentialSpans(sources: ReadonlyMap<string, string>): Map<string, { file: string; span: Span }> {
  const out = new Map<string, { file: string; span: Span }>();
  const text = sources.get("svc.toml");
  if (text === undefined) return out;
  const { config, index } = readConfig("svc.toml", text);
  for (const name of Object.keys(config.credentials ?? {})) {
    const span = index?.key(["credentials", name]);
    if (span) out.set(name, { file: "svc.toml", span });
  }
  return out;
}
