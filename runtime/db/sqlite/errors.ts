// Turns SQLite's constraint and lock errors into answers a client can act on. Any other
// error is returned unchanged, so the server logs it and answers a 500.

import { HttpError } from "../../core/errors.js";
import type { UniqueAnswers } from "../unique-answers.js";

/**
 * The driver's error code (`SQLITE_CONSTRAINT_UNIQUE`, …), or undefined for any other
 * error. Not `instanceof SqliteError`: the native addon keeps the SqliteError class of
 * the first copy of better-sqlite3 loaded in the process, so under a module loader
 * with several registries (jest gives each test file its own) errors can come from
 * another copy's class.
 */
export function sqliteCode(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null || (err as { name?: unknown }).name !== "SqliteError") return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_RECOVERY, _SNAPSHOT, _TIMEOUT). */
export function isBusy(err: unknown): boolean {
  return sqliteCode(err)?.startsWith("SQLITE_BUSY") === true;
}

export function busyError(cause: unknown): HttpError {
  // RFC 9110 §10.2.3: the lock is usually free again well within a second.
  return new HttpError(503, "database busy", { code: "SVC_ERR_DB_UNAVAILABLE", cause, headers: { "Retry-After": "1" } });
}

/** The HttpError for `err`, or `err` itself when it is not one the client caused. */
export function mapSqliteError(err: unknown, answers?: UniqueAnswers): unknown {
  const code = sqliteCode(err);
  if (code === undefined) return err;
  if (code.startsWith("SQLITE_BUSY")) return busyError(err);
  if (!code.startsWith("SQLITE_CONSTRAINT")) return err;
  if (code === "SQLITE_CONSTRAINT_UNIQUE" && answers !== undefined) {
    // `UNIQUE constraint failed: member.team_id, member.user_id`
    const names = afterColon((err as Error).message).split(", ");
    const table = names[0]!.slice(0, Math.max(0, names[0]!.indexOf(".")));
    const declared = answers.answer(table === "" ? null : table, names.map((n) => n.slice(n.indexOf(".") + 1)), err);
    if (declared !== null) return declared;
  }
  const message = constraintMessage(code, (err as Error).message);
  return message === null ? err : new HttpError(message.status, message.text, { code: "SVC_ERR_CONSTRAINT", cause: err });
}

interface Message {
  status: number;
  text: string;
}

// SQLite's messages, as of 3.53: `UNIQUE constraint failed: task.title`,
// `UNIQUE constraint failed: member.team_id, member.user_id`,
// `UNIQUE constraint failed: index 'task_lower_title'`, `NOT NULL constraint failed:
// task.title`, `CHECK constraint failed: priority IN ('low','high')` (the expression,
// or the constraint's name when it has one), `FOREIGN KEY constraint failed` (no
// column: SQLite does not say which key), `cannot store TEXT value in INTEGER column
// task.n` (STRICT tables).
function constraintMessage(code: string, raw: string): Message | null {
  const detail = afterColon(raw);
  switch (code) {
    case "SQLITE_CONSTRAINT_UNIQUE":
    case "SQLITE_CONSTRAINT_PRIMARYKEY":
      return { status: 409, text: uniqueText(detail) };
    case "SQLITE_CONSTRAINT_FOREIGNKEY":
      return {
        status: 409,
        text: "foreign key constraint failed: the referenced row does not exist, or another row still refers to this one",
      };
    case "SQLITE_CONSTRAINT_NOTNULL":
      return { status: 400, text: `${detail} is required` };
    case "SQLITE_CONSTRAINT_CHECK":
      return { status: 400, text: checkText(detail) };
    case "SQLITE_CONSTRAINT_DATATYPE":
      return { status: 400, text: datatypeText(raw) };
    default:
      return null;
  }
}

function afterColon(message: string): string {
  const colon = message.indexOf(": ");
  return colon < 0 ? message : message.slice(colon + 2);
}

function uniqueText(detail: string): string {
  const index = /^index '(.*)'$/.exec(detail);
  if (index) return `a row with the same values for index ${index[1]} already exists`;
  const columns = detail.split(", ");
  if (columns.length === 1) return `${detail} already exists`;
  const table = columns[0].slice(0, columns[0].indexOf("."));
  const names = columns.map((c) => c.slice(c.indexOf(".") + 1));
  return `${table} (${names.join(", ")}) already exists`;
}

const SQL_WORDS = new Set([
  "and",
  "or",
  "not",
  "in",
  "is",
  "null",
  "like",
  "glob",
  "regexp",
  "match",
  "between",
  "case",
  "when",
  "then",
  "else",
  "end",
  "collate",
  "escape",
  "exists",
  "true",
  "false",
]);

function checkText(detail: string): string {
  const column = firstColumn(detail);
  if (column === null) return `check ${detail} failed`;
  // A bare identifier is a named constraint, not an expression over a column.
  if (column === detail.trim()) return `check ${column} failed`;
  return `invalid value for ${column}: must satisfy ${detail}`;
}

/** The first identifier in a CHECK expression that is neither a keyword nor a function. */
function firstColumn(expression: string): string | null {
  const words = /'(?:[^']|'')*'|"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*)(\s*\()?/g;
  for (let m = words.exec(expression); m !== null; m = words.exec(expression)) {
    if (m[1] !== undefined) return m[1].replaceAll('""', '"');
    if (m[2] !== undefined && m[3] === undefined && !SQL_WORDS.has(m[2].toLowerCase())) return m[2];
  }
  return null;
}

function datatypeText(raw: string): string {
  const column = /column (\S+)$/.exec(raw);
  return column ? `invalid value for ${column[1]}: ${raw}` : raw;
}
