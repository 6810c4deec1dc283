// Go to definition, find references and rename, all read from the symbol table: an
// occurrence's key names one declaration, and every occurrence with that key is a use.

import path from "node:path";
import type { Location, TextEdit, WorkspaceEdit } from "vscode-languageserver";
import { rangeOf, uriOf } from "./convert.js";
import type { Project } from "./project.js";
import type { Occurrence, SymbolKind } from "./symbols.js";

/**
 * What rename may change: names whose every use the table knows. Not an argument (a route's
 * path names it too, `/notes/:id`), a resource (its table's name: renaming it would leave the
 * rows behind), a local or a built-in.
 */
const RENAMEABLE: ReadonlySet<SymbolKind> = new Set(["query", "action", "fn", "field", "type"]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function definition(project: Project, file: string, offset: number): Location | null {
  const o = project.index.at(file, offset);
  const d = o ? project.index.declarations.get(o.key) : undefined;
  return d ? location(project, d.occurrence) : null;
}

export function references(project: Project, file: string, offset: number, includeDeclaration: boolean): Location[] {
  const o = project.index.at(file, offset);
  if (!o) return [];
  return project.index
    .references(o.key)
    .filter((r) => includeDeclaration || !r.decl)
    .map((r) => location(project, r));
}

/** The range of the name under the cursor when it can be renamed; null otherwise. */
export function renameTarget(project: Project, file: string, offset: number): Occurrence | null {
  const o = project.index.at(file, offset);
  if (!o || !RENAMEABLE.has(o.kind) || !project.index.declarations.has(o.key)) return null;
  return o;
}

/** Every occurrence of the name, SQL included, across the project's files; an error message when the new name cannot be one. */
export function rename(project: Project, file: string, offset: number, newName: string): WorkspaceEdit | string {
  const o = renameTarget(project, file, offset);
  if (!o) return "only a query, action, fn, record type or field can be renamed";
  if (!NAME.test(newName)) return `${JSON.stringify(newName)} is not a name (letters, digits and _, not starting with a digit)`;
  const changes: Record<string, TextEdit[]> = {};
  for (const r of project.index.references(o.key)) {
    const uri = uriOf(path.resolve(project.root, r.file));
    (changes[uri] ??= []).push({ range: rangeOf(r.span), newText: newName });
  }
  return { changes };
}

function location(project: Project, o: Occurrence): Location {
  return { uri: uriOf(path.resolve(project.root, o.file)), range: rangeOf(o.span) };
}
