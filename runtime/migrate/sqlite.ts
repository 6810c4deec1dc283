// The SQLite writer of declared schema changes (docs/migrations.md). Expand adds the new
// columns (ADD COLUMN), keeps the old and new columns in step with AFTER INSERT / AFTER UPDATE
// triggers (SQLite's triggers cannot assign NEW, so they update the row they fired for) and
// fills existing rows in batches; when a column the new build leaves out is NOT NULL, expand
// rebuilds the table with it nullable instead, since the constraint is checked before any
// trigger runs. Contract rebuilds the table to its declared shape (sqlite-rebuild.ts), or
// drops columns in place when nothing else is left. Every step is one transaction.
//
// SQLite has no ADD COLUMN IF NOT EXISTS: a resumed apply is re-planned from the live table,
// which leaves out the columns already there and a rebuild already made. Triggers are dropped
// and created again, backfills match only rows still to fill, so those repeat safely.

import { StartupError } from "../core/errors.js";
import type { ColumnChange, MigrationStep, Phase } from "../contract/evolve.js";
import { columnChangeKey, dropColumnKey, dropTableKey, indexKey, newColumnOf, oldColumnOf } from "./keys.js";
import { fillColumns } from "./row-expression.js";
import { contractFor, expandRebuildFor, expandRebuilds, qs } from "./sqlite-rebuild.js";
import type { ChangeTarget, ChangeWriter, PhaseSteps } from "./writer.js";
import { type StepOptions, makeStep } from "./step.js";

/** Rows one backfill statement changes: each batch a transaction, so other writers get the lock between. */
export const SQLITE_BATCH_ROWS = 1000;

const BRIEF = "the database's write lock, briefly (writers wait; readers go on in WAL mode)";

export function sqliteWriter(): ChangeWriter {
  return { dialect: "sqlite", column, dropColumn, dropTable, index };
}

function column(change: ColumnChange, target: ChangeTarget): PhaseSteps {
  const key = columnChangeKey(target.table.name, change, "sqlite");
  const t = qs(target.table.name);
  const declared = target.ddl.columns.find((c) => c.name === change.column);
  if (declared === undefined) throw new StartupError("SVC_ERR_MIGRATION", `table ${target.table.name} declares no column ${change.column}`);
  const old = oldColumnOf(change);
  const side = newColumnOf(change);
  const moves = old !== side;
  const lossy = change.retype?.lossy === true;
  const up = (col: (n: string) => string) => (change.retype ? fillColumns(change.retype.up, "sqlite", col) : col(old));
  const down = (col: (n: string) => string) =>
    change.retype ? fillColumns(change.retype.down, "sqlite", (n) => col(n === change.column ? side : n)) : col(side);
  const bf = (col: (n: string) => string) => (change.backfill ? fillColumns(change.backfill, "sqlite", col) : null);
  const NEW = (n: string) => `NEW.${qs(n)}`;
  const OLD = (n: string) => `OLD.${qs(n)}`;
  const ROW = qs;
  const self = keyMatch(target);

  const expand: MigrationStep[] = [];
  const rebuild = expandRebuildFor({ column: change }, target);
  if (rebuild !== null) expand.push(rebuild);
  else if (moves && !expandRebuilds(target) && !target.live.some((c) => c.name.toLowerCase() === side.toLowerCase())) {
    expand.push(step(key, "expand", `add column ${side} (nullable until contract)`, `ALTER TABLE ${t} ADD COLUMN ${qs(side)} ${declared.sqlType}`, BRIEF));
  }
  const fillNull = (value: string | null) => (value === null ? [] : [`UPDATE ${t} SET ${qs(side)} = ${value} WHERE ${self} AND ${qs(side)} IS NULL;`]);
  const [ins, upd] = [`svc_${target.table.name}_${change.column}_ai`, `svc_${target.table.name}_${change.column}_au`];
  const onInsert = [
    ...(moves
      ? [
          `UPDATE ${t} SET ${qs(side)} = ${up(NEW)} WHERE ${self} AND ${NEW(side)} IS NULL;`,
          `UPDATE ${t} SET ${qs(old)} = ${down(NEW)} WHERE ${self} AND ${NEW(old)} IS NULL AND ${NEW(side)} IS NOT NULL;`,
        ]
      : []),
    ...fillNull(bf(NEW)),
  ];
  // A write to one column carries over to the other, unless it is the trigger's own write (the
  // old column set to what the new one converts back to) or the backfill's (the new column set,
  // from NULL, to what the old one converts to).
  const onUpdate = [
    ...(moves
      ? [
          `UPDATE ${t} SET ${qs(side)} = ${up(NEW)} WHERE ${self} AND NOT (${NEW(old)} IS ${OLD(old)}) AND ${NEW(side)} IS ${OLD(side)} AND NOT (${NEW(old)} IS ${down(NEW)});`,
          `UPDATE ${t} SET ${qs(old)} = ${down(NEW)} WHERE ${self} AND NOT (${NEW(side)} IS ${OLD(side)}) AND ${NEW(old)} IS ${OLD(old)} AND NOT (${OLD(side)} IS NULL AND ${NEW(side)} IS ${up(OLD)});`,
        ]
      : []),
    ...fillNull(bf(NEW)),
  ];
  const sync = `NOT (${NEW(old)} IS ${OLD(old)}) OR NOT (${NEW(side)} IS ${OLD(side)})`;
  const when = [...(moves ? [sync] : []), ...(change.backfill ? [`${NEW(side)} IS NULL`] : [])].join(" OR ");
  expand.push(
    step(key, "expand", `trigger keeping ${side}${moves ? ` and ${old}` : ""} filled on insert`, trigger(ins, `AFTER INSERT ON ${t} FOR EACH ROW`, onInsert), BRIEF),
    step(key, "expand", `trigger keeping ${side}${moves ? ` and ${old}` : ""} filled on update`, trigger(upd, `AFTER UPDATE ON ${t} FOR EACH ROW WHEN ${when}`, onUpdate), BRIEF),
  );
  const fromOld = moves ? up(ROW) : null;
  const backfill = bf(ROW);
  const value = fromOld !== null && backfill !== null ? `COALESCE(${fromOld}, ${backfill})` : (fromOld ?? backfill)!;
  const key_ = keyColumns(target);
  expand.push(
    step(
      key,
      "expand",
      `fill ${side} ${moves ? `from ${old}` : "where NULL"}, ${SQLITE_BATCH_ROWS} rows a statement`,
      `UPDATE ${t} SET ${qs(side)} = ${value} WHERE (${key_}) IN (SELECT ${key_} FROM ${t} WHERE ${qs(side)} IS NULL AND (${value}) IS NOT NULL ORDER BY ${key_} LIMIT ${SQLITE_BATCH_ROWS})`,
      "the database's write lock for one batch",
      { repeat: true, lossy },
    ),
  );

  const contract: MigrationStep[] = [step(key, "contract", "drop the triggers", `DROP TRIGGER IF EXISTS ${qs(ins)};\nDROP TRIGGER IF EXISTS ${qs(upd)}`, BRIEF)];
  const rebuilt = contractFor({ column: change }, target);
  if (rebuilt !== null) contract.push({ ...rebuilt, change: key, phase: "contract" });
  return { expand: expand.map((s) => ({ ...s, change: key })), contract };
}

