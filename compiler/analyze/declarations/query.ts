import type { QueryDecl } from "../../parse/ast.js";
import { listCodes } from "../../diagnostics/codes/lists.js";
import type { QueryModel, ResourceModel } from "../model/model.js";
import { checkPasswordSql } from "../checks/passwords.js";
import { type TypeTable, describeShape } from "./record-types.js";
import { analyzeParams } from "./params.js";
import { uploadCodes } from "../../diagnostics/codes/uploads.js";
import type { Reporter } from "../shared/context.js";
import type { SqlChecker } from "../sql/dialect.js";
import { SQL_LIST_ITEMS, bindParams, listItems } from "../sql/params.js";
import { sqlTextRef } from "../sql/span.js";
import { sqliteJsonRows } from "../sql/sqlite/json-rows.js";

/** A declared query: parameters typed, SQL checked against the resources, result columns typed. */
export function analyzeQuery(
  module: string,
  decl: QueryDecl,
  file: string,
  r: Reporter,
  checker: SqlChecker,
  resources: ReadonlyMap<string, ResourceModel>,
  types: TypeTable = new Map(),
): QueryModel {
  const params = analyzeParams(decl.params, file, r, { module, table: types });
  // SQL binds single values, and lists of them (`x IN @tags`); a record has no SQL form.
  for (const p of params) {
    const s = p.shape;
    if (s && (s.kind === "record" || (s.kind === "list" && (s.item.kind !== "scalar" || !SQL_LIST_ITEMS.includes(s.item.type))))) {
      const at = decl.params.find((x) => x.name.name === p.name)!;
      r.add(listCodes.notASingleValue.at(file, at.type.span, `query parameter \`${p.name}\``, describeShape(s)));
    }
    if (p.type === "file") {
      const at = decl.params.find((x) => x.name.name === p.name)!;
      r.add(uploadCodes.fileQueryParam.at(file, at.type.span, p.name));
    }
  }
  checkPasswordSql(decl.sql, resources, file, r);
  const checked = checker.check({ file, body: decl.sql, params, kind: "query", name: decl.name.name });
  r.addAll(checked.diagnostics);
  const bound = bindParams(decl.sql, new Map(params.map((p) => [p.name, p.type])), listItems(params), checked.jsonValues, [...resources.values()]);
  // Kept for `svc check --db`, which maps places in the model's (trimmed) text as SqlSourceRef does.
  const lead = decl.sql.text.length - decl.sql.text.trimStart().length;
  const jsonValues = checked.jsonValues.map((v) => ({ ...v, start: v.start - lead, end: v.end - lead }));
  const sqlite = bound.dialects.sqlite;
  // A private query answers no request of its own: route files take its rows (`run`).
  const json = checked.readonly && decl.visibility?.name !== "private" ? sqliteJsonRows(sqlite.text, checked.columns) : null;
  if (json !== null) sqlite.json = json;
  const model: QueryModel = {
    module,
    name: decl.name.name,
    doc: decl.doc,
    at: { file, span: decl.name.span, text: sqlTextRef(decl.sql) },
    params,
    // Known once routes and route files are read (text-args.ts).
    textArgs: [],
    one: decl.one,
    sql: {
      source: decl.sql.text.trim(),
      args: bound.args,
      dialects: bound.dialects,
      readonly: checked.readonly,
      ...(jsonValues.length ? { jsonValues } : {}),
    },
    columns: checked.columns,
    rowResource: checked.rowResource,
    // Known once route files are read (route-table.ts).
    endpoint: null,
  };
  if (decl.visibility?.name === "private") model.private = true;
  return model;
}
