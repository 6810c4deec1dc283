// Every name the user wrote, found once per check from the parsed files: where each
// resource, field, query, action, fn, record type, parameter, local, credential and module
// is declared, and every place that refers to one, SQL bodies included. Definition,
// references, rename, document symbols, semantic tokens and hover all read this table;
// none reads printed text.
//
// A name's key says what it is and where it belongs: `R:todo.task` (resource), `F:todo.task.title`
// (field), `D:todo.create_task` (query, action or fn: one namespace in a module), `T:todo.NewTask`
// (record type), `P:todo.create_task.title` (parameter), `L:<file>:<offset>` (a let or loop
// variable), `C:github` (credential), `M:todo` (module).

import type { Span } from "../parse/ast.js";
import type { ModuleFile, RouteFile } from "../parse/index.js";
import { PositionMap } from "../parse/positions.js";
import { ModuleWalker } from "./walk-module.js";

export type SymbolKind =
  | "resource"
  | "field"
  | "query"
  | "action"
  | "fn"
  | "type"
  | "param"
  | "local"
  | "credential"
  | "module"
  | "builtin";

export interface Occurrence {
  key: string;
  /** The name as written here (SQL may spell it in another case). */
  name: string;
  kind: SymbolKind;
  /** Relative to the project root, as diagnostics name files. */
  file: string;
  span: Span;
  /** The declaring occurrence (the name in `resource task {`, `let x =`…). */
  decl: boolean;
  /** Inside an SQL body. */
  sql?: true;
}

/** What a declaration says about itself, for hover and document symbols. */
export interface Declaration {
  occurrence: Occurrence;
  module: string;
  /** The enclosing declaration's name for fields and parameters; null otherwise. */
  parent: string | null;
  /** The whole declaration's span (a field's line, a query's block). */
  span: Span;
  doc: string | null;
  /** The type as written, for fields, parameters and record type members. */
  typeText?: string;
}

export interface SqlRegion {
  file: string;
  module: string;
  /** The query, action or fn the body belongs to. */
  owner: string;
  /** Offsets of the body's text (between the braces) in the file. */
  start: number;
  end: number;
}

export class SymbolIndex {
  readonly occurrences: Occurrence[] = [];
  readonly declarations = new Map<string, Declaration>();
  readonly sqlRegions: SqlRegion[] = [];
  private readonly byKey = new Map<string, Occurrence[]>();
  private readonly byFile = new Map<string, Occurrence[]>();

  add(o: Occurrence): void {
    this.occurrences.push(o);
    push(this.byKey, o.key, o);
    push(this.byFile, o.file, o);
  }

  declare(d: Declaration): void {
    // The first declaration wins: a duplicate is SVC2002, and its own occurrence still counts as a reference.
    if (!this.declarations.has(d.occurrence.key)) this.declarations.set(d.occurrence.key, d);
    this.add(d.occurrence);
  }

  references(key: string): Occurrence[] {
    return this.byKey.get(key) ?? [];
  }

  inFile(file: string): Occurrence[] {
    return this.byFile.get(file) ?? [];
  }

  /** The innermost occurrence at an offset of a file (spans end exclusive; the end itself still counts, as a cursor after a name). */
  at(file: string, offset: number): Occurrence | null {
    let best: Occurrence | null = null;
    for (const o of this.inFile(file)) {
      if (o.span.start.offset <= offset && offset <= o.span.end.offset) {
        if (best === null || o.span.end.offset - o.span.start.offset < best.span.end.offset - best.span.start.offset) best = o;
      }
    }
    return best;
  }

  sqlRegionAt(file: string, offset: number): SqlRegion | null {
    return this.sqlRegions.find((r) => r.file === file && r.start <= offset && offset <= r.end) ?? null;
  }
}

/** The table of one check: every module file and route file of the project, with their texts. */
export function indexProject(
  modules: readonly ModuleFile[],
  routeFiles: readonly RouteFile[],
  sources: ReadonlyMap<string, string>,
  credentials: ReadonlyMap<string, { file: string; span: Span }>,
): SymbolIndex {
  const index = new SymbolIndex();
  const positions = (file: string) => new PositionMap(sources.get(file) ?? "");
  for (const [name, at] of credentials) {
    const occurrence: Occurrence = { key: `C:${name}`, name, kind: "credential", file: at.file, span: at.span, decl: true };
    index.declare({ occurrence, module: "", parent: null, span: at.span, doc: null });
  }
  const walker = new ModuleWalker(index, modules);
  for (const m of modules) walker.declare(m);
  for (const m of modules) walker.bodies(m, positions(m.file));
  for (const r of routeFiles) walker.routeFile(r);
  return index;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
