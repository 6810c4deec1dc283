// The planner (docs/migrations.md): compares what a build declares about how its tables changed
// with the live schema and the history table, and says of each declared change whether it is
// not begun, open (expanded, not contracted) or done, with the steps of each phase a backend's
// writer gives for it. A change whose end state the live table already has is done, whatever the
// history says, so declarations left in after their change completed are harmless; a table the
// start-up migration creates from its DDL needs none of its changes. Pure: no database.

import type { ColumnChange, MigrationPlanSteps, MigrationStep, Phase, SchemaSpec } from "../contract/evolve.js";
import type { Dialect, TableDdl, TableSpec } from "../contract/server.js";
import { columnChangeKey, dropColumnKey, dropTableKey, indexKey, keyColumns, newColumnOf, oldColumnOf, viewKey } from "./keys.js";
import type { ChangeTarget, ChangeWriter, LiveColumnInfo, PhaseSteps } from "./writer.js";
import { indexName } from "../db/index.js";

export { indexName };

export interface HistoryRow {
  change: string;
  phase: Phase;
  build: string;
}

export interface LiveSchema {
  /** Lower-cased table name → its columns; a table absent does not exist. */
  tables: ReadonlyMap<string, readonly LiveColumnInfo[]>;
  /** Lower-cased names of the indexes the schema has. */
  indexes: ReadonlySet<string>;
  /** PostgreSQL: the views of the builds' view schemas; MariaDB: those of this build's view database; `schema.table` lower-cased. */
  views?: ReadonlySet<string>;
}

export type ChangeStatus = "not begun" | "open" | "done";

export interface PlannedChange {
  change: string;
  /**
   * What is declared: a field's change (`column` holds it), a dropped column or table, or an
   * index the live table lacks; or, on PostgreSQL, the build's view of a table with columns
   * retyped in place, on MariaDB of every table while one is (never recorded in the history:
   * it belongs to the build, not to a change).
   */
  kind: "column" | "drop column" | "drop table" | "index" | "view";
  column?: ColumnChange;
  /** The table it changes (the dropped one for `drop resource`). */
  table: string;
  status: ChangeStatus;
  expand: MigrationStep[];
  contract: MigrationStep[];
  /** A unique index: the query answering repeated values, run before anything else (refused when any). */
  duplicates?: string;
}

export interface EvolvePlan extends MigrationPlanSteps {
  changes: PlannedChange[];
  /**
   * Lower-cased table → lower-cased columns the additive schema check leaves alone: those an
   * unfinished declared change (or, for a server of an older build, an open one in the history)
   * adds, keeps, retypes or makes required.
   */
  owned: Map<string, Set<string>>;
}

export interface PlanInput {
  dialect: Dialect;
  tables: readonly TableSpec[];
  schema?: SchemaSpec;
  live: LiveSchema;
  history: readonly HistoryRow[];
  writer: ChangeWriter;
  /** The schema the tables are in (PostgreSQL), or the app database (MySQL/MariaDB), as ChangeTarget.schema. */
  dbSchema: string | null;
}

