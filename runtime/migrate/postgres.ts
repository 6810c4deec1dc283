// The PostgreSQL writer (docs/migrations.md, "PostgreSQL"). Expand adds what the new build
// needs beside what the old one uses and keeps the two in step with a BEFORE trigger, fills
// existing rows in batches, and proves NOT NULL with a CHECK … NOT VALID then VALIDATE (which
// takes no lock that stops writes); contract removes what only the old build used. A column
// retyped in place gets a shadow column, and the new build reads and writes its table through
// a view in a schema of its own (svc_<build>) that shows the shadow under the field's name: its
// connections put that schema first on their search_path. Every statement is idempotent, so
// an apply that failed half-way is resumed by running it again.

import { StartupError } from "../core/errors.js";
import type { ColumnChange, MigrationStep } from "../contract/evolve.js";
import type { TableColumnDdl } from "../contract/server.js";
import { SHADOW_SUFFIX, newColumnOf, oldColumnOf, shadowColumn } from "./keys.js";
import { fillColumns } from "./row-expression.js";
import type { ChangeTarget, ChangeWriter, PhaseSteps } from "./writer.js";

/** Rows per backfill batch: each batch is a transaction of its own, holding row locks on these only. */
export const BATCH_ROWS = 1000;

export const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const lit = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** The schema holding the new build's views while a retype in place is open. */
export function viewSchemaName(build: string, schema: string | null): string {
  return schema === null || schema === "public" ? `svc_${build}` : `${schema}_svc_${build}`;
}

/** A name of at most 63 bytes (PostgreSQL's limit), kept distinct by a hash of the whole when cut. */
function pgName(name: string): string {
  if (name.length <= 63) return name;
  let h = 0;
  for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  return `${name.slice(0, 54)}_${h.toString(36)}`;
}

const CATALOG = "ACCESS EXCLUSIVE (brief: catalog only)";
const ONLINE = "SHARE UPDATE EXCLUSIVE (reads and writes go on)";

function step(describe: string, sql: string, locks: string, extra: Partial<MigrationStep> = {}): MigrationStep {
  return { change: "", phase: "expand", describe, sql, online: true, locks, lossy: false, transactional: true, ...extra };
}

export function postgresWriter(): ChangeWriter {
  return { dialect: "postgres", column, dropColumn, dropTable, index, view };
}

function tableOf(target: ChangeTarget): string {
  return target.schema === null ? q(target.table.name) : `${q(target.schema)}.${q(target.table.name)}`;
}

