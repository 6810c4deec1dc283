import { StructureKind, type StatementStructures } from "../ts-morph.js";
import type { Model, QueryModel } from "../../analyze/model.js";
import type { Names } from "../names.js";
import { queryRowTs } from "../ts-types.js";

// A query endpoint's answer written as JSON by a function made for its row type, where
// JSON.stringify would scan every character of every string (runtime/answers/json-text.ts). The
// function writes the row's columns in the order the statement returns them, which is the
// order of the row's keys on every backend, so its text is JSON.stringify's.

/** What a query endpoint needs to write its answer: the row functions, and each endpoint's `json`. */
export interface AnswerJson {
  functions: StatementStructures[];
  /** `(result) => rt.jsonRows(result, taskJson)` per query, absent where JSON.stringify is kept. */
  byQuery: Map<QueryModel, string>;
}

export function answerJson(model: Model, queries: readonly QueryModel[], names: Names): AnswerJson {
  const functions: StatementStructures[] = [];
  const byQuery = new Map<QueryModel, string>();
  const made = new Set<string>();
  for (const q of queries) {
    const columns = q.columns.map((c) => c.name);
    if (!writable(columns)) continue;
    const row = queryRowTs(q, names);
    // Rows of one resource share a function when their columns come in its fields' order.
    const fields =
      q.rowResource === null ? null : model.resources.find((r) => r.name === q.rowResource)!.fields.map((f) => f.name);
    const type = fields !== null && sameOrder(columns, fields) ? row : names.queryRowType(q.module, q.name);
    const fn = names.rowJson(type);
    if (!made.has(fn)) {
      made.add(fn);
      functions.push(rowJsonFunction(fn, row, columns));
    }
    byQuery.set(q, `(result) => rt.${q.one ? "jsonRowOrNull" : "jsonRows"}(result, ${fn})`);
  }
  return { functions, byQuery };
}

/**
 * Columns a row object holds one key each of: a repeated name is one key (the last value, in
 * the first one's place) and `__proto__` may not be a key at all, so JSON.stringify stays.
 */
function writable(columns: readonly string[]): boolean {
  return columns.length > 0 && new Set(columns).size === columns.length && !columns.includes("__proto__");
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** `function taskJson(r: Task): string { return `{"id":${rt.jsonValue(r.id)}` + … + "}"; }` */
function rowJsonFunction(name: string, rowType: string, columns: readonly string[]): StatementStructures {
  const parts = columns.map(
    (c, i) => `\`${i === 0 ? "{" : ","}${templateText(JSON.stringify(c))}:\${rt.jsonValue(${access(c)})}\``,
  );
  return {
    kind: StructureKind.Function,
    name,
    docs: [`\`${rowType}\` as JSON: the text JSON.stringify writes (runtime/answers/json-text.ts).`],
    parameters: [{ name: "r", type: rowType }],
    returnType: "string",
    statements: `return (\n${[...parts, '"}"'].join(" +\n")}\n);`,
  };
}

/** `r.title`, or `r["a b"]` for a column name that is no identifier. */
function access(column: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(column) ? `r.${column}` : `r[${JSON.stringify(column)}]`;
}

/** Text as it is written inside a template literal. */
function templateText(text: string): string {
  return text.replace(/[\\`]|\$\{/g, (m) => `\\${m}`);
}
