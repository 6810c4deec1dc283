// Semantic tokens: each name colored by what it is (a resource, a field, a query…), SQL
// bodies included, which no grammar can know. Keywords, strings and numbers are left to
// the TextMate grammar (editors/vscode).

import type { SemanticTokens, SemanticTokensLegend } from "vscode-languageserver";
import type { Project } from "./project.js";
import type { SymbolKind } from "./symbols.js";

const TYPES = ["type", "class", "property", "function", "method", "parameter", "variable", "namespace", "struct"] as const;
const MODIFIERS = ["declaration", "defaultLibrary"] as const;

export const legend: SemanticTokensLegend = { tokenTypes: [...TYPES], tokenModifiers: [...MODIFIERS] };

const TYPE_OF: Record<SymbolKind, (typeof TYPES)[number]> = {
  resource: "class",
  type: "struct",
  field: "property",
  query: "function",
  action: "method",
  fn: "function",
  param: "parameter",
  local: "variable",
  credential: "variable",
  module: "namespace",
  builtin: "function",
};

export function semanticTokens(project: Project, file: string): SemanticTokens {
  const occurrences = project.index
    .inFile(file)
    .filter((o) => o.span.start.line === o.span.end.line)
    .sort((a, b) => a.span.start.offset - b.span.start.offset);
  const data: number[] = [];
  let line = 0;
  let character = 0;
  let lastEnd = -1;
  for (const o of occurrences) {
    if (o.span.start.offset < lastEnd) continue; // one token per place
    const l = o.span.start.line - 1;
    const c = o.span.start.column - 1;
    const modifiers = (o.decl ? 1 : 0) | (o.kind === "builtin" ? 2 : 0);
    data.push(l - line, l === line ? c - character : c, o.span.end.offset - o.span.start.offset, TYPES.indexOf(TYPE_OF[o.kind]), modifiers);
    line = l;
    character = c;
    lastEnd = o.span.end.offset;
  }
  return { data };
}
