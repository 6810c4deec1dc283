// SQLite's table rebuild (https://www.sqlite.org/lang_altertable.html#otheralter), the one way
// it has to make a column nullable or NOT NULL, or to swap a retyped column in: a new table of
// the wanted shape, the rows copied, the old table dropped (its triggers with it), the new one
// renamed, its indexes created. It is one step, run in one transaction, so it happens whole or
// not at all; a failed apply leaves the table as it was.
//
// Several changes of one table share one rebuild: the first change (in declaration order) that
// still needs it writes it for them all, from the live columns every writer call sees alike, so
// exactly one of them does; once it ran, the live table no longer needs it and a new plan has none.

import type { ColumnChange, MigrationStep } from "../contract/evolve.js";
import type { TableColumnDdl } from "../contract/server.js";
import { newColumnOf, oldColumnOf } from "./keys.js";
import { fillColumns } from "./row-expression.js";
import type { ChangeTarget, LiveColumnInfo } from "./writer.js";

export const qs = (name: string): string => `"${name.replace(/"/g, '""')}"`;

const REBUILD_LOCKS = "the database's write lock while the table is copied (writers wait; readers go on in WAL mode)";

/** One of a table's declared changes: a field's, or a `drop`. */
export type TableChange = { column: ColumnChange } | { drop: string };

function changesOf(target: ChangeTarget): TableChange[] {
  const declared = target.table.changes;
  return [...(declared?.columns ?? []).map((column) => ({ column })), ...(declared?.dropColumns ?? []).map((drop) => ({ drop }))];
}

function liveColumn(target: ChangeTarget, name: string): LiveColumnInfo | undefined {
  return target.live.find((c) => c.name.toLowerCase() === name.toLowerCase());
}

/**
 * Expand needs a rebuild when a column the new build leaves out of its inserts is NOT NULL:
 * the old column of a rename, or a dropped one (SQLite cannot drop NOT NULL in place, and its
 * triggers run after the constraint is checked).
 */
function expandCause(change: TableChange, target: ChangeTarget): boolean {
  if ("drop" in change) return liveColumn(target, change.drop)?.nullable === false;
  if (change.column.renamedFrom === undefined) return false;
  return liveColumn(target, change.column.renamedFrom)?.nullable === false;
}

/** Contract has work left on the live table for this change. */
function contractPending(change: TableChange, target: ChangeTarget): boolean {
  if ("drop" in change) return liveColumn(target, change.drop) !== undefined;
  const c = change.column;
  if (oldColumnOf(c) !== c.column && liveColumn(target, oldColumnOf(c)) !== undefined) return true;
  if (newColumnOf(c) !== c.column && liveColumn(target, newColumnOf(c)) !== undefined) return true;
  const live = liveColumn(target, c.column);
  const declared = target.ddl.columns.find((d) => d.name === c.column);
  return live !== undefined && declared !== undefined && live.nullable && !declared.nullable;
}

function same(a: TableChange, b: TableChange): boolean {
  return "drop" in a ? "drop" in b && a.drop === b.drop : "column" in b && a.column.column === b.column.column;
}

/** Whether expand rebuilds the table (then no change adds its column with ADD COLUMN). */
export function expandRebuilds(target: ChangeTarget): boolean {
  return changesOf(target).some((c) => expandCause(c, target));
}

/** The expand rebuild when `change` is the one to write it, else null. */
export function expandRebuildFor(change: TableChange, target: ChangeTarget): MigrationStep | null {
  const first = changesOf(target).find((c) => expandCause(c, target));
  if (first === undefined || !same(first, change)) return null;
  return rebuildStep(target, expandedShape(target), "rebuild the table with the columns both builds use, those the new build leaves out nullable", false);
}

/**
 * The contract of a table: a rebuild to the declared shape, written by the first change still
 * pending; or, when only `drop` changes are left, ALTER TABLE DROP COLUMN, which SQLite does in
 * place (refused if the column is indexed or constrained: then declare it dropped with another change).
 */
export function contractFor(change: TableChange, target: ChangeTarget): MigrationStep | null {
  const pending = changesOf(target).filter((c) => contractPending(c, target));
  if (!pending.some((c) => same(c, change))) return null;
  if (pending.every((c) => "drop" in c)) {
    const column = (change as { drop: string }).drop;
    return {
      change: "",
      phase: "contract",
      describe: `drop column ${column} with its data`,
      sql: `ALTER TABLE ${qs(target.table.name)} DROP COLUMN ${qs(column)}`,
      online: true,
      locks: "the database's write lock (brief unless the table is large: SQLite rewrites its rows)",
      lossy: true,
      transactional: true,
    };
  }
  if (!same(pending[0]!, change)) return null;
  const lossy = pending.some((c) => "drop" in c || c.column.retype?.lossy === true);
  return rebuildStep(target, contractShape(target), "rebuild the table as declared (old columns dropped, NOT NULL, retyped columns swapped in)", lossy);
}