function column(change: ColumnChange, target: ChangeTarget): PhaseSteps {
  const t = tableOf(target);
  const declared = target.ddl.columns.find((c) => c.name === change.column);
  if (declared === undefined) throw new StartupError("SVC_ERR_MIGRATION", `table ${target.table.name} declares no column ${change.column}`);
  const oldCol = oldColumnOf(change);
  const newCol = newColumnOf(change);
  const paired = oldCol !== newCol;
  const lossy = change.retype?.lossy === true;
  const names = { trigger: pgName(`svc_sync_${change.column}`), fn: fnName(target, change.column), check: pgName(`svc_nn_${target.table.name}_${change.column}`) };
  const fnRef = target.schema === null ? q(names.fn) : `${q(target.schema)}.${q(names.fn)}`;
  // up: the old column's value as the new one's; down: the reverse (identity for a rename).
  const up = (col: (n: string) => string): string =>
    change.retype === undefined ? col(oldCol) : fillColumns(change.retype.up, "postgres", () => col(oldCol));
  const down = (col: (n: string) => string): string =>
    change.retype === undefined ? col(newCol) : fillColumns(change.retype.down, "postgres", () => col(newCol));
  const nu = (n: string) => `NEW.${q(n)}`;
  const backfill = (col: (n: string) => string): string | null =>
    change.backfill === undefined ? null : fillColumns(change.backfill, "postgres", (n) => col(n === change.column ? newCol : n));
  const expand: MigrationStep[] = [];
  const contract: MigrationStep[] = [];

  if (paired) {
    expand.push(step(`add column ${newCol}`, `ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS ${expandDefinition(declared, newCol)}`, CATALOG));
  }
  const body: string[] = [];
  if (paired) {
    body.push(
      `IF TG_OP = 'INSERT' THEN`,
      `  IF NEW.${q(newCol)} IS NOT NULL THEN NEW.${q(oldCol)} := ${down(nu)};`,
      `  ELSIF NEW.${q(oldCol)} IS NOT NULL THEN NEW.${q(newCol)} := ${up(nu)};`,
      `  END IF;`,
      // A batch filling the new column leaves the old one as the old build wrote it.
      `ELSIF NEW.${q(oldCol)} IS DISTINCT FROM OLD.${q(oldCol)} AND NEW.${q(newCol)} IS NOT DISTINCT FROM OLD.${q(newCol)} THEN`,
      `  NEW.${q(newCol)} := ${up(nu)};`,
      `ELSIF NEW.${q(newCol)} IS DISTINCT FROM OLD.${q(newCol)} AND NEW.${q(oldCol)} IS NOT DISTINCT FROM OLD.${q(oldCol)}`,
      `      AND NOT (OLD.${q(newCol)} IS NULL AND OLD.${q(oldCol)} IS NOT NULL) THEN`,
      `  NEW.${q(oldCol)} := ${down(nu)};`,
      `END IF;`,
    );
  }
  const filled = backfill(nu);
  if (filled !== null) {
    body.push(`IF NEW.${q(newCol)} IS NULL THEN`, `  NEW.${q(newCol)} := ${filled};`);
    if (paired) body.push(`  NEW.${q(oldCol)} := ${down(nu)};`);
    body.push(`END IF;`);
  }
  expand.push(
    step(
      `function ${names.fn} keeping ${paired ? `${oldCol} and ${newCol} in step` : `${newCol} filled`}`,
      `CREATE OR REPLACE FUNCTION ${fnRef}() RETURNS trigger LANGUAGE plpgsql AS $svc$\nBEGIN\n${body.map((l) => `  ${l}`).join("\n")}\n  RETURN NEW;\nEND\n$svc$`,
      "none",
    ),
    step(
      `trigger ${names.trigger} on insert and update`,
      `CREATE OR REPLACE TRIGGER ${q(names.trigger)} BEFORE INSERT OR UPDATE ON ${t} FOR EACH ROW EXECUTE FUNCTION ${fnRef}()`,
      "SHARE ROW EXCLUSIVE (brief)",
    ),
  );
  // A table without a declared key is batched by its rows' physical places.
  const key = (target.ddl.primaryKey ?? []).length > 0 ? target.ddl.primaryKey!.map(q).join(", ") : "ctid";
  const batch = (describe: string, set: string, where: string, isLossy: boolean) =>
    step(
      describe,
      `UPDATE ${t} SET ${set}\n WHERE (${key}) IN (SELECT ${key} FROM ${t} WHERE ${where} LIMIT ${BATCH_ROWS})`,
      `ROW EXCLUSIVE; row locks on at most ${BATCH_ROWS} rows per batch`,
      { repeat: true, lossy: isLossy },
    );
  const bare = (n: string) => q(n);
  // Each batch finds its rows through a partial index of the rows still to fill: without it,
  // every batch scans from the table's start past the rows already filled, and the batches
  // grow dearer as the backfill goes on. Built and dropped CONCURRENTLY: writes go on
  // meanwhile. Rows by ctid (no declared key) cannot be indexed.
  const filledBare = backfill(bare);
  const fill = pgName(`svc_fill_${target.table.name}_${change.column}`);
  const indexed = key !== "ctid" && (paired || filledBare !== null);
  if (indexed) {
    expand.push(
      step(
        `index the rows where ${newCol} is NULL, for the batches`,
        `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${q(fill)} ON ${t} (${key}) WHERE ${q(newCol)} IS NULL`,
        ONLINE,
        { transactional: false },
      ),
    );
  }
  if (paired) {
    expand.push(
      batch(
        `copy ${oldCol} into ${newCol} (batches of ${BATCH_ROWS})`,
        `${q(newCol)} = ${up(bare)}`,
        `${q(newCol)} IS NULL AND ${q(oldCol)} IS NOT NULL AND (${up(bare)}) IS NOT NULL`,
        lossy,
      ),
    );
  }
  if (filledBare !== null) {
    expand.push(batch(`fill ${newCol} where NULL (batches of ${BATCH_ROWS})`, `${q(newCol)} = ${filledBare}`, `${q(newCol)} IS NULL AND (${filledBare}) IS NOT NULL`, false));
  }
  if (indexed) {
    const fillRef = target.schema === null ? q(fill) : `${q(target.schema)}.${q(fill)}`;
    expand.push(step(`drop the index of rows to fill`, `DROP INDEX CONCURRENTLY IF EXISTS ${fillRef}`, ONLINE, { transactional: false }));
  }
  const required = !declared.nullable;
  if (required) {
    expand.push(
      step(
        `check ${newCol} IS NOT NULL (not valid yet)`,
        `DO $svc$ BEGIN\n  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = ${lit(names.check)} AND conrelid = ${lit(t)}::regclass) THEN\n` +
          `    ALTER TABLE ${t} ADD CONSTRAINT ${q(names.check)} CHECK (${q(newCol)} IS NOT NULL) NOT VALID;\n  END IF;\nEND $svc$`,
        CATALOG,
      ),
      step(`validate the check on ${newCol}`, `ALTER TABLE ${t} VALIDATE CONSTRAINT ${q(names.check)}`, ONLINE),
    );
  }
  const inPlaceRetype = change.retype !== undefined && change.renamedFrom === undefined;

  const dropSync = [
    step(`drop trigger ${names.trigger}`, `DROP TRIGGER IF EXISTS ${q(names.trigger)} ON ${t}`, "SHARE ROW EXCLUSIVE (brief)"),
    step(`drop function ${names.fn}`, `DROP FUNCTION IF EXISTS ${fnRef}()`, "none"),
  ];
  contract.push(...dropSync);
  if (inPlaceRetype) {
    // The views of builds that show the old column go with it (their servers are gone, as the
    // contract is asked); a view showing the shadow follows its rename, and goes only once it
    // shows no shadow column: another retype of the table may still need it.
    contract.push(
      step(
        `drop the views of older builds showing ${change.column}`,
        dropViews(target, `EXISTS (${dependsOn(t, `a.attname = ${lit(change.column)}`)})`),
        "ACCESS EXCLUSIVE on those views (brief)",
      ),
      step(
        `swap ${newCol} in for ${change.column}`,
        `DO $svc$ BEGIN\n  IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = ${lit(t)}::regclass AND attname = ${lit(newCol)} AND NOT attisdropped) THEN\n` +
          `    ALTER TABLE ${t} DROP COLUMN ${q(change.column)};\n    ALTER TABLE ${t} RENAME COLUMN ${q(newCol)} TO ${q(change.column)};\n  END IF;\nEND $svc$`,
        CATALOG,
        { lossy },
      ),
      step(
        `drop the views left showing no retyped column, and their emptied schemas`,
        dropViews(target, `EXISTS (${dependsOn(t)})\n       AND NOT EXISTS (${dependsOn(t, `a.attname LIKE ${lit(`%${SHADOW_SUFFIX.replace(/_/g, "\\_")}`)}`)})`),
        "ACCESS EXCLUSIVE on those views (brief)",
      ),
    );
  } else if (paired) {
    contract.push(step(`drop column ${oldCol}`, `ALTER TABLE ${t} DROP COLUMN IF EXISTS ${q(oldCol)}`, CATALOG, { lossy }));
  }
  const defaultSql = declaredDefault(declared);
  if (defaultSql !== null && paired) {
    contract.push(step(`default of ${change.column}`, `ALTER TABLE ${t} ALTER COLUMN ${q(change.column)} SET DEFAULT ${defaultSql}`, CATALOG));
  }
  if (required) {
    contract.push(
      step(`${change.column} NOT NULL (the validated check spares the scan)`, `ALTER TABLE ${t} ALTER COLUMN ${q(change.column)} SET NOT NULL`, CATALOG),
      step(`drop the check on ${change.column}`, `ALTER TABLE ${t} DROP CONSTRAINT IF EXISTS ${q(names.check)}`, CATALOG),
    );
  }
  return { expand, contract };
}

