import type { Span } from "../parse/ast.js";

export type Severity = "error" | "warning";

/** The one shape of every compile-time error and warning. Collected, never thrown. */
export interface Diagnostic {
  /** Stable code, e.g. `SVC1001`; never reused for another meaning. */
  code: string;
  severity: Severity;
  message: string;
  /** Path of the file, relative to the project root (as the discovery phase named it). */
  file: string;
  /** Null only when the problem has no place in a file (e.g. a missing folder given on the command line). */
  span: Span | null;
  hint?: string;
}

/**
 * A catalog entry: one code, its severity, and how to word it. Call sites read
 * `parseCodes.unexpectedToken.at(file, span, found, expected)`.
 */
export interface DiagnosticDef<A extends unknown[]> {
  code: string;
  severity: Severity;
  /** One sentence for docs/diagnostics.md. */
  summary: string;
  at(file: string, span: Span | null, ...args: A): Diagnostic;
}

export function defineDiagnostic<A extends unknown[]>(
  code: string,
  severity: Severity,
  summary: string,
  message: (...args: A) => string,
  hint?: (...args: A) => string | undefined,
): DiagnosticDef<A> {
  return {
    code,
    severity,
    summary,
    at(file, span, ...args) {
      const d: Diagnostic = { code, severity, message: message(...args), file, span };
      const h = hint?.(...args);
      if (h) d.hint = h;
      return d;
    },
  };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Sorted by file, then position, then code: output order never depends on traversal order. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      compare(a.file, b.file) ||
      (a.span?.start.line ?? -1) - (b.span?.start.line ?? -1) ||
      (a.span?.start.column ?? -1) - (b.span?.start.column ?? -1) ||
      compare(a.code, b.code),
  );
}

/** Code-unit order: the same on every machine, whatever its locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
