// What each backend supplies to plan schema changes beyond additive (docs/migrations.md): the
// statements of each phase of each declared change, written for that backend. The planner
// (plan.ts) decides which changes are open from the live schema and the history table; a writer
// only writes SQL, so it can be read, tested and printed by `svc migrate plan` without a database.

import type { ColumnChange, MigrationStep } from "../contract/evolve.js";
import type { Dialect, TableDdl, TableSpec } from "../contract/server.js";

/** A live column as the planner reads it (information_schema, or PRAGMA table_info on SQLite). */
export interface LiveColumnInfo {
  name: string;
  /** As the database reports it, lower-cased. */
  type: string;
  nullable: boolean;
  /** MySQL: the full type (COLUMN_TYPE, `varchar(64)`), which MODIFY COLUMN needs and `type` (DATA_TYPE) lacks. */
  columnType?: string;
}

/** Where a change is written: its table, as declared for this backend and as it is live. */
export interface ChangeTarget {
  table: TableSpec;
  /** The table's DDL for this backend. */
  ddl: TableDdl;
  /** The live table's columns; the planner only asks a writer about tables that exist. */
  live: readonly LiveColumnInfo[];
  /** SchemaSpec.build of the build declaring the change. */
  build: string;
  /**
   * The PostgreSQL schema the tables are in (`--db …?schema=` / svc.toml); null for the default.
   * On MySQL/MariaDB, the app database (the URL's), which MariaDB's views name.
   */
  schema: string | null;
}

export interface PhaseSteps {
  expand: MigrationStep[];
  contract: MigrationStep[];
}

export interface ChangeWriter {
  readonly dialect: Dialect;
  /** A field's declared change (rename, retype, backfill, or several at once). */
  column(change: ColumnChange, target: ChangeTarget): PhaseSteps;
  /** `drop name` of a resource. */
  dropColumn(column: string, target: ChangeTarget): PhaseSteps;
  /** `drop resource name`. */
  dropTable(table: string, schema: string | null): PhaseSteps;
  /**
   * A declared index the live table lacks (`createIndex` is the DDL's own statement): the
   * backend's online form, and for a unique one a query answering duplicated values first
   * (`duplicates`: SELECT … returning the repeated values and their count, at most 5 rows).
   */
  index(createIndex: string, target: ChangeTarget): { steps: MigrationStep[]; duplicates: string | null };
  /**
   * PostgreSQL and MariaDB: the view through which the build reads and writes a table while
   * columns of it are retyped in place (`shadowed`, the fields whose shadow it shows, none for
   * a pass-through view), and its name (`schema.table`, lower-cased). SQLite, MySQL 8 and TiDB
   * have no such view: there the new build waits for contract (migrate/at-start.ts).
   */
  view?(target: ChangeTarget, shadowed: readonly string[]): { name: string; steps: MigrationStep[] };
  /**
   * MariaDB: the build's view database must hold a view of every table the build uses while a
   * retype in place is open, its connections' default database having no fallback (unlike
   * PostgreSQL's search_path, where only the retyped tables need one).
   */
  viewsOfEveryTable?: boolean;
}
