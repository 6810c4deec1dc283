import type { Diagnostic } from "./diagnostic.js";

/**
 * `file:line:col: error SVC1001: message`, then a code frame with a caret under the
 * span, then the hint. `source` is the text of `d.file` (omit it for a message alone).
 */
export function renderDiagnostic(d: Diagnostic, source?: string): string {
  const where = d.span ? `${d.file}:${d.span.start.line}:${d.span.start.column}` : d.file;
  const out = [`${where}: ${d.severity} ${d.code}: ${d.message}`];
  if (d.span && source !== undefined) out.push(codeFrame(source, d.span.start, d.span.end));
  if (d.hint) out.push(`  = hint: ${d.hint}`);
  return out.join("\n");
}

interface Point {
  line: number;
  column: number;
}

/** Two lines of context above, the line itself, and carets under the spanned columns of its first line. */
export function codeFrame(source: string, start: Point, end: Point): string {
  const lines = source.split(/\r?\n/);
  const first = Math.max(1, start.line - 2);
  const last = Math.min(lines.length, start.line);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = (lines[n - 1] ?? "").replace(/\t/g, " ");
    out.push(`${n === start.line ? ">" : " "} ${String(n).padStart(width)} | ${text}`.trimEnd());
  }
  const lineText = lines[start.line - 1] ?? "";
  const endColumn = end.line === start.line ? end.column : lineText.length + 1;
  const carets = Math.max(1, endColumn - start.column);
  out.push(`  ${" ".repeat(width)} | ${" ".repeat(start.column - 1)}${"^".repeat(carets)}`);
  return out.join("\n");
}

/** Render many diagnostics, reading each file's text from `sources` (path → text). */
export function renderDiagnostics(ds: readonly Diagnostic[], sources: ReadonlyMap<string, string>): string {
  return ds.map((d) => renderDiagnostic(d, sources.get(d.file))).join("\n\n");
}
