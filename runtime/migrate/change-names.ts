// What every writer names the same way: a declared change's key in the history table
// (MigrationStep.change), and a row expression filled for where a step evaluates it.

import type { ColumnChange, RowExpression } from "../contract/evolve.js";
import type { Dialect } from "../contract/server.js";

/**
 * `task.headline renamed from title`, `task.estimate changed from text`, `task.owner backfill`,
 * or several of them in one key when a field declares several at once (one change, one history row).
 * A retype is named by the old type as this backend's DDL wrote it, the one fact the spec carries.
 */
export function columnChangeKey(table: string, change: ColumnChange, dialect: Dialect): string {
  const parts = [`${table}.${change.column}`];
  if (change.renamedFrom !== undefined) parts.push(`renamed from ${change.renamedFrom}`);
  if (change.retype !== undefined) parts.push(`changed from ${change.retype.from[dialect].declared.toLowerCase()}`);
  if (change.backfill !== undefined) parts.push("backfill");
  return parts.join(" ");
}

export function dropColumnKey(table: string, column: string): string {
  return `${table} drop ${column}`;
}

export function dropTableKey(table: string): string {
  return `drop resource ${table}`;
}

/**
 * `expr` with each `{name}` replaced by `column(name)`. Text inside single-quoted strings is
 * left as written: a literal `'{x}'` is data, not a column.
 */
export function fillRow(expr: RowExpression, dialect: Dialect, column: (name: string) => string): string {
  return expr[dialect].replace(/'(?:[^']|'')*'|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string | undefined) =>
    name === undefined ? whole : column(name),
  );
}
