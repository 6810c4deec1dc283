import type { FieldModel, TableDdl } from "../../model/model.js";
import { type ResourceShape, type Rules, buildTableDdl, standardString } from "./shared.js";

// SQLite keeps timestamps as ISO-8601 UTC text (what JSON carries), booleans as 0/1 and
// JSON as text; CHECKs keep those representations honest. `sqlType` is the declared type
// as `PRAGMA table_info` reports it.

const TYPES: Record<FieldModel["type"], string> = {
  id: "TEXT",
  text: "TEXT",
  int: "INTEGER",
  float: "REAL",
  bool: "INTEGER",
  timestamp: "TEXT",
  json: "TEXT",
  file: "TEXT",
  enum: "TEXT",
};

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export const sqliteRules: Rules = {
  quoteIdent,
  quoteString: standardString,
  columnType: (field) => ({ declared: TYPES[field.type], reported: TYPES[field.type] }),
  // INTEGER PRIMARY KEY is the rowid; AUTOINCREMENT never hands out a number again, as the other backends do not.
  identity: { declared: "INTEGER", reported: "INTEGER", suffix: "AUTOINCREMENT" },
  bool: (value) => (value ? "1" : "0"),
  timestamp: (iso) => iso,
  now: "(strftime('%Y-%m-%dT%H:%M:%fZ','now'))",
  wrapDefault: (_field, literal) => literal,
  extraChecks(field, column) {
    if (field.type === "bool") return [`${column} IN (0, 1)`];
    if (field.type === "json" || field.type === "file") return [`json_valid(${column})`];
    return [];
  },
  indexColumn: (_field, name, desc) => `${quoteIdent(name)}${desc ? " DESC" : ""}`,
  tableSuffix: "",
};

export function tableDdl(resource: ResourceShape): TableDdl {
  return buildTableDdl(resource, sqliteRules);
}