export function planChanges(input: PlanInput): EvolvePlan {
  const plan: EvolvePlan = { expand: [], contract: [], problems: [], changes: [], owned: new Map() };
  const recorded = historyIndex(input.history);
  const build = input.schema?.build ?? "";
  /** Table → its retypes in place not done. */
  const retypes = new Map<string, PlannedChange[]>();
  for (const table of input.tables) {
    const ddl = table.ddl[input.dialect];
    if (ddl === undefined) continue;
    const live = input.live.tables.get(table.name.toLowerCase());
    if (live === undefined || live.length === 0) continue;
    const target: ChangeTarget = { table, ddl, live, build, schema: input.dbSchema };
    const byName = new Map(live.map((c) => [c.name.toLowerCase(), c]));
    const retyping: PlannedChange[] = [];
    for (const change of table.changes?.columns ?? []) {
      const key = columnChangeKey(table.name, change, input.dialect);
      const state = columnState(change, ddl, byName, key);
      if (typeof state !== "string") {
        plan.problems.push(state.problem);
        continue;
      }
      const status = statusOf(state, key, recorded);
      if (status !== "done") own(plan.owned, table.name, [change.column, oldColumnOf(change), newColumnOf(change)]);
      const planned: PlannedChange = { change: key, kind: "column", column: change, table: table.name, status, ...keyed(input.writer.column(change, target), key) };
      add(plan, planned);
      if (status !== "done" && change.retype !== undefined && change.renamedFrom === undefined) retyping.push(planned);
    }
    if (retyping.length > 0) retypes.set(table.name, retyping);
    if (retyping.length > 0 && input.writer.view !== undefined && input.writer.viewsOfEveryTable !== true) {
      // Made after the table's changes, once every shadow column exists; again whenever this
      // build lacks it (it declares a retype another build expanded) or a retype is expanded now.
      const view = input.writer.view(target, retyping.map((c) => c.column!.column));
      if (retyping.some((c) => c.status === "not begun") || !(input.live.views?.has(view.name) ?? false)) {
        const key = viewKey(table.name, build);
        add(plan, { change: key, kind: "view", table: table.name, status: "not begun", ...keyed({ expand: view.steps, contract: [] }, key) });
      }
    }
    for (const column of table.changes?.dropColumns ?? []) {
      const key = dropColumnKey(table.name, column);
      const status = statusOf(byName.has(column.toLowerCase()) ? "begun" : "done", key, recorded);
      if (status !== "done") own(plan.owned, table.name, [column]);
      add(plan, { change: key, kind: "drop column", table: table.name, status, ...keyed(input.writer.dropColumn(column, target), key) });
    }
    for (const createIndex of ddl.createIndexes) {
      const name = indexName(createIndex);
      if (name === null || input.live.indexes.has(name.toLowerCase())) continue;
      const key = indexKey(table.name, name);
      const { steps, duplicates } = input.writer.index(createIndex, target);
      const planned: PlannedChange = { change: key, kind: "index", table: table.name, status: "not begun", ...keyed({ expand: steps, contract: [] }, key) };
      if (duplicates !== null) planned.duplicates = duplicates;
      add(plan, planned);
    }
  }
  if (retypes.size > 0) viewsOfEveryTable(plan, input, retypes);
  for (const table of input.schema?.dropTables ?? []) {
    const key = dropTableKey(table);
    const exists = (input.live.tables.get(table.toLowerCase())?.length ?? 0) > 0;
    const status = statusOf(exists ? "begun" : "done", key, recorded);
    add(plan, { change: key, kind: "drop table", table, status, ...keyed(input.writer.dropTable(table, input.dbSchema), key) });
  }
  // A server of an older build starting during a deploy: what the newer build's open changes keep.
  for (const [key, phases] of recorded) {
    if (!phases.has("expand") || phases.has("contract")) continue;
    const columns = keyColumns(key);
    if (columns !== null) own(plan.owned, columns.table, columns.columns);
  }
  return plan;
}

/**
 * MariaDB (ChangeWriter.viewsOfEveryTable): while a retype in place is open, the build's view
 * database shows every table the build uses, after every table's changes (each table and
 * shadow column exists by then: the additive migration creates a new table before the
 * changes run). A view is made again when its table's retype is expanded now, or when it is
 * missing (this build's first start, or a table new to it).
 */
function viewsOfEveryTable(plan: EvolvePlan, input: PlanInput, retypes: ReadonlyMap<string, PlannedChange[]>): void {
  const writer = input.writer;
  if (writer.view === undefined || writer.viewsOfEveryTable !== true) return;
  const build = input.schema?.build ?? "";
  for (const table of input.tables) {
    const ddl = table.ddl[input.dialect];
    if (ddl === undefined) continue;
    const live = input.live.tables.get(table.name.toLowerCase()) ?? [];
    const retyping = retypes.get(table.name) ?? [];
    const view = writer.view({ table, ddl, live, build, schema: input.dbSchema }, retyping.map((c) => c.column!.column));
    if (retyping.some((c) => c.status === "not begun") || !(input.live.views?.has(view.name) ?? false)) {
      const key = viewKey(table.name, build);
      add(plan, { change: key, kind: "view", table: table.name, status: "not begun", ...keyed({ expand: view.steps, contract: [] }, key) });
    }
  }
}

