import type { ColumnModel, FieldModel, Model, ParamModel, QueryModel, ScalarType, ValueType } from "../analyze/model/model.js";
import type { Names } from "./names.js";

/** The TypeScript type of a scalar as JSON carries it (timestamps are ISO-8601 strings). */
export function scalarTs(type: ScalarType | "unknown", enumValues: readonly string[]): string {
  switch (type) {
    case "id":
    case "text":
    case "timestamp":
      return "string";
    case "int":
    case "float":
      return "number";
    case "bool":
      return "boolean";
    case "file":
      return "rt.FileValue";
    case "json":
    case "unknown":
      return "unknown";
    case "enum":
      return enumValues.map((v) => JSON.stringify(v)).join(" | ");
  }
}

export function nullableTs(ts: string, nullable: boolean): string {
  if (!nullable || ts === "unknown") return ts;
  return ts.includes("|") ? `(${ts}) | null` : `${ts} | null`;
}

export function fieldTs(f: FieldModel | ColumnModel | ParamModel): string {
  return nullableTs(scalarTs(f.type, f.enumValues), f.nullable);
}

/** The TypeScript type of an analyzed value. */
export function valueTs(t: ValueType, names: Names, model: Model): string {
  switch (t.kind) {
    case "scalar":
      return nullableTs(scalarTs(t.type, t.enumValues), t.nullable);
    case "row":
      return nullableTs(names.rowType(t.resource), t.nullable);
    case "rows":
      return `${names.rowType(t.resource)}[]`;
    case "queryRow":
    case "queryRows": {
      const q = findQuery(model, t.query);
      const row = q ? queryRowTs(q, names) : "rt.Row";
      return t.kind === "queryRows" ? `${row}[]` : nullableTs(row, t.nullable);
    }
    case "object":
      if (t.module !== undefined && t.type !== undefined) return nullableTs(names.recordType(t.module, t.type), t.nullable === true);
      return `{ ${t.fields.map((f) => `${f.name}: ${valueTs(f.type, names, model)}`).join("; ")} }`;
    case "array":
      return nullableTs(`${wrap(valueTs(t.item, names, model))}[]`, t.nullable === true);
    case "caller":
      return nullableTs("rt.Caller", t.nullable);
    case "null":
      return "null";
    case "unknown":
      return "unknown";
  }
}

function wrap(ts: string): string {
  return /[|&]/.test(ts) ? `(${ts})` : ts;
}

function findQuery(model: Model, name: string): QueryModel | undefined {
  return model.queries.find((q) => q.name === name);
}

/** The row type of a query: its resource's interface when it returns whole rows, else its own. */
export function queryRowTs(q: QueryModel, names: Names): string {
  return q.rowResource ? names.rowType(q.rowResource) : names.queryRowType(q.module, q.name);
}

/** What the query function resolves to. */
export function queryResultTs(q: QueryModel, names: Names): string {
  const row = queryRowTs(q, names);
  return q.one ? `${row} | null` : `${row}[]`;
}
