import type { ParamModel } from "../../../compiler/analyze/model/model.js";
import type { SqlCheckResult, SqlChecker } from "../../../compiler/analyze/sql/dialect.js";
import type { SqlBody } from "../../../compiler/parse/ast.js";
import { sqlBody } from "./fixtures.js";

export const FILE = "modules/task_tracker/task_tracker.svc";

/** Checks `text` (or a ready body) as query `name` of FILE. */
export function checkSql(
  checker: SqlChecker,
  text: string | SqlBody,
  params: ParamModel[] = [],
  kind: "query" | "statement" = "query",
  name = "q",
): SqlCheckResult & { body: SqlBody } {
  const body = typeof text === "string" ? sqlBody(text) : text;
  return { ...checker.check({ file: FILE, body, params, kind, name }), body };
}

/** `code severity` pairs, for compact assertions. */
export function codes(r: SqlCheckResult): string[] {
  return r.diagnostics.map((d) => `${d.code} ${d.severity}`);
}
