// MariaDB's side-by-side retype in place (docs/migrations.md, "MySQL/MariaDB"): while a column
// is retyped in place, the new build's connections use a database of their own as their
// default database, holding a view of every table the build uses. A connection's default
// database is MariaDB's per-connection name lookup, as PostgreSQL's search_path, but without
// a fallback: an unqualified name resolves there only, so every table needs its view, not just
// the retyped ones. A retyped table's view shows its shadow column under the field's name;
// the others pass their columns through. MariaDB writes through such a view with everything
// the runtime uses (LAST_INSERT_ID, RETURNING, ON DUPLICATE KEY UPDATE, ROW_COUNT, FOR UPDATE
// SKIP LOCKED; measured on 10.11), and the table's triggers keep the old column in step.

import { createHash } from "node:crypto";
import type { MigrationStep } from "../contract/evolve.js";
import { SHADOW_SUFFIX, shadowColumn } from "./keys.js";
import { makeStep } from "./step.js";
import type { ChangeTarget } from "./writer.js";
import { StartupError } from "../core/errors.js";

/** MySQL's limit on a database's name. */
const MAX_NAME = 64;

/** MD5's first 8 hex digits: MariaDB's MD5() gives the same, so contract's SQL derives the prefix too. */
function hash(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex").slice(0, 8);
}

/**
 * What every view database of app database `app` starts with, so contract finds them all: a
 * long name is cut and told apart by a hash, leaving room for the build. PREFIX_SQL is the same
 * over DATABASE().
 */
export function viewDatabasePrefix(app: string): string {
  return app.length <= 40 ? `${app}_svc_` : `${app.slice(0, 31)}_${hash(app)}_svc_`;
}

const PREFIX_SQL = "IF(CHAR_LENGTH(DATABASE()) <= 40, CONCAT(DATABASE(), '_svc_'), CONCAT(LEFT(DATABASE(), 31), '_', LEFT(MD5(DATABASE()), 8), '_svc_'))";

/** The database holding build `build`'s views of `app`'s tables (at most 64 characters, deterministic). */
export function viewDatabaseName(app: string, build: string): string {
  const prefix = viewDatabasePrefix(app);
  if (prefix.length + build.length <= MAX_NAME) return `${prefix}${build}`;
  return `${prefix}${build.slice(0, MAX_NAME - prefix.length - 9)}_${hash(build)}`;
}

/**
 * The view of `target`'s table in the build's view database: the shadow column of each of
 * `shadowed` shown under the field's name, every other declared column as it is. The table
 * is named with its database (`target.schema`), the view database being another one.
 */
export function mariadbView(target: ChangeTarget, shadowed: readonly string[]): { name: string; steps: MigrationStep[] } {
  const app = appDatabase(target);
  const vdb = viewDatabaseName(app, target.build);
  const table = target.table.name;
  const columns = target.ddl.columns.map((c) => (shadowed.includes(c.name) ? `${q(shadowColumn(c.name))} AS ${q(c.name)}` : q(c.name)));
  const what = shadowed.length > 0 ? "showing the new column types" : "passing its columns through";
  return {
    name: `${vdb}.${table}`.toLowerCase(),
    steps: [
      makeStep("", "expand", `database ${vdb} for the new build's views`, `CREATE DATABASE IF NOT EXISTS ${q(vdb)}`, "none", false),
      makeStep(
        "",
        "expand",
        `view ${vdb}.${table} ${what}`,
        `CREATE OR REPLACE VIEW ${q(vdb)}.${q(table)} AS SELECT ${columns.join(", ")} FROM ${q(app)}.${q(table)}`,
        "a brief metadata lock on the view",
        false,
      ),
    ],
  };
}

/**
 * Contract's last step for a retype in place: once no table of the app database has a shadow
 * column left (every retype in place contracted), the view databases of every build go. A
 * server of the new build still using one meets errors 1356/1146/1046 and moves its pool to
 * the app database (db/mysql/index.ts), where the table now has the new type under its name.
 * Only databases holding nothing but views are dropped.
 */
export function dropViewDatabases(change: string): MigrationStep {
  const sql =
    `BEGIN NOT ATOMIC DECLARE done INT DEFAULT 0; DECLARE d VARCHAR(64); DECLARE p VARCHAR(64) DEFAULT ${PREFIX_SQL}; ` +
    `DECLARE c CURSOR FOR SELECT SCHEMA_NAME FROM information_schema.SCHEMATA s WHERE LEFT(s.SCHEMA_NAME, CHAR_LENGTH(p)) = p ` +
    `AND NOT EXISTS (SELECT 1 FROM information_schema.TABLES t WHERE t.TABLE_SCHEMA = s.SCHEMA_NAME AND t.TABLE_TYPE <> 'VIEW'); ` +
    `DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1; ` +
    `IF NOT EXISTS (SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND RIGHT(COLUMN_NAME, ${SHADOW_SUFFIX.length}) = ${str(SHADOW_SUFFIX)}) THEN ` +
    `OPEN c; l: LOOP FETCH c INTO d; IF done THEN LEAVE l; END IF; EXECUTE IMMEDIATE CONCAT('DROP DATABASE IF EXISTS \`', REPLACE(d, '\`', '\`\`'), '\`'); END LOOP; CLOSE c; ` +
    `END IF; END`;
  return makeStep(change, "contract", `drop the builds' view databases once no retype in place is left open`, sql, "a brief metadata lock on each view", false);
}

/** The app database: the planner passes it as the target's schema on MySQL/MariaDB. */
function appDatabase(target: ChangeTarget): string {
  if (target.schema === null) throw new StartupError("SVC_ERR_MIGRATION", `table ${target.table.name}: the planner gave no database name for MariaDB's views`);
  return target.schema;
}

function q(name: string): string {
  return `\`${name.replace(/`/g, "``")}\``;
}

function str(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}