interface Shape {
  createTable: string;
  /** Each new column and the expression over the old table's row that fills it. */
  copy: { column: string; from: string }[];
  indexes: string[];
}

function rebuildStep(target: ChangeTarget, shape: Shape, describe: string, lossy: boolean): MigrationStep {
  const t = target.table.name;
  const tmp = `${t}__svc_rebuild`;
  const sql = [
    `DROP TABLE IF EXISTS ${qs(tmp)}`,
    shape.createTable,
    `INSERT INTO ${qs(tmp)} (${shape.copy.map((c) => qs(c.column)).join(", ")}) SELECT ${shape.copy.map((c) => c.from).join(", ")} FROM ${qs(t)}`,
    `DROP TABLE ${qs(t)}`,
    `ALTER TABLE ${qs(tmp)} RENAME TO ${qs(t)}`,
    ...shape.indexes,
  ].join(";\n");
  return { change: "", phase: "expand", describe, sql, online: false, locks: REBUILD_LOCKS, lossy, transactional: true };
}

/** The declared CREATE TABLE, under the rebuild's name, with `replace` applied to column definitions. */
function createAs(target: ChangeTarget, replace: (column: TableColumnDdl) => string): string {
  const t = target.table.name;
  let sql = target.ddl.createTable.replace(/^CREATE TABLE IF NOT EXISTS ("(?:[^"]|"")+"|\S+)/, `CREATE TABLE ${qs(`${t}__svc_rebuild`)}`);
  for (const column of target.ddl.columns) {
    const next = replace(column);
    if (next !== column.definition) sql = sql.replace(column.definition, () => next);
  }
  return sql;
}

/** `"name" TYPE`: a column as the declared one but nullable, without default or constraint. */
function bare(name: string, column: TableColumnDdl): string {
  return `${qs(name)} ${column.sqlType}`;
}

function expandedShape(target: ChangeTarget): Shape {
  const changes = new Map((target.table.changes?.columns ?? []).map((c) => [c.column, c]));
  const createTable = createAs(target, (column) => {
    const change = changes.get(column.name);
    if (change === undefined) return column.definition;
    const old = oldColumnOf(change);
    const side = newColumnOf(change);
    const oldLive = liveColumn(target, old);
    const oldType = oldLive?.type || change.retype?.from.sqlite.declared || column.sqlType;
    if (side === column.name && old === column.name) return bare(column.name, column); // a backfill: nullable until contract
    // The old column keeps its NOT NULL only when the new build never inserts (a retype in place).
    const oldDef = `${qs(old)} ${oldType}${side !== column.name && oldLive?.nullable === false ? " NOT NULL" : ""}`;
    return `${bare(side, column)},\n  ${oldDef}`;
  });
  // Dropped columns stay, nullable, until contract.
  const dropped = (target.table.changes?.dropColumns ?? [])
    .map((name) => liveColumn(target, name))
    .filter((c): c is LiveColumnInfo => c !== undefined)
    .map((c) => `${qs(c.name)} ${c.type}`);
  const last = target.ddl.columns[target.ddl.columns.length - 1]!;
  const lastDef = createTable.includes(last.definition) ? last.definition : null;
  let sql = createTable;
  if (dropped.length > 0) {
    // After the last column definition (table constraints follow it), or before the closing parenthesis.
    sql = lastDef !== null ? sql.replace(lastDef, () => `${lastDef},\n  ${dropped.join(",\n  ")}`) : sql.replace(/\n\)$/, () => `,\n  ${dropped.join(",\n  ")}\n)`);
  }
  const copy = target.live.map((c) => ({ column: c.name, from: qs(c.name) }));
  // Indexes over columns the change adds are the planner's to create; the others are rebuilt now.
  const added = [...changes.values()].map(newColumnOf).filter((n) => liveColumn(target, n) === undefined);
  const indexes = target.ddl.createIndexes.filter((sql) => !added.some((n) => sql.includes(qs(n))));
  return { createTable: sql, copy, indexes };
}

function contractShape(target: ChangeTarget): Shape {
  const changes = new Map((target.table.changes?.columns ?? []).map((c) => [c.column, c]));
  const copy: Shape["copy"] = [];
  for (const column of target.ddl.columns) {
    const change = changes.get(column.name);
    const side = change === undefined ? column.name : newColumnOf(change);
    let from: string | null = null;
    if (liveColumn(target, side) !== undefined) from = qs(side);
    else if (liveColumn(target, column.name) !== undefined) from = qs(column.name);
    else if (change !== undefined && liveColumn(target, oldColumnOf(change)) !== undefined) {
      from = change.retype ? fillColumns(change.retype.up, "sqlite", qs) : qs(oldColumnOf(change));
    }
    if (from === null) continue; // not live: its default fills it
    if (change?.backfill !== undefined) from = `COALESCE(${from}, ${fillColumns(change.backfill, "sqlite", qs)})`;
    copy.push({ column: column.name, from });
  }
  return { createTable: createAs(target, (c) => c.definition), copy, indexes: [...target.ddl.createIndexes] };
}
