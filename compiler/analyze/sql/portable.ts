import type { Dialect, ScalarType } from "../model/model.js";
import type { JsonValueFix } from "./dialect.js";
import { type DeclaredTable, nameEdits } from "./identifiers.js";
import { nullOrderEdits } from "./null-order.js";
import { KEYWORDS } from "./refs.js";
import { type Token, closingParen } from "./tokens.js";

// SQL that one text cannot say on every backend, which svc writes per backend at build time:
// - JSON built by SQL. SQLite, PostgreSQL and MySQL spell the same four functions three
//   ways; a project may write any spelling, and each backend's SQL gets its own. Aggregates
//   over no rows give `[]`/`{}` everywhere, as SQLite's do (PostgreSQL and MySQL give NULL),
//   and a subquery's JSON nested into another JSON function stays JSON everywhere.
// - `random()`: a float in [0, 1) on every backend. SQLite's own is a 64-bit integer, so its
//   low 53 bits are scaled there (exact in a double); PostgreSQL's random() and MySQL's RAND()
//   already are.
// - A column's type annotation, `AS "name: type"`: the annotation is svc's, the database
//   sees only `"name"`.
// - Names written without quotes, quoted on PostgreSQL and MySQL as they were declared
//   (identifiers.ts).
// - Where NULL sorts in ORDER BY: written out on PostgreSQL where it differs (null-order.ts).
// - length(): characters everywhere (MySQL's LENGTH counts bytes, so it gets CHAR_LENGTH).

export interface JsonFamily {
  /** Which arguments are values: an object's every second, an array's all, an aggregate's one. */
  kind: "object" | "array" | "arrayAgg" | "objectAgg";
  spellings: Record<Dialect, string>;
  /** For aggregates: what an aggregate over no rows gives on SQLite, written per dialect. */
  empty?: Record<Exclude<Dialect, "sqlite">, string>;
  /** SQLite's argument count, for the checker's stand-ins; -1: any. */
  args: number;
  aggregate: boolean;
}

const ARRAY_AGG: JsonFamily = {
  kind: "arrayAgg",
  spellings: { sqlite: "json_group_array", postgres: "json_agg", mysql: "JSON_ARRAYAGG" },
  empty: { postgres: "'[]'::json", mysql: "JSON_ARRAY()" },
  args: 1,
  aggregate: true,
};
const OBJECT_AGG: JsonFamily = {
  kind: "objectAgg",
  spellings: { sqlite: "json_group_object", postgres: "json_object_agg", mysql: "JSON_OBJECTAGG" },
  empty: { postgres: "'{}'::json", mysql: "JSON_OBJECT()" },
  args: 2,
  aggregate: true,
};
const OBJECT: JsonFamily = {
  kind: "object",
  spellings: { sqlite: "json_object", postgres: "json_build_object", mysql: "JSON_OBJECT" },
  args: -1,
  aggregate: false,
};
const ARRAY: JsonFamily = {
  kind: "array",
  spellings: { sqlite: "json_array", postgres: "json_build_array", mysql: "JSON_ARRAY" },
  args: -1,
  aggregate: false,
};

/** Every spelling svc reads (lower-cased), with its family. */
export const JSON_FUNCTIONS: ReadonlyMap<string, JsonFamily> = new Map([
  ["json_group_array", ARRAY_AGG],
  ["json_agg", ARRAY_AGG],
  ["jsonb_agg", ARRAY_AGG],
  ["json_arrayagg", ARRAY_AGG],
  ["json_group_object", OBJECT_AGG],
  ["json_object_agg", OBJECT_AGG],
  ["jsonb_object_agg", OBJECT_AGG],
  ["json_objectagg", OBJECT_AGG],
  ["json_object", OBJECT],
  ["json_build_object", OBJECT],
  ["jsonb_build_object", OBJECT],
  ["json_array", ARRAY],
  ["json_build_array", ARRAY],
  ["jsonb_build_array", ARRAY],
]);

/** Spellings SQLite lacks: the checker's database gets a stand-in for each, so the SQL as written prepares. */
export function standInFunctions(): { name: string; args: number; aggregate: boolean }[] {
  const own = new Set([ARRAY_AGG, OBJECT_AGG, OBJECT, ARRAY].map((f) => f.spellings.sqlite));
  return [...JSON_FUNCTIONS]
    .filter(([name]) => !own.has(name))
    .map(([name, f]) => ({ name, args: f.args, aggregate: f.aggregate }));
}

const NAMES_A_TABLE = new Set(["INTO", "UPDATE", "ON", "TABLE", "REFERENCES", "JOIN", "FROM"]);

