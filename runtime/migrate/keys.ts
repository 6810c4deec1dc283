// The history table names each declared change by a key (docs/migrations.md), which is also
// all a server of the OLD build knows about a change the new build opened: it reads the keys of
// open changes back into the columns they keep in the live table, so it keeps starting during
// the deploy. The keys are stable: the same declaration gives the same key in every build.

import type { ColumnChange } from "../contract/evolve.js";
import type { Dialect } from "../contract/server.js";

/** The column holding a retyped column's new values while the old build still reads the old ones. */
export const SHADOW_SUFFIX = "__svc_new";

export function shadowColumn(column: string): string {
  return `${column}${SHADOW_SUFFIX}`;
}

/** The live column a change writes the field's new values into until contract: its name, or the shadow of a retype in place. */
export function newColumnOf(change: ColumnChange): string {
  return change.retype !== undefined && change.renamedFrom === undefined ? shadowColumn(change.column) : change.column;
}

/** The live column holding the field's values before the change: its old name, or itself. */
export function oldColumnOf(change: ColumnChange): string {
  return change.renamedFrom ?? change.column;
}

/** `task.headline renamed from title`, `task.estimate changed from text`, `task.owner backfill`, or several at once. */
export function columnChangeKey(table: string, change: ColumnChange, dialect: Dialect): string {
  let key = `${table}.${change.column}`;
  if (change.renamedFrom !== undefined) key += ` renamed from ${change.renamedFrom}`;
  if (change.retype !== undefined) key += ` changed from ${change.retype.from[dialect].declared.toLowerCase()}`;
  if (change.backfill !== undefined) key += " backfill";
  return key;
}

export const dropColumnKey = (table: string, column: string): string => `${table} drop ${column}`;
export const dropTableKey = (table: string): string => `drop resource ${table}`;
export const indexKey = (table: string, index: string): string => `${table} index ${index}`;
/** Names a build's view of a table in the plan; never written to the history. */
export const viewKey = (table: string, build: string): string => `${table} view of build ${build}`;

const COLUMN_KEY = /^([^.\s]+)\.(\S+)(?: renamed from (\S+))?(?: changed from (.+?))?( backfill)?$/;
const DROP_COLUMN_KEY = /^(\S+) drop (\S+)$/;

/**
 * The columns of `table` an open change (by its key) leaves for the schema check to accept:
 * those it added or keeps beside the declared ones, and those whose type or nullability it
 * changes before contract. Null for a key that names no column (a dropped table, an index).
 */
export function keyColumns(key: string): { table: string; columns: string[] } | null {
  const drop = DROP_COLUMN_KEY.exec(key);
  if (drop !== null && !key.startsWith("drop resource ")) return { table: drop[1]!, columns: [drop[2]!] };
  const m = COLUMN_KEY.exec(key);
  if (m === null) return null;
  const [, table, column, renamedFrom, retypedFrom] = m;
  const columns = [column!];
  if (renamedFrom !== undefined) columns.push(renamedFrom);
  else if (retypedFrom !== undefined) columns.push(shadowColumn(column!));
  return { table: table!, columns };
}