/** The changes of `phase` to run: apply expands what is not done and not yet expanded; complete contracts what is open. */
export function changesToRun(plan: EvolvePlan, phase: Phase, history: readonly HistoryRow[]): PlannedChange[] {
  const recorded = historyIndex(history);
  return plan.changes.filter((c) =>
    phase === "expand" ? c.status === "not begun" : c.status === "open" && !(recorded.get(c.change)?.has("contract") ?? false),
  );
}

/** The columns of `table` the additive check leaves to the planner (lower-cased). */
export function ownedColumns(plan: Pick<EvolvePlan, "owned">, table: string): ReadonlySet<string> {
  return plan.owned.get(table.toLowerCase()) ?? new Set();
}

/** `begun`: the live table is not in the change's end state (which may mean not begun at all). */
type LiveState = "begun" | "done";

function columnState(
  change: ColumnChange,
  ddl: TableDdl,
  live: ReadonlyMap<string, LiveColumnInfo>,
  key: string,
): LiveState | { problem: string } {
  const declared = ddl.columns.find((c) => c.name === change.column);
  const target = live.get(change.column.toLowerCase());
  const old = live.get(oldColumnOf(change).toLowerCase());
  const shadow = live.get(newColumnOf(change).toLowerCase());
  if (declared === undefined) return { problem: `${key}: the resource declares no field ${change.column}` };
  if (target === undefined && old === undefined) {
    return { problem: `${key}: the table has no column ${oldColumnOf(change)} to change (nor ${change.column})` };
  }
  const finished =
    target !== undefined &&
    (change.renamedFrom === undefined || old === undefined) &&
    (change.retype === undefined || change.renamedFrom !== undefined || shadow === undefined) &&
    target.type === declared.sqlType.toLowerCase() &&
    target.nullable === declared.nullable;
  if (finished) return "done";
  // The column to convert must still have the type the declaration says it had.
  const source = change.renamedFrom !== undefined ? old : target === undefined ? undefined : target;
  if (change.retype !== undefined && source !== undefined && (change.renamedFrom !== undefined || shadow === undefined)) {
    const was = change.retype.from;
    const types = Object.values(was).map((t) => t.reported.toLowerCase());
    if (!types.includes(source.type) && source.type !== declared.sqlType.toLowerCase()) {
      return { problem: `${key}: column ${source.name} is ${source.type} in the database, not the type the declaration changes from` };
    }
  }
  return "begun";
}

function statusOf(state: LiveState, key: string, recorded: Map<string, Set<Phase>>): ChangeStatus {
  if (state === "done") return "done";
  return recorded.get(key)?.has("expand") === true ? "open" : "not begun";
}

function historyIndex(history: readonly HistoryRow[]): Map<string, Set<Phase>> {
  const out = new Map<string, Set<Phase>>();
  for (const row of history) {
    const phases = out.get(row.change) ?? new Set<Phase>();
    phases.add(row.phase);
    out.set(row.change, phases);
  }
  return out;
}

/** Every step carries its change's key, whatever the writer put there. */
function keyed(steps: PhaseSteps, key: string): PhaseSteps {
  return {
    expand: steps.expand.map((s) => ({ ...s, change: key, phase: "expand" })),
    contract: steps.contract.map((s) => ({ ...s, change: key, phase: "contract" })),
  };
}

function add(plan: EvolvePlan, change: PlannedChange): void {
  plan.changes.push(change);
  if (change.status === "done") return;
  if (change.status === "not begun") plan.expand.push(...change.expand);
  plan.contract.push(...change.contract);
}

function own(owned: Map<string, Set<string>>, table: string, columns: readonly string[]): void {
  const set = owned.get(table.toLowerCase()) ?? new Set<string>();
  for (const c of columns) set.add(c.toLowerCase());
  owned.set(table.toLowerCase(), set);
}