// 1/0 (SQLite, MySQL) as JSON true/false, NULL as null; PostgreSQL's booleans already are.
const WHEN = ") WHEN 1 THEN 'true' WHEN 0 THEN 'false' END";
const BOOL_AS_JSON: [Record<Dialect, string>, Record<Dialect, string>] = [
  { sqlite: "json(CASE (", postgres: "", mysql: "JSON_EXTRACT(CASE (" },
  { sqlite: `${WHEN})`, postgres: "", mysql: `${WHEN}, '$')` },
];
// svc's ISO text (`2024-05-01T12:00:00.123Z`), which SQLite stores already; digits past
// milliseconds are dropped, as when a timestamp column is read.
const TIMESTAMP_AS_JSON: [Record<Dialect, string>, Record<Dialect, string>] = [
  { sqlite: "", postgres: "to_char((", mysql: "CONCAT(LEFT(DATE_FORMAT(" },
  {
    sqlite: "",
    postgres: `) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    mysql: ", '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')",
  },
];

/** `random()` per backend: a float in [0, 1), each of 2^53 steps as likely on SQLite. */
export const RANDOM_SQL: Record<Dialect, string> = {
  sqlite: "((random() & 9007199254740991) / 9007199254740992.0)",
  postgres: "random()",
  mysql: "RAND()",
};

/** `random()` with no arguments at token `i` (not `schema.random(…)`). */
export function isRandomCall(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i];
  return (
    t.kind === "word" &&
    t.value.toLowerCase() === "random" &&
    tokens[i + 1]?.text === "(" &&
    tokens[i + 2]?.text === ")" &&
    tokens[i - 1]?.text !== "."
  );
}

/** One replacement in the SQL text, per dialect. */
export interface SqlEdit {
  start: number;
  end: number;
  text: Record<Dialect, string>;
}

/** The types an annotation may name. `enum` is left out: its members come from a field. */
export const ANNOTATION_TYPES: readonly ScalarType[] = ["id", "text", "int", "float", "bool", "timestamp", "json"];

export interface Annotation {
  /** The column's name, as the database sees it. */
  name: string;
  /** As written; checked by the caller. */
  type: string;
  nullable: boolean;
}

const ANNOTATED = /^\s*([^\s:]+)\s*:\s*([A-Za-z_][A-Za-z0-9_]*)\s*(\?)?\s*$/;

/** `"favorited: bool"` (a double-quoted alias) as an annotation; null for any other name. */
export function parseAnnotation(t: Token | undefined): Annotation | null {
  if (!t || t.kind !== "quoted" || !t.text.startsWith('"')) return null;
  const m = ANNOTATED.exec(t.value);
  return m ? { name: m[1], type: m[2], nullable: m[3] === "?" } : null;
}

/**
 * The edits that make `tokens` (one SQL body) each backend's SQL; offsets are in the body's
 * text. `values`: the booleans and timestamps given to JSON functions (the checker finds them);
 * `tables`: the project's resources, whose names are quoted where the SQL names them.
 */
export function portableEdits(tokens: readonly Token[], values: readonly JsonValueFix[] = [], tables: readonly DeclaredTable[] = []): SqlEdit[] {
  const edits: SqlEdit[] = [...nameEdits(tokens, tables), ...nullOrderEdits(tokens, tables)];
  for (const v of values) {
    if (v.type === "intDivision") {
      edits.push({ start: v.start, end: v.end, text: { sqlite: "/", postgres: "/", mysql: "DIV" } });
      continue;
    }
    const [open, close] = v.type === "bool" ? BOOL_AS_JSON : TIMESTAMP_AS_JSON;
    edits.push({ start: v.start, end: v.start, text: open });
    edits.push({ start: v.end, end: v.end, text: close });
  }
  const wrapped = values.filter((v) => v.type !== "intDivision");
  const fixedAt = new Set(wrapped.map((v) => v.start));
  const fixedEnd = new Set(wrapped.map((v) => v.end));
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === "quoted") {
      const a = parseAnnotation(t);
      if (a && isAlias(tokens, i)) {
        const quoted = `"${a.name.replace(/"/g, '""')}"`;
        edits.push({ start: t.start, end: t.end, text: { sqlite: quoted, postgres: quoted, mysql: quoted } });
      }
      continue;
    }
    if (isRandomCall(tokens, i)) {
      edits.push({ start: t.start, end: tokens[i + 2].end, text: RANDOM_SQL });
      continue;
    }
    // MySQL's LENGTH counts bytes; SQLite's and PostgreSQL's count characters, as CHAR_LENGTH does.
    if (t.kind === "word" && t.value === "LENGTH" && tokens[i + 1].text === "(" && tokens[i - 1]?.text !== ".") {
      edits.push({ start: t.start, end: t.end, text: { sqlite: t.text, postgres: t.text, mysql: "CHAR_LENGTH" } });
      continue;
    }
    const family = t.kind === "word" && tokens[i + 1].text === "(" ? JSON_FUNCTIONS.get(t.value.toLowerCase()) : undefined;
    // `schema.json_array(…)` is someone else's function; `INSERT INTO json_array (…)` a table.
    const before = tokens[i - 1];
    if (!family || before?.text === "." || NAMES_A_TABLE.has(before?.value ?? "")) continue;
    edits.push(...nestedSubqueries(tokens, i + 1).filter((e) => !fixedAt.has(e.start) && !fixedEnd.has(e.start)));
    if (!family.empty) {
      edits.push({ start: t.start, end: t.end, text: family.spellings });
      continue;
    }
    edits.push({ start: t.start, end: t.start, text: { sqlite: "", postgres: "coalesce(", mysql: "coalesce(" } });
    edits.push({ start: t.start, end: t.end, text: family.spellings });
    const at = tokens[callEnd(tokens, i + 1)].end;
    const close = { sqlite: "", postgres: `, ${family.empty.postgres})`, mysql: `, ${family.empty.mysql})` };
    edits.push({ start: at, end: at, text: close });
  }
  return edits;
}

