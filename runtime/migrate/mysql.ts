// The MySQL/MariaDB writer of declared schema changes (docs/migrations.md). Written for
// MariaDB 10.11's forms: idempotent DDL (ADD COLUMN IF NOT EXISTS, CREATE OR REPLACE
// TRIGGER, DROP … IF EXISTS) and an anonymous block guarding the one step that is unsafe to
// repeat, so a failed apply resumes by running again. InnoDB's online DDL keeps reads and
// writes going: each ALTER names its ALGORITHM and LOCK=NONE, so MariaDB refuses the
// statement rather than silently taking a stronger lock than MigrationStep.locks says.
//
// The two builds share one table while a change is open: BEFORE INSERT and BEFORE UPDATE
// triggers (one pair per change, several triggers per event are allowed) keep the old column
// and its replacement in step. A BEFORE INSERT trigger may fill a NOT NULL column the INSERT
// leaves out (measured on MariaDB 10.11 in strict mode; tests/backends/evolve-mysql.test.ts),
// so the old column keeps its NOT NULL until contract, which makes it nullable before it
// drops the triggers that were filling it.

import { StartupError } from "../core/errors.js";
import type { ColumnChange, MigrationStep, Phase } from "../contract/evolve.js";
import type { TableColumnDdl } from "../contract/server.js";
import { columnChangeKey, dropColumnKey, dropTableKey, indexKey, newColumnOf, oldColumnOf, SHADOW_SUFFIX, shadowColumn } from "./keys.js";
import { fillColumns } from "./row-expression.js";
import type { ChangeTarget, ChangeWriter, LiveColumnInfo, PhaseSteps } from "./writer.js";
import { type StepOptions, makeStep } from "./step.js";
import { dropViewDatabases, mariadbView } from "./mysql-views.js";

/** Rows one backfill statement changes: each batch is its own short transaction. */
export const MYSQL_BATCH_ROWS = 1000;

const INSTANT = "none (instant: metadata only, a brief exclusive metadata lock)";
const REBUILD = "none (online rebuild: reads and writes go on; brief exclusive metadata locks at start and end)";
const INSTANT_OR_REBUILD = "none (instant where InnoDB can, else an online rebuild; brief exclusive metadata locks)";
const TRIGGER = "a brief exclusive metadata lock on the table (waits for running statements on it)";
const ROWS = "row locks on the batch's rows only";

/**
 * `server`: which server answers (db/mysql/session.ts serverKind). MySQL and TiDB lack the
 * idempotent forms MariaDB has: there only an index on an existing table is written (in the
 * form each accepts; a resumed apply re-plans and leaves out the index already built), and a
 * change of a column fails at its first statement, naming it (TiDB has no triggers at all).
 */
export function mysqlWriter(server: "mysql" | "mariadb" | "tidb" = "mariadb"): ChangeWriter {
  const writer: ChangeWriter = {
    dialect: "mysql",
    column: (change, target) => columnSteps(change, target, server === "mariadb"),
    dropColumn,
    dropTable,
    index: (createIndex, target) => index(createIndex, target, server),
  };
  // Only MariaDB: a retype in place is refused on MySQL and TiDB at its first statement anyway.
  return server === "mariadb" ? { ...writer, view: mariadbView, viewsOfEveryTable: true } : writer;
}

function dropColumn(column: string, target: ChangeTarget): PhaseSteps {
  const change = dropColumnKey(target.table.name, column);
  const t = q(target.table.name);
  const live = target.live.find((c) => c.name.toLowerCase() === column.toLowerCase());
  const expand: MigrationStep[] = [];
  // The new build no longer writes the column: a NOT NULL one would refuse its inserts.
  if (live !== undefined && !live.nullable) {
    expand.push(
      step(change, "expand", `make ${column} nullable (the new build leaves it out)`, `ALTER TABLE ${t} MODIFY COLUMN IF EXISTS ${q(column)} ${fullType(live)} NULL, ALGORITHM=INPLACE, LOCK=NONE`, REBUILD),
    );
  }
  const contract = [
    step(change, "contract", `drop column ${column} with its data`, `ALTER TABLE ${t} DROP COLUMN IF EXISTS ${q(column)}, LOCK=NONE`, INSTANT_OR_REBUILD, { lossy: true }),
  ];
  return { expand, contract };
}

