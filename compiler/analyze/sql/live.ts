import type { ColumnModel, ScalarType } from "../model/model.js";
import type { JsonValueFix } from "./dialect.js";
import type { DeclaredTable } from "./identifiers.js";
import { modelText, sqlEdits } from "./params.js";
import type { SqlText } from "./span.js";

// `svc check --db URL`: what a live database says about each statement, in one shape for
// both network dialects (postgres/live.ts, mysql/live.ts), and how a place in the SQL
// sent to it maps back into the .svc file.

/** A statement to ask the database about. */
export interface LiveStatement {
  name: string;
  /** The SQL as the server sends it (this dialect's text). */
  text: string;
  /** A query's typed result columns; null for a statement whose rows svc does not type. */
  columns: ColumnModel[] | null;
}

/** The type class of a live result column: what JSON its values become. */
export type LiveType = "text" | "int" | "number" | "bool" | "timestamp" | "json" | "date" | "other";

export interface LiveAnswer {
  name: string;
  /** The database refused the statement; `offset` is a 0-based place in `text` when it said where. */
  error: { message: string; offset: number | null } | null;
  /** Result columns as the database describes them (empty for a statement without rows). */
  columns: { name: string; type: LiveType; typeName: string }[];
}

export interface LiveReport {
  /** Differences between declared resources and live tables the server would refuse at start. */
  schema: { table: string; problem: string }[];
  statements: LiveAnswer[];
  /** Declared changes not complete on the database (its plan's), which the statements were checked as done. */
  pending: { change: string; status: "not begun" | "open" }[];
}

/** The live types a svc column type may come back as without changing its JSON. */
const COMPATIBLE: Record<ScalarType, readonly LiveType[]> = {
  id: ["text"],
  text: ["text"],
  enum: ["text"],
  int: ["int", "number"],
  float: ["int", "number"],
  bool: ["bool", "int"],
  timestamp: ["timestamp"],
  json: ["json", "text"],
  file: ["json", "text"],
};

export function compatible(declared: ScalarType | "unknown", live: LiveType): boolean {
  return declared === "unknown" || COMPATIBLE[declared].includes(live);
}

// Placeholders as postgres/params.ts and mysql/params.ts write them.
const PLACEHOLDER = /\$\d+(?:::(?:double precision|[a-z]+))?|STR_TO_DATE\(\?, '[^']*'\)|\?/y;

/**
 * Maps an offset in `sent` (the SQL's text as bindParams wrote it for one dialect) back to
 * an offset in `sql.text`: the text between edits is copied unchanged; an offset inside a
 * placeholder maps to its `@name`, one inside a rewritten name (json_agg for
 * json_group_array) to the name as written. `values`: the query's `sql.jsonValues`.
 */
export function sourceOffset(
  sql: SqlText,
  sentAsIs: string,
  offsetAsIs: number,
  values: readonly JsonValueFix[] = [],
  tables: readonly DeclaredTable[] = [],
): number {
  // The SQL is sent as written, with the blank space the model's trimmed text leaves out.
  const sent = sentAsIs.trimStart();
  const offset = Math.max(0, offsetAsIs - (sentAsIs.length - sent.length));
  let src = 0;
  let out = 0;
  for (const edit of sqlEdits(modelText(sql), values, tables).edits) {
    const stretch = edit.start - src;
    if (offset < out + stretch) return src + Math.max(0, offset - out);
    const at = out + stretch;
    let length: number;
    if (typeof edit.text === "number") {
      PLACEHOLDER.lastIndex = at;
      length = PLACEHOLDER.exec(sent)?.[0].length ?? 0;
    } else {
      // Which dialect `sent` is for is not known here: the longest text that is there.
      const written = Object.values(edit.text).sort((a, b) => b.length - a.length);
      length = written.find((t) => sent.startsWith(t, at))?.length ?? 0;
    }
    if (offset < at + length) return edit.start;
    src = edit.end;
    out = at + length;
  }
  return Math.min(src + Math.max(0, offset - out), sql.text.length);
}

/**
 * Where a MySQL message points: `… near 'xyz' at line 2` or a quoted name (`Unknown
 * column 'x' in …`, `Table 'db.t' doesn't exist`); the offset of that text in `sent`, or null.
 */
export function offsetFromMessage(sent: string, message: string): number | null {
  const near = /near '([\s\S]*?)' at line \d+/.exec(message);
  if (near && near[1] !== "") {
    const at = sent.indexOf(near[1]);
    if (at >= 0) return at;
  }
  const quoted = /'([^']+)'/.exec(message);
  if (quoted) {
    const name = quoted[1].includes(".") ? quoted[1].slice(quoted[1].lastIndexOf(".") + 1) : quoted[1];
    const m = new RegExp(
      `(^|[^A-Za-z0-9_$])[\`"]?${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[\`"]?(?![A-Za-z0-9_$])`,
      "i",
    ).exec(sent);
    if (m) return m.index + m[1].length;
  }
  return null;
}
