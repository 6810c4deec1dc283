import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { Span } from "../../parse/ast.js";

/** Where diagnostics go while one file is analyzed. Passed down, never global. */
export class Reporter {
  readonly diagnostics: Diagnostic[] = [];

  add(d: Diagnostic): void {
    this.diagnostics.push(d);
  }

  addAll(ds: readonly Diagnostic[]): void {
    for (const d of ds) this.diagnostics.push(d);
  }
}

/** `file:line:col`, for messages that point at another place ("already declared at …"). */
export function place(file: string, span: Span): string {
  return `${file}:${span.start.line}:${span.start.column}`;
}
