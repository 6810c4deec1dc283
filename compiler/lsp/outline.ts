// Document symbols: the declarations of a file with their members, from the symbol table.

import { type DocumentSymbol, SymbolKind as LspKind } from "vscode-languageserver";
import { rangeOf } from "./convert.js";
import type { Project } from "./project.js";
import type { Declaration, SymbolKind } from "./symbols.js";

const KINDS: Partial<Record<SymbolKind, LspKind>> = {
  resource: LspKind.Class,
  type: LspKind.Struct,
  query: LspKind.Function,
  action: LspKind.Method,
  fn: LspKind.Function,
  field: LspKind.Field,
  param: LspKind.Variable,
};

export function documentSymbols(project: Project, file: string): DocumentSymbol[] {
  const decls = [...project.index.declarations.values()].filter((d) => d.occurrence.file === file && KINDS[d.occurrence.kind] !== undefined);
  const tops = decls.filter((d) => d.parent === null);
  return tops
    .sort((a, b) => a.span.start.offset - b.span.start.offset)
    .map((top) => {
      const symbol = toSymbol(top);
      const children = decls.filter((d) => d.parent === top.occurrence.name && d.module === top.module && inside(d, top));
      if (children.length) symbol.children = children.map(toSymbol);
      return symbol;
    });
}

function inside(child: Declaration, parent: Declaration): boolean {
  return child.span.start.offset >= parent.span.start.offset && child.span.end.offset <= parent.span.end.offset;
}

function toSymbol(d: Declaration): DocumentSymbol {
  const s: DocumentSymbol = {
    name: d.occurrence.name,
    kind: KINDS[d.occurrence.kind]!,
    range: rangeOf(d.span),
    selectionRange: rangeOf(d.occurrence.span),
  };
  const detail = d.typeText ?? (d.parent === null ? d.occurrence.kind : undefined);
  if (detail !== undefined) s.detail = detail;
  return s;
}