function dropTable(table: string): PhaseSteps {
  const change = dropTableKey(table);
  return {
    expand: [],
    contract: [step(change, "contract", `drop table ${table} with its data`, `DROP TABLE IF EXISTS ${q(table)}`, "exclusive metadata lock on the table (brief)", { lossy: true, online: false })],
  };
}

function index(createIndex: string, target: ChangeTarget, server: "mysql" | "mariadb" | "tidb"): { steps: MigrationStep[]; duplicates: string | null } {
  const m = /^CREATE (UNIQUE )?INDEX IF NOT EXISTS (`(?:[^`]|``)+`|\S+) ON (?:`(?:[^`]|``)+`|\S+) \((.*)\)$/s.exec(createIndex);
  if (m === null) throw new StartupError("SVC_ERR_MIGRATION", `not an index statement svc writes: ${createIndex}`);
  const unique = m[1] !== undefined;
  const name = m[2];
  const table = target.table.name;
  const add = `ALTER TABLE ${q(table)} ADD ${unique ? "UNIQUE " : ""}INDEX`;
  // TiDB builds every index online, and takes no ALGORITHM of MySQL's.
  const sql =
    server === "mariadb"
      ? `${add} IF NOT EXISTS ${name} (${m[3]}), ALGORITHM=NOCOPY, LOCK=NONE`
      : server === "mysql"
        ? `${add} ${name} (${m[3]}), ALGORITHM=INPLACE, LOCK=NONE`
        : `${add} ${name} (${m[3]})`;
  const change = indexKey(table, name.startsWith("`") ? name.slice(1, -1).replace(/``/g, "`") : name);
  const steps = [step(change, "expand", `${unique ? "unique " : ""}index ${name} built online`, sql, "none (built in place while reads and writes go on; brief exclusive metadata locks at start and end)")];
  return { steps, duplicates: unique ? duplicatesQuery(table, m[3]!) : null };
}

/**
 * A field's change. During expand the declared column exists beside the old one under a name
 * of its own: its new name when renamed, else `<name>__svc_new` (a retype keeping its name);
 * a backfill alone fills the column in place.
 */
