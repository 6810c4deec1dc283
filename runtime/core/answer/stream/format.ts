// The rows of a streamed answer as text (docs/language.md §2.4, "Streamed answers"): CSV
// (RFC 4180: CRLF line ends, a field with a comma, a quote or a line break quoted, quotes
// doubled) and NDJSON (one JSON object a line). The build says what each column holds, so a
// driver's 0/1 becomes true/false and a json column's text is written as its value.

/** What a column holds, where the drivers differ in how they give it. */
export type CellKind = "bool" | "json" | "value";

export interface StreamColumn {
  name: string;
  kind: CellKind;
}

/** A value as its kind says, the same on every backend. */
function normalize(value: unknown, kind: CellKind): unknown {
  if (value === null || value === undefined) return null;
  if (kind === "bool") return value === true || value === 1 || value === 1n || value === "1" || value === "true";
  if (kind === "json" && typeof value === "string") {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Buffer.isBuffer(value)) return value.toString("base64");
  return value;
}

/** One CSV field: text as it is, null as nothing, objects as JSON; quoted when it must be. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line: the column names. */
export function csvHeader(columns: readonly StreamColumn[]): string {
  return `${columns.map((c) => csvField(c.name)).join(",")}\r\n`;
}

export function csvLine(row: Record<string, unknown>, columns: readonly StreamColumn[]): string {
  let line = "";
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i];
    line += (i === 0 ? "" : ",") + csvField(normalize(row[c.name], c.kind));
  }
  return `${line}\r\n`;
}

export function ndjsonLine(row: Record<string, unknown>, columns: readonly StreamColumn[]): string {
  const out: Record<string, unknown> = {};
  for (const c of columns) {
    // A column named __proto__ is an entry like any other.
    Object.defineProperty(out, c.name, { value: normalize(row[c.name], c.kind), enumerable: true, writable: true, configurable: true });
  }
  return `${JSON.stringify(out)}\n`;
}
