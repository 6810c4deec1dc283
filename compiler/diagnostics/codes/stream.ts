// Streamed answers, `respond csv` and `respond ndjson` to a query's rows (docs/language.md
// §2.4 "Streamed answers"): SVC7130–SVC7139. Codes are never reused.

import { defineDiagnostic as d } from "../diagnostic.js";

export const streamCodes = {
  notQueryRows: d(
    "SVC7130",
    "error",
    "`respond ndjson` (or `respond csv` without a body) streams the rows of a query, and its target is not a query that returns rows.",
    (media: string, found: string) => `\`respond ${media}\` streams a query's rows, but ${found}`,
    () => "route to a query without `one` (its columns become the CSV header or the NDJSON members), or answer JSON by leaving the media out",
  ),
  bodyOnStream: d(
    "SVC7131",
    "error",
    "`respond ndjson` is given a body; a streamed answer is the query's rows, one a line.",
    () => "`respond ndjson` takes no body: the answer is the query's rows, one JSON object a line",
    () => "leave the body out, or answer JSON with `respond { … }`",
  ),
};