function columnSteps(change: ColumnChange, target: ChangeTarget, views: boolean): PhaseSteps {
  const table = target.table.name;
  const key = columnChangeKey(table, change, "mysql");
  const t = q(table);
  const declared = declaredColumn(target, change.column);
  const old = oldColumnOf(change);
  const side = newColumnOf(change);
  const moves = change.renamedFrom !== undefined || change.retype !== undefined;
  const shadow = side !== change.column;
  const up = (col: (n: string) => string) => (change.retype ? fillColumns(change.retype.up, "mysql", col) : col(old));
  const down = (col: (n: string) => string) => (change.retype ? fillColumns(change.retype.down, "mysql", (n) => (n === change.column ? col(side) : col(n))) : col(side));
  const bf = (col: (n: string) => string) => (change.backfill ? fillColumns(change.backfill, "mysql", col) : null);
  const NEW = (n: string) => `NEW.${q(n)}`;
  const OLD = (n: string) => `OLD.${q(n)}`;
  const ROW = (n: string) => q(n);
  const lossy = change.retype?.lossy === true;

  const expand: MigrationStep[] = [];
  if (moves) {
    expand.push(
      step(key, "expand", `add column ${side} (nullable until contract)`, `ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS ${q(side)} ${columnType(declared)}, ALGORITHM=INSTANT, LOCK=NONE`, INSTANT),
    );
  }
  const fill = (row: (n: string) => string) => {
    const value = bf(row);
    return value === null ? "" : ` IF ${row(side)} IS NULL THEN SET ${row(side)} = ${value}; END IF;`;
  };
  const onInsert = moves
    ? `IF ${NEW(side)} IS NULL THEN SET ${NEW(side)} = ${up(NEW)}; ELSEIF ${NEW(old)} IS NULL THEN SET ${NEW(old)} = ${down(NEW)}; END IF;${fill(NEW)}`
    : fill(NEW).trim();
  // A write to the old column carries over; a write to the new one goes back, unless it is the
  // value the old column already converts to (the backfill's own update, or the same value).
  const onUpdate = moves
    ? `IF NOT (${NEW(old)} <=> ${OLD(old)}) THEN SET ${NEW(side)} = ${up(NEW)}; ` +
      `ELSEIF NOT (${NEW(side)} <=> ${OLD(side)}) AND NOT (${OLD(side)} IS NULL AND ${NEW(side)} <=> ${up(OLD)}) THEN SET ${NEW(old)} = ${down(NEW)}; END IF;${fill(NEW)}`
    : fill(NEW).trim();
  const [ins, upd] = triggerNames(table, change.column);
  expand.push(
    step(key, "expand", `trigger filling ${describeSync(moves, old, side)} on insert`, `CREATE OR REPLACE TRIGGER ${q(ins)} BEFORE INSERT ON ${t} FOR EACH ROW BEGIN ${onInsert} END`, TRIGGER),
    step(key, "expand", `trigger filling ${describeSync(moves, old, side)} on update`, `CREATE OR REPLACE TRIGGER ${q(upd)} BEFORE UPDATE ON ${t} FOR EACH ROW BEGIN ${onUpdate} END`, TRIGGER),
  );
  const fromOld = moves ? up(ROW) : null;
  const backfill = bf(ROW);
  const value = fromOld !== null && backfill !== null ? `COALESCE(${fromOld}, ${backfill})` : (fromOld ?? backfill)!;
  // Rows the value leaves NULL are not matched again, so the repeat ends.
  expand.push(
    step(
      key,
      "expand",
      `fill ${side} ${moves ? `from ${old}` : "where NULL"}, ${MYSQL_BATCH_ROWS} rows a statement`,
      `UPDATE ${t} SET ${q(side)} = ${value} WHERE ${q(side)} IS NULL AND (${value}) IS NOT NULL${orderByKey(target)} LIMIT ${MYSQL_BATCH_ROWS}`,
      ROWS,
      { repeat: true, transactional: true, lossy },
    ),
  );

  const contract: MigrationStep[] = [];
  if (shadow && views) contract.push(otherShadowsGuard(key, target));
  const oldLive = target.live.find((c) => c.name.toLowerCase() === old.toLowerCase());
  if (moves && oldLive !== undefined && !oldLive.nullable) {
    // Once the triggers are gone nothing fills the old column the new build leaves out (also
    // through MariaDB's views, until the swap drops it).
    contract.push(
      step(key, "contract", `make ${old} nullable before its triggers go`, `ALTER TABLE ${t} MODIFY COLUMN IF EXISTS ${q(old)} ${fullType(oldLive)} NULL, ALGORITHM=INPLACE, LOCK=NONE`, REBUILD),
    );
  }
  contract.push(
    step(key, "contract", `drop the insert trigger`, `DROP TRIGGER IF EXISTS ${q(ins)}`, TRIGGER),
    step(key, "contract", `drop the update trigger`, `DROP TRIGGER IF EXISTS ${q(upd)}`, TRIGGER),
  );
  const definition = modifiable(declared);
  if (shadow) {
    // Repeated after it ran, DROP COLUMN would drop the swapped column: the block runs it only while the shadow exists.
    const together = views ? swapTogether(target, change.column) : null;
    contract.push(
      step(
        key,
        "contract",
        together === null ? `swap ${side} in for ${old}` : `swap ${side} in for ${old}, with the table's other retypes in place, once the last of their triggers is gone`,
        together ??
          `BEGIN NOT ATOMIC IF EXISTS (SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ${str(table)} AND COLUMN_NAME = ${str(side)}) THEN ` +
            `ALTER TABLE ${t} DROP COLUMN ${q(old)}, CHANGE COLUMN ${q(side)} ${definition}, ALGORITHM=INPLACE, LOCK=NONE; END IF; END`,
        REBUILD,
        { lossy },
      ),
    );
    if (views) contract.push(dropViewDatabases(key));
  } else if (moves) {
    contract.push(
      step(key, "contract", `drop ${old}; ${change.column} as declared`, `ALTER TABLE ${t} DROP COLUMN IF EXISTS ${q(old)}, MODIFY COLUMN ${definition}, ALGORITHM=INPLACE, LOCK=NONE`, REBUILD, { lossy }),
    );
  } else {
    contract.push(step(key, "contract", `${change.column} as declared (NOT NULL)`, `ALTER TABLE ${t} MODIFY COLUMN ${definition}, ALGORITHM=INPLACE, LOCK=NONE`, REBUILD));
  }
  return { expand, contract };
}

