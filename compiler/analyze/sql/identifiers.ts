// Names in a project's SQL mean on PostgreSQL and MySQL what they mean on SQLite, where svc
// checks them (docs/backends.md, "Names"). SQLite compares identifiers without regard to
// case, answers a column under the name it was declared with, and reads a word such as
// `user` as a name; PostgreSQL folds an unquoted name to lower case (`AS createdAt` answers
// `createdat`, and `randomNumber` finds no column "randomNumber") and reads `user` as
// CURRENT_USER; MySQL reserves words SQLite does not (`rank`, `key`…) and tells table
// names' cases apart. So on those two backends each name of the project that the SQL
// writes without quotes is quoted, spelled as it was declared: a resource or one of its
// fields, or a column alias the statement itself gives with `AS`. The keys of every answer
// are then the same on every backend, and no name is taken for a keyword. A name that means
// the same unquoted (lower case, not a keyword there, written as declared) stays as it is,
// so the SQL in server.ts reads as it was written wherever it can.
//
// Only words the checker can be sure are names are touched: the statement's tables and
// their fields, and its `AS` aliases, never a SQLite keyword (SQLite would have read it as
// one), a function's name or a type in `CAST(… AS type)`.

import type { Dialect } from "../model/model.js";
import { MYSQL_KEYWORDS, POSTGRES_KEYWORDS } from "./keywords.js";
import { tableRefs } from "./refs.js";
import type { Token } from "./tokens.js";

/** What a name may be declared as: a resource's table and its fields. */
export interface DeclaredTable {
  name: string;
  /** `nullable` false: declared NOT NULL (null-order.ts leaves such a sort key as written). */
  fields: readonly { name: string; nullable?: boolean }[];
}

/** One replacement of a name by its spelling per backend (the same shape as portable.ts's edits). */
export interface NameEdit {
  start: number;
  end: number;
  text: Record<Dialect, string>;
}

export function nameEdits(tokens: readonly Token[], tables: readonly DeclaredTable[]): NameEdit[] {
  const declared = declaredNames(tokens, tables);
  const aliases = new Map<string, string>();
  const definitions = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].value !== "AS" || tokens[i].kind !== "word") continue;
    const next = tokens[i + 1];
    if (!isNameWord(tokens, i + 1) || insideCast(tokens, i)) continue;
    definitions.add(i + 1);
    if (!aliases.has(next.text.toLowerCase())) aliases.set(next.text.toLowerCase(), next.text);
  }
  const edits: NameEdit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!isNameWord(tokens, i, declared)) continue;
    const t = tokens[i];
    const key = t.text.toLowerCase();
    // An alias's own definition keeps its spelling; anywhere else a declared name wins,
    // since SQLite resolves a bare name to the column before the alias.
    const spelling = definitions.has(i) ? t.text : (declared.get(key) ?? aliases.get(key));
    if (spelling === undefined) continue;
    const quoted = `"${spelling.replace(/"/g, '""')}"`;
    // PostgreSQL folds to lower case; MySQL keeps a name's case, but tells tables' apart.
    const postgres = spelling !== t.text || spelling !== spelling.toLowerCase() || POSTGRES_KEYWORDS.has(t.value);
    const mysql = spelling !== t.text || MYSQL_KEYWORDS.has(t.value);
    if (!postgres && !mysql) continue;
    edits.push({ start: t.start, end: t.end, text: { sqlite: t.text, postgres: postgres ? quoted : t.text, mysql: mysql ? quoted : t.text } });
  }
  return edits;
}

/** The statement's tables (as resources declare them) and their fields, by lower-cased name. */
function declaredNames(tokens: readonly Token[], tables: readonly DeclaredTable[]): Map<string, string> {
  const used = new Set(tableRefs(tokens).flatMap((r) => (r.table === null ? [] : [r.table.toLowerCase()])));
  const out = new Map<string, string>();
  for (const table of tables) {
    if (!used.has(table.name.toLowerCase())) continue;
    out.set(table.name.toLowerCase(), table.name);
    for (const f of table.fields) if (!out.has(f.name.toLowerCase())) out.set(f.name.toLowerCase(), f.name);
  }
  return out;
}

/**
 * An unquoted word in a place where SQLite reads a name: not a keyword, not a function's name.
 * `declared`: the statement's declared names; one of them that is a SQLite keyword SQLite also
 * takes as a name, and that a query never uses as a keyword (`key`), is a name.
 */
function isNameWord(tokens: readonly Token[], i: number, declared?: ReadonlyMap<string, string>): boolean {
  const t = tokens[i];
  if (t === undefined || t.kind !== "word") return false;
  if (SQLITE_KEYWORDS.has(t.value) && !(NAME_KEYWORDS.has(t.value) && declared?.has(t.text.toLowerCase()))) return false;
  // `count(…)` is a function; `INSERT INTO task (…)` names a table before its columns.
  if (tokens[i + 1]?.text === "(") return tokens[i - 1]?.value === "INTO";
  return true;
}

/** Is the `AS` at `i` the one of `CAST(x AS type)`? */
function insideCast(tokens: readonly Token[], i: number): boolean {
  const depth = tokens[i].depth;
  for (let k = i - 1; k >= 0; k--) {
    const t = tokens[k];
    if (t.text === "(" && t.depth === depth - 1) return tokens[k - 1]?.value === "CAST";
  }
  return false;
}

// SQLite keywords its grammar also takes as names (parse.y's `%fallback ID`) and that no
// query, record operation or `sql { }` statement uses as a keyword: DDL and session words.
const NAME_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "ACTION ANALYZE ATTACH CASCADE COLUMN DATABASE DEFERRED DETACH EACH EXCLUSIVE EXPLAIN GENERATED " +
    "IMMEDIATE INITIALLY INSTEAD KEY PLAN PRAGMA QUERY REINDEX RELEASE RENAME RESTRICT SAVEPOINT TEMP " +
    "TRIGGER VACUUM VIEW VIRTUAL"
  ).split(" "),
);

// https://sqlite.org/lang_keywords.html: SQLite reads these as keywords where it can, so a
// bare one is never taken for a name here.
const SQLITE_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN BETWEEN BY " +
    "CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS CURRENT CURRENT_DATE " +
    "CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO DROP " +
    "EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN FAIL FILTER FIRST FOLLOWING FOR FOREIGN FROM " +
    "FULL GENERATED GLOB GROUP GROUPS HAVING IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT " +
    "INSTEAD INTERSECT INTO IS ISNULL JOIN KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING " +
    "NOTNULL NULL NULLS OF OFFSET ON OR ORDER OTHERS OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY " +
    "RAISE RANGE RECURSIVE REFERENCES REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK " +
    "ROW ROWS SAVEPOINT SELECT SET TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED UNION " +
    "UNIQUE UPDATE USING VACUUM VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT TRUE FALSE"
  ).split(" "),
);