/**
 * The view of `target`'s table in the build's view schema: the shadow column of each of
 * `shadowed` (the table's retypes in place not done) shown under the field's name, the other
 * columns as they are. Made once the table's shadow columns all exist, after its changes.
 */
function view(target: ChangeTarget, shadowed: readonly string[]): { name: string; steps: MigrationStep[] } {
  const vs = viewSchemaName(target.build, target.schema);
  const columns = target.ddl.columns.map((c) => (shadowed.includes(c.name) ? `${q(shadowColumn(c.name))} AS ${q(c.name)}` : q(c.name)));
  return {
    name: `${vs}.${target.table.name}`.toLowerCase(),
    steps: [
      step(`schema ${vs} for the new build's views`, `CREATE SCHEMA IF NOT EXISTS ${q(vs)}`, "none"),
      step(
        `view ${vs}.${target.table.name} showing the new column types`,
        `CREATE OR REPLACE VIEW ${q(vs)}.${q(target.table.name)} AS\n  SELECT ${columns.join(", ")}\n  FROM ${tableOf(target)}`,
        "none",
      ),
    ],
  };
}

/** The rewrite rule of view `v` reading table `t`, or one of its columns matching `column` (over pg_attribute `a`). */
function dependsOn(t: string, column?: string): string {
  const head =
    `SELECT 1 FROM pg_rewrite r JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid\n` +
    `         WHERE r.ev_class = v.oid AND d.refclassid = 'pg_class'::regclass AND d.refobjid = ${lit(t)}::regclass`;
  if (column === undefined) return head;
  return `${head}\n           AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = d.refobjid AND a.attnum = d.refobjsubid AND ${column})`;
}