/**
 * MariaDB, a table with several retypes in place: the swap of each shadow makes the new build's
 * views of the table invalid, and its servers can move to the app database only once no shadow
 * is left (db/mysql/index.ts), so the table's shadows are swapped in one ALTER. Each change's
 * step runs it only once no other retype's triggers are left: the change contracted last swaps
 * them all (every shadow still there). Null for a table with one retype in place.
 */
function swapTogether(target: ChangeTarget, column: string): string | null {
  const table = target.table.name;
  const inPlace = (target.table.changes?.columns ?? []).filter((c) => c.retype !== undefined && c.renamedFrom === undefined).map((c) => c.column);
  const others = inPlace.filter((c) => c !== column);
  if (others.length === 0) return null;
  const pending = others.flatMap((c) => triggerNames(table, c)).map(str);
  const hasShadow = (c: string) =>
    `EXISTS (SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ${str(table)} AND COLUMN_NAME = ${str(shadowColumn(c))})`;
  const parts = inPlace.map(
    (c) => `IF ${hasShadow(c)} THEN SET s = CONCAT(s, ${str(`, DROP COLUMN ${q(c)}, CHANGE COLUMN ${q(shadowColumn(c))} ${modifiable(declaredColumn(target, c))}`)}); END IF;`,
  );
  return (
    `BEGIN NOT ATOMIC DECLARE s TEXT DEFAULT ''; ` +
    `IF NOT EXISTS (SELECT 1 FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME IN (${pending.join(", ")})) THEN ${parts.join(" ")} ` +
    `IF s <> '' THEN EXECUTE IMMEDIATE CONCAT(${str(`ALTER TABLE ${q(table)}`)}, SUBSTRING(s, 2), ', ALGORITHM=INPLACE, LOCK=NONE'); END IF; END IF; END`
  );
}

/**
 * MariaDB, first of a retype in place's contract: a later build's view of the table names its
 * own shadows, and MariaDB's views keep the names they read, so swapping this build's shadow
 * while the table holds one this build does not declare (a later build retyping another column,
 * not completed) would leave that build's servers reading a view that no longer resolves. The
 * step refuses, having changed nothing: the newest build declares every open retype of the
 * table and completes them together (swapTogether).
 */
