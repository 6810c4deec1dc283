import type { QueryDecl } from "../parse/ast.js";
import type { QueryModel } from "./model.js";
import { analyzeParams } from "./params.js";
import type { Reporter } from "./shared/context.js";
import type { SqlChecker } from "./sql/dialect.js";
import { bindParams } from "./sql/params.js";

/** A declared query: parameters typed, SQL checked against the resources, result columns typed. */
export function analyzeQuery(module: string, decl: QueryDecl, file: string, r: Reporter, checker: SqlChecker): QueryModel {
  const params = analyzeParams(decl.params, file, r);
  const checked = checker.check({ file, body: decl.sql, params, kind: "query", name: decl.name.name });
  r.addAll(checked.diagnostics);
  const bound = bindParams(decl.sql, new Map(params.map((p) => [p.name, p.type])), checked.jsonValues);
  return {
    module,
    name: decl.name.name,
    doc: decl.doc,
    params,
    one: decl.one,
    sql: {
      source: decl.sql.text.trim(),
      args: bound.args,
      dialects: bound.dialects,
      readonly: checked.readonly,
      ...(checked.jsonValues.length ? { jsonValues: checked.jsonValues } : {}),
    },
    columns: checked.columns,
    rowResource: checked.rowResource,
  };
}
