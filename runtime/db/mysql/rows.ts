// Rows from mysql2 as every backend gives them: DATETIME and TIMESTAMP values as svc's
// ISO-8601 UTC text with milliseconds. The session runs in UTC (mysql/session.ts) and the
// pool reads dates in UTC (`timezone: "Z"`), so the Date mysql2 makes holds the stored
// instant, and toISOString() writes it; JSON arrives as its text (jsonStrings) and the
// generated decoders parse it, as they parse SQLite's.

import type { Row } from "../../contract/index.js";

// mysql2's column type codes (lib/constants/types.js).
const TIMESTAMP = 7;
const DATETIME = 12;

interface Field {
  name: string;
  columnType?: number;
  type?: number;
}

// This is the hot path for every row of a result with a timestamp column.
export function isoRows(rows: Row[], fields: readonly Field[] | undefined): Row[] {
  if (fields === undefined || rows.length === 0) return rows;
  let names: string[] | null = null;
  for (const f of fields) {
    const type = f.columnType ?? f.type;
    if (type === DATETIME || type === TIMESTAMP) (names ??= []).push(f.name);
  }
  if (names === null) return rows;
  for (const row of rows) {
    for (const name of names) {
      const value = row[name];
      if (value instanceof Date) row[name] = isoOfDate(value);
      else if (typeof value === "string") row[name] = isoFromMysql(value);
    }
  }
  return rows;
}

// A list page reads the same rows again and again: the ISO text of an instant seen before
// is reused (a bounded map, emptied when full) rather than written anew.
const seen = new Map<number, string>();
const SEEN_MAX = 8192;

function isoOfDate(date: Date): string | null {
  const ms = date.getTime();
  if (Number.isNaN(ms)) return null;
  const known = seen.get(ms);
  if (known !== undefined) return known;
  const iso = date.toISOString();
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(ms, iso);
  return iso;
}

const DATETIME_TEXT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?$/;

/** `2024-05-01 12:00:00.123456` (UTC wall time, as a text column or an expression may hold it) as `2024-05-01T12:00:00.123Z`; anything else as it is. */
export function isoFromMysql(text: string): string {
  const m = DATETIME_TEXT.exec(text);
  if (m === null || m[1] === "0000-00-00") return text;
  return `${m[1]}T${m[2]}.${(m[3] ?? "").slice(0, 3).padEnd(3, "0")}Z`;
}