/**
 * Drops the views of the table in svc's view schemas (of any build) that meet `condition` (over
 * pg_class `v`), then each of their schemas left empty: one build's schema may hold the views of
 * several tables.
 */
function dropViews(target: ChangeTarget, condition: string): string {
  const prefix = viewSchemaName("", target.schema);
  return (
    `DO $svc$ DECLARE found record; emptied text[] := '{}'; BEGIN\n` +
    `  FOR found IN SELECT v.oid::regclass::text AS view, n.nspname FROM pg_class v JOIN pg_namespace n ON n.oid = v.relnamespace\n` +
    `     WHERE v.relkind = 'v' AND v.relname = ${lit(target.table.name)} AND starts_with(n.nspname, ${lit(prefix)})\n` +
    `       AND ${condition}\n` +
    `  LOOP\n    EXECUTE 'DROP VIEW IF EXISTS ' || found.view;\n    emptied := emptied || found.nspname::text;\n  END LOOP;\n` +
    `  FOR found IN SELECT n.nspname FROM pg_namespace n WHERE n.nspname = ANY (emptied) AND NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid)\n` +
    `  LOOP\n    EXECUTE format('DROP SCHEMA IF EXISTS %I', found.nspname);\n  END LOOP;\nEND $svc$`
  );
}

function fnName(target: ChangeTarget, column: string): string {
  return pgName(`svc_sync_${target.table.name}_${column}`);
}

