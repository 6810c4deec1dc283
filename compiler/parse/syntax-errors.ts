import type { IRecognitionException, IToken } from "chevrotain";
import { parseCodes } from "../diagnostics/codes/parse.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { describeFound } from "./error-messages.js";
import type { PositionMap } from "./positions.js";

/** Past this many, further syntax errors are mostly echoes of the first ones. */
const MAX_SYNTAX_DIAGNOSTICS = 25;

/**
 * The parser's errors as SVC1001 diagnostics. The error message provider already put
 * the "expected …" part in `message`; the found token is described here. An error at
 * the end of the input points just after the last token, where something is missing.
 */
export function syntaxDiagnostics(
  errors: readonly IRecognitionException[],
  tokens: readonly IToken[],
  file: string,
  positions: PositionMap,
): { diagnostics: Diagnostic[]; truncated: boolean } {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  // The parser appends virtual end-of-file tokens (offsets NaN) to its input.
  const last = tokens.findLast((t) => Number.isFinite(t.startOffset));
  const endOffset = last ? last.endOffset! + 1 : 0;
  for (const e of errors) {
    const token = e.token;
    const real = Number.isFinite(token.startOffset);
    const span = real ? positions.span(token.startOffset, token.endOffset! + 1) : positions.span(endOffset, endOffset);
    const key = `${span.start.offset}:${e.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (out.length === MAX_SYNTAX_DIAGNOSTICS) return { diagnostics: out, truncated: true };
    out.push(parseCodes.unexpectedToken.at(file, span, real ? describeFound(token) : "end of file", e.message));
  }
  return { diagnostics: out, truncated: false };
}