function dropColumn(name: string, target: ChangeTarget): PhaseSteps {
  const key = dropColumnKey(target.table.name, name);
  const rebuild = expandRebuildFor({ drop: name }, target);
  const contract = contractFor({ drop: name }, target);
  return {
    expand: rebuild === null ? [] : [{ ...rebuild, change: key }],
    contract: contract === null ? [] : [{ ...contract, change: key, phase: "contract" }],
  };
}

function dropTable(table: string): PhaseSteps {
  return {
    expand: [],
    contract: [step(dropTableKey(table), "contract", `drop table ${table} with its data`, `DROP TABLE IF EXISTS ${qs(table)}`, BRIEF, { lossy: true })],
  };
}

function index(createIndex: string, target: ChangeTarget): { steps: MigrationStep[]; duplicates: string | null } {
  const m = /^CREATE (UNIQUE )?INDEX IF NOT EXISTS ("(?:[^"]|"")+"|\S+) ON (?:"(?:[^"]|"")+"|\S+) \((.*)\)$/s.exec(createIndex);
  if (m === null) throw new StartupError("SVC_ERR_MIGRATION", `not an index statement svc writes: ${createIndex}`);
  const unique = m[1] !== undefined;
  const name = m[2]!.startsWith('"') ? m[2]!.slice(1, -1).replace(/""/g, '"') : m[2]!;
  const steps = [
    step(indexKey(target.table.name, name), "expand", `${unique ? "unique " : ""}index ${name}`, createIndex, "the database's write lock while the index is built (writers wait; readers go on in WAL mode)", { online: false }),
  ];
  if (!unique) return { steps, duplicates: null };
  const exprs = m[3]!.split(",").map((part) => part.trim().replace(/\s+(?:ASC|DESC)$/i, "").replace(/\s+COLLATE\s+\S+$/i, ""));
  const list = exprs.join(", ");
  const duplicates = `SELECT ${list}, COUNT(*) AS count FROM ${qs(target.table.name)} WHERE ${exprs.map((e) => `${e} IS NOT NULL`).join(" AND ")} GROUP BY ${list} HAVING COUNT(*) > 1 ORDER BY COUNT(*) DESC LIMIT 5`;
  return { steps, duplicates };
}

function trigger(name: string, on: string, body: readonly string[]): string {
  return `DROP TRIGGER IF EXISTS ${qs(name)};\nCREATE TRIGGER ${qs(name)} ${on} BEGIN\n  ${body.join("\n  ")}\nEND`;
}

/** The table's key as a column list (its rowid when it declares none). */
function keyColumns(target: ChangeTarget): string {
  const key = target.ddl.primaryKey;
  return key === undefined || key.length === 0 ? "rowid" : key.map(qs).join(", ");
}

/** The row a trigger fired for, by its key. */
function keyMatch(target: ChangeTarget): string {
  const key = target.ddl.primaryKey;
  if (key === undefined || key.length === 0) return "rowid = NEW.rowid";
  return key.map((k) => `${qs(k)} = NEW.${qs(k)}`).join(" AND ");
}

// SQLite's phase is one transaction: every step is in it.
function step(change: string, phase: Phase, describe: string, sql: string, locks: string, extra: StepOptions = {}): MigrationStep {
  return makeStep(change, phase, describe, sql, locks, true, extra);
}
