import type { FieldModel, TableDdl } from "../../model/model.js";
import { type ResourceShape, type Rules, buildTableDdl } from "./shared.js";

// MySQL / MariaDB / TiDB. Notes that shape this file:
// - utf8mb4_bin makes text comparison byte-wise, as in SQLite and PostgreSQL.
// - TEXT and JSON columns take only expression defaults in MySQL 8 (`DEFAULT ('x')`), and
//   are indexed on a prefix of 255 characters (a key cannot cover a whole TEXT).
// - DATETIME(3) holds UTC: the server's session must use time_zone '+00:00' so that
//   CURRENT_TIMESTAMP(3) is UTC too.
// - `sqlType` is `information_schema.COLUMNS.DATA_TYPE`; MariaDB reports JSON as `longtext`.

const TYPES: Record<FieldModel["type"], [declared: string, reported: string]> = {
  id: ["VARCHAR(64)", "varchar"],
  text: ["TEXT", "text"],
  int: ["BIGINT", "bigint"],
  float: ["DOUBLE", "double"],
  bool: ["BOOLEAN", "tinyint"],
  timestamp: ["DATETIME(3)", "datetime"],
  json: ["JSON", "json"],
  // A file's metadata (name, type, size, sha256) as JSON; its bytes are in the upload store.
  file: ["JSON", "json"],
  enum: ["VARCHAR(255)", "varchar"],
};

const PREFIXED: ReadonlySet<FieldModel["type"]> = new Set(["text", "json", "file"]);

const quoteIdent = (name: string) => `\`${name.replace(/`/g, "``")}\``;

/** MySQL reads backslash escapes in strings (unless NO_BACKSLASH_ESCAPES), so they are escaped too. */
function quoteString(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/\0/g, "\\0").replace(/'/g, "''")}'`;
}

export const mysqlRules: Rules = {
  quoteIdent,
  quoteString,
  // A TEXT column cannot be a key without a prefix length: a text key is a VARCHAR(255).
  columnType: (field, primaryKey) =>
    primaryKey && field.type === "text" ? { declared: "VARCHAR(255)", reported: "varchar" } : { declared: TYPES[field.type][0], reported: TYPES[field.type][1] },
  identity: { declared: "BIGINT", reported: "bigint", suffix: "AUTO_INCREMENT" },
  bool: (value) => (value ? "TRUE" : "FALSE"),
  // DATETIME has no zone: the UTC wall time, `YYYY-MM-DD HH:MM:SS.mmm`.
  timestamp: (iso) => iso.replace("T", " ").replace("Z", ""),
  now: "CURRENT_TIMESTAMP(3)",
  wrapDefault: (field, literal) => (PREFIXED.has(field.type) ? `(${literal})` : literal),
  extraChecks: () => [],
  indexColumn: (field, name, desc) =>
    `${quoteIdent(name)}${field && PREFIXED.has(field.type) ? "(255)" : ""}${desc ? " DESC" : ""}`,
  tableSuffix: " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
};

export function tableDdl(resource: ResourceShape): TableDdl {
  return buildTableDdl(resource, mysqlRules);
}
