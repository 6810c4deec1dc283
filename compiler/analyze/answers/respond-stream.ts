// `respond csv` without a body and `respond ndjson` (docs/language.md §2.4, "Streamed
// answers"): a query's rows written as they are read, one line each. Decided here: which
// answers stream, and the columns (the CSV header, the NDJSON members) with what each holds.

import { streamCodes as codes } from "../../diagnostics/codes/stream.js";
import type { Expr, RespondMedia } from "../../parse/ast.js";
import type { ResponseModel } from "../model/model.js";
import type { RouteExprScope } from "../app/route-expr.js";

type Stream = NonNullable<ResponseModel["stream"]>;

/**
 * Whether this respond streams: ndjson always; csv when it names no body and the route's
 * target is a query (an action's csv answer is the text it returns, as for `respond text`).
 */
export function streams(media: RespondMedia, body: Expr | null, target: "query" | "action" | "block"): boolean {
  return media.kind === "ndjson" || (media.kind === "csv" && body === null && target === "query");
}

/** The stream of a module route's respond; null (after reporting) when it cannot be one. */
export function analyzeStream(media: RespondMedia, body: Expr | null, target: "query" | "action" | "block", scope: RouteExprScope): Stream | null {
  const format = media.kind as Stream["format"];
  if (body !== null) {
    scope.r.add(codes.bodyOnStream.at(scope.file, body.span));
    return null;
  }
  const result = scope.result;
  let found: string | null = null;
  let columns: Stream["columns"] = [];
  if (target === "block") found = "a route-file block answers its route data";
  else if (target === "action" || result === null) found = "the target is an action";
  else if (result.kind === "queryRows") {
    const q = scope.queries.get(result.query) ?? [...scope.queries.values()].find((x) => x.name === result.query);
    columns = (q?.columns ?? []).map((c) => ({ name: c.name, kind: c.type === "bool" ? "bool" : c.type === "json" ? "json" : "value" }));
  } else if (result.kind === "rows") {
    const fields = scope.resources.get(result.resource)?.fields ?? [];
    columns = fields.map((f) => ({ name: f.name, kind: f.type === "bool" ? "bool" : f.type === "json" ? "json" : "value" }));
  } else if (result.kind === "row" || result.kind === "queryRow") found = "the target is a `one` query (a row)";
  else found = "the target is an action";
  if (found !== null) {
    scope.r.add(codes.notQueryRows.at(scope.file, media.span, format, found));
    return null;
  }
  return { format, columns };
}
