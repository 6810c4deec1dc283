// What a constraint error should say, the same on every backend (sqlite/errors.ts words
// them for SQLite): `task.title already exists` (409), `task.title is required` (400),
// `invalid value for priority: must satisfy …` (400), a foreign key (409). PostgreSQL and
// MySQL name a constraint or an index rather than the field, so the adapters learn at
// start, from the DDL they were built with, which field each one guards.

import { HttpError } from "../../core/errors.js";
import type { TableSpec } from "../../contract/index.js";
import { UniqueAnswers } from "../unique-answers.js";

export interface Constraints {
  /** table → its primary key's columns. */
  primaryKeys: Map<string, string[]>;
  /** column name, lower-cased → the tables that have such a column. */
  columnTables: Map<string, string[]>;
  /** `table.column` → the CHECK expression as declared. */
  checks: Map<string, string>;
  /** unique index name → its table and columns. */
  uniqueIndexes: Map<string, { table: string; columns: string[] }>;
  /** CHECK constraint name, as the database named it → the field it guards (read from the live schema). */
  checkNames: Map<string, { table: string; column: string }>;
  /** `unique (…) fail …`: the answers the resources declared for their unique indexes. */
  answers: UniqueAnswers;
}

const UNIQUE_INDEX =
  /^CREATE UNIQUE INDEX (?:IF NOT EXISTS )?(["`])((?:(?!\1).)+)\1 ON (["`])((?:(?!\3).)+)\3 \((.*)\)$/s;

export function emptyConstraints(): Constraints {
  return {
    primaryKeys: new Map(),
    columnTables: new Map(),
    checks: new Map(),
    uniqueIndexes: new Map(),
    checkNames: new Map(),
    answers: UniqueAnswers.none(),
  };
}

/** Reads the constraints out of each table's DDL in `dialect` (tables without it are skipped). */
export function constraintsOf(tables: readonly TableSpec[], dialect: "postgres" | "mysql"): Constraints {
  const c = emptyConstraints();
  c.answers = UniqueAnswers.of(tables);
  for (const table of tables) {
    const ddl = table.ddl[dialect];
    if (ddl === undefined) continue;
    for (const column of ddl.columns) {
      const key = column.name.toLowerCase();
      c.columnTables.set(key, [...(c.columnTables.get(key) ?? []), table.name]);
      if (ddl.primaryKey === undefined && /\bPRIMARY KEY\b/.test(column.definition)) c.primaryKeys.set(table.name, [column.name]);
      const check = column.definition.indexOf(" CHECK (");
      if (check >= 0) c.checks.set(`${table.name}.${column.name}`, column.definition.slice(check + 8, -1));
    }
    if (ddl.primaryKey !== undefined) c.primaryKeys.set(table.name, ddl.primaryKey);
    for (const sql of ddl.createIndexes) {
      const m = UNIQUE_INDEX.exec(sql);
      if (m === null) continue;
      const columns = m[5].split(",").map((part) => part.trim().replace(/^["`]|["`]?(\(\d+\))?( DESC| ASC)?$/g, ""));
      c.uniqueIndexes.set(m[2], { table: m[4], columns });
    }
  }
  return c;
}

/** `table.column` when the table is known or the column name belongs to one table only. */
export function fieldName(c: Constraints, table: string | null, column: string): string {
  if (table !== null) return `${table}.${column}`;
  const tables = c.columnTables.get(column.toLowerCase());
  return tables?.length === 1 ? `${tables[0]}.${column}` : column;
}

export function uniqueViolation(
  c: Constraints,
  cause: unknown,
  table: string | null,
  columns: readonly string[],
): HttpError {
  const declared = c.answers.answer(table, columns, cause);
  if (declared !== null) return declared;
  const text =
    columns.length === 1
      ? `${fieldName(c, table, columns[0])} already exists`
      : `${table ?? "a row"} (${columns.join(", ")}) already exists`;
  return new HttpError(409, text, { code: "SVC_ERR_CONSTRAINT", cause });
}

/** A unique index whose columns are not known (an expression index): named as SQLite names it. */
export function uniqueIndexViolation(cause: unknown, index: string): HttpError {
  return new HttpError(409, `a row with the same values for index ${index} already exists`, { code: "SVC_ERR_CONSTRAINT", cause });
}

export function foreignKeyViolation(cause: unknown): HttpError {
  return new HttpError(
    409,
    "foreign key constraint failed: the referenced row does not exist, or another row still refers to this one",
    { code: "SVC_ERR_CONSTRAINT", cause },
  );
}

export function notNullViolation(c: Constraints, cause: unknown, table: string | null, column: string): HttpError {
  return new HttpError(400, `${fieldName(c, table, column)} is required`, { code: "SVC_ERR_CONSTRAINT", cause });
}

/**
 * Worded as the SQLite adapter words it (sqlite/errors.ts): SQLite 3.53 names a failed
 * column CHECK by its column, which it reports as `check <column> failed`. `column` is null
 * when the database did not say which one; then the constraint's own name stands in.
 */
export function checkViolation(cause: unknown, column: string | null, constraint: string): HttpError {
  return new HttpError(400, `check ${column ?? constraint} failed`, { code: "SVC_ERR_CONSTRAINT", cause });
}

/** A value the column's type cannot hold (too long, malformed JSON, a bad date): the client's data. */
export function invalidValue(cause: unknown, column: string | null, why: string): HttpError {
  return new HttpError(400, column === null ? `invalid value: ${why}` : `invalid value for ${column}: ${why}`, { code: "SVC_ERR_CONSTRAINT", cause,
  });
}