/**
 * The declared column as expand adds it: nullable and without its default (the trigger fills
 * it from the old column; a default would hide that the old build left it out), under `name`.
 */
export function expandDefinition(declared: TableColumnDdl, name: string): string {
  const head = /^("(?:[^"]|"")+"|\S+)\s+/.exec(declared.definition);
  const rest = head === null ? declared.definition : declared.definition.slice(head[0].length);
  const cut = rest.search(/\s(?:NOT NULL|DEFAULT|CHECK|PRIMARY KEY|REFERENCES|GENERATED)\b/i);
  const type = cut < 0 ? rest : rest.slice(0, cut);
  const check = /\sCHECK\s*\((.*)\)\s*$/i.exec(rest);
  const renamed = check === null ? "" : ` CHECK (${check[1]!.split(q(declared.name)).join(q(name))})`;
  return `${q(name)} ${type}${renamed}`;
}

function declaredDefault(declared: TableColumnDdl): string | null {
  if (!declared.hasDefault) return null;
  const m = /\sDEFAULT\s+(.+?)(?:\s+CHECK\s*\(.*)?$/i.exec(declared.definition);
  return m === null ? null : m[1]!;
}

function dropColumn(column: string, target: ChangeTarget): PhaseSteps {
  const t = tableOf(target);
  const live = target.live.find((c) => c.name.toLowerCase() === column.toLowerCase());
  const expand =
    live !== undefined && !live.nullable
      ? [step(`let ${column} be NULL (the new build no longer writes it)`, `ALTER TABLE ${t} ALTER COLUMN ${q(column)} DROP NOT NULL`, CATALOG)]
      : [];
  return { expand, contract: [step(`drop column ${column} with its data`, `ALTER TABLE ${t} DROP COLUMN IF EXISTS ${q(column)}`, CATALOG, { lossy: true })] };
}

function dropTable(table: string, schema: string | null): PhaseSteps {
  const t = schema === null ? q(table) : `${q(schema)}.${q(table)}`;
  return { expand: [], contract: [step(`drop table ${table} with its rows`, `DROP TABLE IF EXISTS ${t}`, "ACCESS EXCLUSIVE (no server of this build uses it)", { lossy: true })] };
}

function index(createIndex: string, target: ChangeTarget): { steps: MigrationStep[]; duplicates: string | null } {
  const m = /^CREATE\s+(UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?("(?:[^"]|"")+"|\S+)\s+ON\s+\S+\s*\((.*)\)\s*$/is.exec(createIndex);
  if (m === null) throw new StartupError("SVC_ERR_MIGRATION", `cannot read the index statement: ${createIndex}`);
  const unique = m[1] !== undefined;
  const name = m[2]!;
  const on = tableOf(target);
  const rawName = name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name;
  const indexRef = target.schema === null ? name : `${q(target.schema)}.${name}`;
  const steps = [
    step(
      `drop an invalid ${rawName} a failed build left`,
      `DO $svc$ BEGIN\n  IF EXISTS (SELECT 1 FROM pg_index i WHERE i.indexrelid = to_regclass(${lit(indexRef)}) AND NOT i.indisvalid) THEN\n    DROP INDEX ${indexRef};\n  END IF;\nEND $svc$`,
      CATALOG,
    ),
    step(
      `build index ${rawName} without blocking writes`,
      `CREATE ${unique ? "UNIQUE " : ""}INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${on} (${m[3]})`,
      ONLINE,
      { transactional: false },
    ),
  ];
  if (!unique) return { steps, duplicates: null };
  const cols = m[3]!.split(",").map((c) => c.trim().replace(/\s+(ASC|DESC)$/i, ""));
  const duplicates =
    `SELECT ${cols.join(", ")}, count(*) AS count FROM ${on}\n WHERE ${cols.map((c) => `${c} IS NOT NULL`).join(" AND ")}\n` +
    ` GROUP BY ${cols.join(", ")} HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 5`;
  return { steps, duplicates };
}
