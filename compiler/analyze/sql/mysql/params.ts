import type { ScalarType } from "../../model/model.js";

// MySQL's positional `?`. A timestamp travels as svc's ISO-8601 UTC text
// (`2024-05-01T12:00:00.123Z`, runtime/lang/timestamp.ts), which MySQL and MariaDB refuse for a
// DATETIME in strict mode (the `T` is accepted, the `Z` is not); STR_TO_DATE reads it
// exactly, on MySQL, MariaDB and TiDB alike, and a malformed value is an error rather than
// a silent zero date. The session runs in UTC (runtime/db/mysql/session.ts), so the wall
// time stored is the UTC time.

export const MYSQL_TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%i:%s.%fZ";

export function mysqlPlaceholder(type?: ScalarType): string {
  return type === "timestamp" ? `STR_TO_DATE(?, '${MYSQL_TIMESTAMP_FORMAT}')` : "?";
}

const MYSQL_LIST_TYPES: Partial<Record<ScalarType, string>> = {
  id: "VARCHAR(64)",
  text: "LONGTEXT",
  enum: "LONGTEXT",
  int: "BIGINT",
  float: "DOUBLE",
  bool: "BOOLEAN",
};

/**
 * A `list<T>` argument, bound as its JSON text, as the table of its items: JSON_TABLE, which
 * MySQL 8 and MariaDB 10.6+ have.
 */
export function mysqlList(item: ScalarType): string {
  return `(SELECT value FROM JSON_TABLE(?, '$[*]' COLUMNS (value ${MYSQL_LIST_TYPES[item] ?? "LONGTEXT"} PATH '$')) AS svc_list)`;
}
