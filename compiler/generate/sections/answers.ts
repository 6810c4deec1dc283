import { StructureKind, type StatementStructures } from "../ts-morph.js";
import type { ActionModel, Model, QueryModel } from "../../analyze/model/model.js";
import type { Names } from "../names.js";
import { oneAsciiKeyEach } from "../../analyze/shared/row-keys.js";
import { queryRowTs } from "../ts-types.js";
import { isIdentifier, sameOrder } from "./shared.js";

// An endpoint's answer written as JSON by a function made for its row type, where
// JSON.stringify would scan every character of every string (runtime/core/answer/json-text.ts):
// a query's rows, and an action's answer when it is a resource's row or rows or a query's.
// The function writes the row's columns in the order the statement returns them, which is
// the order of the row's keys on every backend, so its text is JSON.stringify's.

/** What endpoints need to write their answers: the row functions, and each endpoint's `json`. */
export interface AnswerJson {
  functions: StatementStructures[];
  /** `(result) => rt.jsonRows(result, taskJson)` per query and action, absent where JSON.stringify is kept. */
  byTarget: Map<QueryModel | ActionModel, string>;
}

export function answerJson(
  model: Model,
  queries: readonly QueryModel[],
  actions: readonly ActionModel[],
  names: Names,
): AnswerJson {
  const functions: StatementStructures[] = [];
  const made = new Set<string>();
  /** The function writing rows of `type` (the TypeScript `rowTs`) with `columns`, made once. */
  const rowFn = (type: string, rowTs: string, columns: readonly string[]): string | null => {
    if (!oneAsciiKeyEach(columns)) return null;
    const fn = names.rowJson(type);
    if (!made.has(fn)) {
      made.add(fn);
      functions.push(rowJsonFunction(fn, rowTs, columns));
    }
    return fn;
  };
  const resourceFn = (name: string): string | null => {
    const r = model.resources.find((x) => x.name === name);
    // A row with a password field never answers (SVC7009): no function for one.
    if (r === undefined || r.fields.some((f) => f.password)) return null;
    const rowTs = names.rowType(r.name);
    return rowFn(rowTs, rowTs, r.fields.map((f) => f.name));
  };
  const queryFn = (q: QueryModel): string | null => {
    const columns = q.columns.map((c) => c.name);
    // Rows of one resource share its function when their columns come in its fields' order.
    const resource = model.resources.find((r) => r.name === q.rowResource);
    if (resource !== undefined && sameOrder(columns, resource.fields.map((f) => f.name))) return resourceFn(resource.name);
    return rowFn(names.queryRowType(q.module, q.name), queryRowTs(q, names), columns);
  };
  const json = (fn: string | null, many: boolean): string | null =>
    fn === null ? null : `(result) => rt.${many ? "jsonRows" : "jsonRowOrNull"}(result, ${fn})`;

  const byTarget = new Map<QueryModel | ActionModel, string>();
  const set = (target: QueryModel | ActionModel, text: string | null): void => {
    if (text !== null) byTarget.set(target, text);
  };
  for (const q of queries) set(q, json(queryFn(q), !q.one));
  for (const a of actions) {
    const t = a.returns;
    if (t.kind === "row" || t.kind === "rows") set(a, json(resourceFn(t.resource), t.kind === "rows"));
    if (t.kind === "queryRow" || t.kind === "queryRows") {
      // The type names the query without its module: only a name no other module uses is certain.
      const named = model.queries.filter((x) => x.name === t.query);
      if (named.length === 1) set(a, json(queryFn(named[0]!), t.kind === "queryRows"));
    }
  }
  return { functions, byTarget };
}

/** `function taskJson(r: Task): string { return `{"id":${rt.jsonValue(r.id)}` + … + "}"; }` */
function rowJsonFunction(name: string, rowType: string, columns: readonly string[]): StatementStructures {
  const parts = columns.map(
    (c, i) => `\`${i === 0 ? "{" : ","}${templateText(JSON.stringify(c))}:\${rt.jsonValue(${access(c)})}\``,
  );
  return {
    kind: StructureKind.Function,
    name,
    docs: [`\`${rowType}\` as JSON: the text JSON.stringify writes (runtime/core/answer/json-text.ts).`],
    parameters: [{ name: "r", type: rowType }],
    returnType: "string",
    statements: `return (\n${[...parts, '"}"'].join(" +\n")}\n);`,
  };
}

/** `r.title`, or `r["a b"]` for a column name that is no identifier. */
function access(column: string): string {
  return isIdentifier(column) ? `r.${column}` : `r[${JSON.stringify(column)}]`;
}

/** Text as it is written inside a template literal. */
function templateText(text: string): string {
  return text.replace(/[\\`]|\$\{/g, (m) => `\\${m}`);
}
