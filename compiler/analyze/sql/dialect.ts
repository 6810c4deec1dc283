import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { SqlBody } from "../../parse/ast.js";
import type { ColumnModel, Dialect, ParamModel } from "../model/model.js";

// Each database engine checks SQL behind this one interface (sqlc keeps one engine per
// folder behind one Parser). Today only SQLite checks; another engine is a new folder.

export interface SqlCheckInput {
  /** For diagnostics. */
  file: string;
  /** From the AST. */
  body: SqlBody;
  /** Names and types the SQL may bind (`@name`). */
  params: ParamModel[];
  /** query: a declared `query` (typed result columns); statement: an action's `sql { … }`. */
  kind: "query" | "statement";
  /** e.g. "list_tasks", for messages. */
  name: string;
}

/** A stretch of a SQL body's text: `start` inclusive, `end` exclusive. */
export interface OffsetRange {
  start: number;
  end: number;
}

/** A value inside JSON built by SQL that each backend's SQL writes as svc's JSON. */
/** A value svc writes per backend: a bool or timestamp inside JSON, or a `/` of two ints (MySQL's DIV). */
export interface JsonValueFix extends OffsetRange {
  type: "bool" | "timestamp" | "intDivision";
}

export interface SqlCheckResult {
  /** Result columns of a query; empty for a statement or SQL that does not prepare. */
  columns: ColumnModel[];
  /** The resource whose fields, in order, are exactly the columns (e.g. `SELECT * FROM task`). */
  rowResource: string | null;
  /** True when the statement only reads; false as well when it does not prepare. */
  readonly: boolean;
  /**
   * Values handed to JSON functions that a backend would write otherwise than svc's JSON
   * (offsets in the body's text): booleans (1/0 on SQLite and MySQL) and timestamps (each
   * database's own text); each backend's SQL makes them `true`/`false` and ISO text.
   */
  jsonValues: JsonValueFix[];
  diagnostics: Diagnostic[];
}

/** A table the engine refused to create at start-up; the caller places it on the resource's declaration. */
export interface RejectedTable {
  resource: string;
  message: string;
}

export interface SqlChecker {
  readonly dialect: Dialect;
  /** Tables the engine refused at start-up (see `sqlCodes.tableRejected`); empty when all were created. */
  readonly rejectedTables: readonly RejectedTable[];
  check(input: SqlCheckInput): SqlCheckResult;
  dispose(): void;
}

/** How messages name the SQL's owner: "query `list_tasks`" or "the `sql { … }` of action `purge`". */
export function describeOwner(input: Pick<SqlCheckInput, "kind" | "name">): string {
  return input.kind === "query" ? `query \`${input.name}\`` : `the \`sql { … }\` of action \`${input.name}\``;
}
