// A build that failed, as `svc dev` shows it: the rendered diagnostics (file:line:col, code
// frame, hint) for the terminal and the overlay, and a one-line summary naming the first
// error for API callers' 500 envelope.

import type { ServerResponse } from "node:http";
import { renderTemplate } from "../templates.js";
import { overlayHtml } from "./overlay.js";
import type { CheckResult, Diagnostic } from "../index.js";
import { formatDiagnostics } from "../index.js";

export interface BuildFailure {
  /** "does not build" (diagnostics) or "cannot be served" (a start-up problem such as a missing credential), "the compiler failed". */
  headline: string;
  /** Everything, rendered with code frames. */
  text: string;
  /** `SVC1001 modules/notes/notes.svc:9:3: …`, the first error. */
  summary: string;
  diagnostics: {
    code: string;
    file: string;
    line: number | null;
    column: number | null;
    message: string;
    hint?: string;
  }[];
}

function located(d: Diagnostic): string {
  return d.span === null ? d.file : `${d.file}:${d.span.start.line}:${d.span.start.column}`;
}

export const buildFailure = {
  fromDiagnostics(result: Pick<CheckResult, "diagnostics" | "sources">): BuildFailure {
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    const first = errors[0] ?? result.diagnostics[0];
    return {
      headline: "the project does not build",
      text: formatDiagnostics(result),
      summary: first === undefined ? "the build produced nothing" : `${first.code} ${located(first)}: ${first.message}`,
      diagnostics: errors.map((d) => ({
        code: d.code,
        file: d.file,
        line: d.span?.start.line ?? null,
        column: d.span?.start.column ?? null,
        message: d.message,
        ...(d.hint !== undefined ? { hint: d.hint } : {}),
      })),
    };
  },

  /**
   * A failure that is not a diagnostic: the compiler itself throwing, or a start-up problem of
   * the built version (the generated module, the database migration, a missing credential).
   */
  fromError(err: unknown, headline: string, root: string): BuildFailure {
    const message = err instanceof Error ? err.message : String(err);
    return {
      headline,
      text: `error: ${headline} (${root}):\n  ${message.split("\n").join("\n  ")}`,
      summary: message.split("\n")[0],
      diagnostics: [],
    };
  },
};

/** The 500 envelope API calls get while the project does not build. */
export function errorEnvelope(res: ServerResponse, failure: BuildFailure): void {
  const body = JSON.stringify({
    ok: false,
    error: `svc dev: ${failure.headline}: ${failure.summary}`,
    diagnostics: failure.diagnostics,
  });
  res.writeHead(500, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** A page when there is no good version yet to put the overlay on (templates/dev/error-page.html). */
export function errorPage(res: ServerResponse, failure: BuildFailure, script: string): void {
  const body = renderTemplate("dev/error-page.html", {
    summary: failure.summary,
    overlay: overlayHtml(failure.headline, failure.text),
    script,
  });
  res.writeHead(500, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  res.end(body);
}