/**
 * A JSON function's arguments that are `(SELECT …)`: SQLite and MariaDB forget that a
 * subquery's value is JSON (it would nest as a string), so it is read as JSON again there.
 */
function nestedSubqueries(tokens: readonly Token[], open: number): SqlEdit[] {
  const close = closingParen(tokens, open);
  const edits: SqlEdit[] = [];
  let start = open + 1;
  for (let k = open + 1; k <= close && k < tokens.length; k++) {
    if (k < close && !(tokens[k].text === "," && tokens[k].depth === tokens[open].depth + 1)) continue;
    const first = tokens[start];
    if (
      k > start &&
      first.text === "(" &&
      closingParen(tokens, start) === k - 1 &&
      ["SELECT", "WITH"].includes(tokens[start + 1]?.value ?? "")
    ) {
      const end = tokens[k - 1].end;
      edits.push({ start: first.start, end: first.start, text: { sqlite: "json(", postgres: "", mysql: "JSON_EXTRACT(" } });
      edits.push({ start: end, end, text: { sqlite: ")", postgres: "", mysql: ", '$')" } });
    }
    start = k + 1;
  }
  return edits;
}

/**
 * The value arguments of the JSON function call whose `(` is at `open`, as token index
 * ranges [from, to): an aggregate's argument stops before its ORDER BY.
 */
export function jsonValueArgs(tokens: readonly Token[], open: number, family: JsonFamily): [number, number][] {
  const close = closingParen(tokens, open);
  const depth = tokens[open].depth + 1;
  const args: [number, number][] = [];
  let start = open + 1;
  for (let k = open + 1; k <= close && k < tokens.length; k++) {
    if (k < close && !(tokens[k].text === "," && tokens[k].depth === depth)) continue;
    let end = k;
    const order = tokens.findIndex((t, j) => j >= start && j < k && t.depth === depth && t.value === "ORDER");
    if (order >= 0) end = order;
    if (end > start) args.push([start, end]);
    start = k + 1;
  }
  switch (family.kind) {
    case "object":
      return args.filter((_, i) => i % 2 === 1);
    case "array":
      return args;
    case "arrayAgg":
      return args.slice(0, 1).filter(([from]) => tokens[from].value !== "DISTINCT");
    case "objectAgg":
      return args.slice(1, 2);
  }
}

/** A quoted name right after `AS`, or right after what ends an expression (`x "name"`). */
function isAlias(tokens: readonly Token[], i: number): boolean {
  const before = tokens[i - 1];
  if (!before) return false;
  if (before.value === "AS") return true;
  if (before.kind === "word") return !KEYWORDS.has(before.value) || before.value === "END";
  return before.text === ")" || ["number", "string", "quoted", "param"].includes(before.kind);
}

/** The last token of a call whose `(` is at `open`, its FILTER (…) and OVER (…)/OVER name included. */
function callEnd(tokens: readonly Token[], open: number): number {
  let last = closingParen(tokens, open);
  if (last >= tokens.length) return tokens.length - 1;
  if (tokens[last + 1]?.value === "FILTER" && tokens[last + 2]?.text === "(") last = closingParen(tokens, last + 2);
  if (last >= tokens.length) return tokens.length - 1;
  if (tokens[last + 1]?.value === "OVER") {
    last = tokens[last + 2]?.text === "(" ? closingParen(tokens, last + 2) : last + 2;
  }
  return Math.min(last, tokens.length - 1);
}
