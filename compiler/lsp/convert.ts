// Between the compiler's places (1-based lines and columns, 0-based offsets, paths relative
// to the project root) and the protocol's (0-based lines and UTF-16 characters, file URIs).
// Columns count UTF-16 code units on both sides (PositionMap counts string indices), so a
// column maps to a character by subtracting one.

import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic, type Position, type Range } from "vscode-languageserver";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Span } from "../parse/ast.js";

export function uriOf(absPath: string): string {
  return pathToFileURL(absPath).href;
}

/** The path of a file: URI; null for any other scheme (an untitled buffer has no project). */
export function pathOf(uri: string): string | null {
  return uri.startsWith("file:") ? fileURLToPath(uri) : null;
}

export function rangeOf(span: Span | null): Range {
  if (span === null) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return {
    start: { line: span.start.line - 1, character: span.start.column - 1 },
    end: { line: span.end.line - 1, character: span.end.column - 1 },
  };
}

/** `svc check`'s diagnostic as the protocol carries it: the same code, message and place; the hint rides along in `data`. */
export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  const out: LspDiagnostic = {
    range: rangeOf(d.span),
    severity: d.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    source: "svc",
    message: d.message,
  };
  if (d.hint !== undefined) out.data = { hint: d.hint };
  return out;
}

/** The absolute path a diagnostic's file names (relative to the project root, or as the user gave it). */
export function diagnosticPath(root: string, file: string): string {
  return path.resolve(root, file);
}

/** Offsets of line starts in a text, to turn a protocol position into an offset. */
export function offsetAt(text: string, p: Position): number {
  let line = 0;
  let i = 0;
  while (line < p.line) {
    const nl = text.indexOf("\n", i);
    if (nl < 0) return text.length;
    i = nl + 1;
    line++;
  }
  const lineEnd = text.indexOf("\n", i);
  return Math.min(i + p.character, lineEnd < 0 ? text.length : lineEnd);
}

export function contains(span: Span, offset: number): boolean {
  return span.start.offset <= offset && offset <= span.end.offset;
}
