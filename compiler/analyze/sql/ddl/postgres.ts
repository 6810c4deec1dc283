import type { FieldModel, TableDdl } from "../../model.js";
import { type ResourceShape, type Rules, buildTableDdl, standardString } from "./shared.js";

// PostgreSQL has a native type for everything; `sqlType` is the column's
// `information_schema.columns.data_type` (e.g. `timestamp with time zone`).

const TYPES: Record<FieldModel["type"], [declared: string, reported: string]> = {
  id: ["text", "text"],
  text: ["text", "text"],
  int: ["bigint", "bigint"],
  float: ["double precision", "double precision"],
  bool: ["boolean", "boolean"],
  timestamp: ["timestamptz", "timestamp with time zone"],
  json: ["jsonb", "jsonb"],
  file: ["jsonb", "jsonb"],
  enum: ["text", "text"],
};

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export const postgresRules: Rules = {
  quoteIdent,
  quoteString: standardString,
  columnType: (field) => ({ declared: TYPES[field.type][0], reported: TYPES[field.type][1] }),
  bool: (value) => (value ? "TRUE" : "FALSE"),
  timestamp: (iso) => iso,
  now: "now()",
  wrapDefault: (_field, literal) => literal,
  extraChecks: () => [],
  indexColumn: (_field, name, desc) => `${quoteIdent(name)}${desc ? " DESC" : ""}`,
  tableSuffix: "",
};

export function tableDdl(resource: ResourceShape): TableDdl {
  return buildTableDdl(resource, postgresRules);
}