function otherShadowsGuard(key: string, target: ChangeTarget): MigrationStep {
  const table = target.table.name;
  const own = (target.table.changes?.columns ?? []).filter((c) => c.retype !== undefined && c.renamedFrom === undefined).map((c) => str(shadowColumn(c.column)));
  const message = `${table}: a later build retypes another column in place; complete with that build`.slice(0, 128);
  return step(
    key,
    "contract",
    `refuse while ${table} has a shadow column this build does not declare (a later build's retype in place)`,
    `BEGIN NOT ATOMIC IF EXISTS (SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ${str(table)} ` +
      `AND RIGHT(COLUMN_NAME, ${SHADOW_SUFFIX.length}) = ${str(SHADOW_SUFFIX)} AND COLUMN_NAME NOT IN (${own.join(", ")})) THEN ` +
      `SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = ${str(message)}; END IF; END`,
    "none",
  );
}

/** The type MODIFY needs: MySQL's COLUMN_TYPE (`varchar(64)`), as the planner read it. */
function fullType(column: LiveColumnInfo): string {
  return column.columnType ?? column.type;
}

function describeSync(moves: boolean, old: string, side: string): string {
  return moves ? `${side} and ${old} from each other` : `${side} where NULL`;
}

/** The unique index's repeated values, the most repeated first (NULLs never collide). */
function duplicatesQuery(table: string, columns: string): string {
  const exprs = splitTop(columns).map((part) => {
    const m = /^(`(?:[^`]|``)+`)(?:\((\d+)\))?(?:\s+(?:ASC|DESC))?$/i.exec(part.trim());
    if (m === null) return part.trim();
    return m[2] === undefined ? m[1] : `LEFT(${m[1]}, ${m[2]})`;
  });
  const list = exprs.join(", ");
  return `SELECT ${list}, COUNT(*) AS count FROM ${q(table)} WHERE ${exprs.map((e) => `${e} IS NOT NULL`).join(" AND ")} GROUP BY ${list} HAVING COUNT(*) > 1 ORDER BY COUNT(*) DESC LIMIT 5`;
}

function splitTop(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === "(") depth++;
    else if (list[i] === ")") depth--;
    else if (list[i] === "," && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

function declaredColumn(target: ChangeTarget, name: string): TableColumnDdl {
  const column = target.ddl.columns.find((c) => c.name === name);
  if (column === undefined) throw new StartupError("SVC_ERR_MIGRATION", `table ${target.table.name} declares no column ${name}`);
  return column;
}

/** The type of a column definition svc wrote (`` `a` VARCHAR(64) NOT NULL … ``): `VARCHAR(64)`. */
export function columnType(column: TableColumnDdl): string {
  const rest = column.definition.replace(/^`(?:[^`]|``)+`\s+/, "");
  const end = rest.search(/\s+(?:NOT NULL|NULL|DEFAULT|CHECK|PRIMARY KEY|UNIQUE|AUTO_INCREMENT|REFERENCES|GENERATED|COLLATE|CHARACTER SET)\b/i);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The definition as MODIFY/CHANGE takes it: the table's key stays where it is. */
function modifiable(column: TableColumnDdl): string {
  return column.definition.replace(/\s+PRIMARY KEY\b/i, "");
}

function orderByKey(target: ChangeTarget): string {
  const key = target.ddl.primaryKey;
  return key === undefined || key.length === 0 ? "" : ` ORDER BY ${key.map(q).join(", ")}`;
}

/** Trigger names fit MySQL's 64 characters; a long table or column name is cut and told apart by a hash. */
export function triggerNames(table: string, column: string): [string, string] {
  let base = `svc_${table}_${column}`;
  if (base.length > 60) base = `${base.slice(0, 51)}_${hash(base)}`;
  return [`${base}_bi`, `${base}_bu`];
}

function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, "0");
}

// MySQL's DDL commits on its own; only a backfill batch is a transaction.
function step(change: string, phase: Phase, describe: string, sql: string, locks: string, extra: StepOptions = {}): MigrationStep {
  return makeStep(change, phase, describe, sql, locks, false, extra);
}

function q(name: string): string {
  return `\`${name.replace(/`/g, "``")}\``;
}

function str(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}
