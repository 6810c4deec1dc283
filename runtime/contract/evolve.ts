// Schema changes beyond additive (docs/migrations.md): what the compiler hands the runtime about
// a resource whose declaration says how it changed, and the plan the runtime makes of it. The
// compiler checks and translates every expression at build time; the runtime only compares the
// declarations with the live schema and the history table, and runs the steps.

import type { Dialect } from "./server.js";

/**
 * A SQL expression written once per backend, in which a column of the row it is computed from
 * is written `{name}` (the compiler replaces only identifier tokens, never text in strings).
 * The runtime fills each `{name}` with the column as the step needs it: `"name"` in a backfill's
 * UPDATE, `NEW."name"` in a trigger.
 */
export type RowExpression = Record<Dialect, string>;

/** One field's declared change (`renamed from`, `changed from … using … back …`, `backfill`). */
export interface ColumnChange {
  /** The field's declared (new) name: the column once the change is complete. */
  column: string;
  /** `renamed from old`: the column the live table has under its old name. */
  renamedFrom?: string;
  /** `changed from T`: the column's type before, and how values convert both ways. */
  retype?: {
    /** The old column type as each backend's DDL writes it (what `information_schema` reports, lower-cased, in `reported`). */
    from: Record<Dialect, { declared: string; reported: string }>;
    /** Old value → new, over the old column (`{old}` names it, under its old name). */
    up: RowExpression;
    /** New value → old, for servers of the older build while both run; over the new column. */
    down: RowExpression;
    /** Declared `lossy`: some values may not survive the conversion; the plan says so. */
    lossy: boolean;
  };
  /** `backfill …`: the field was nullable and is now required; rows holding NULL get this. */
  backfill?: RowExpression;
}

/** What a resource declares beyond its fields: how its table changes. */
export interface TableChanges {
  /** One entry per field that declares a change, in declaration order. */
  columns: ColumnChange[];
  /** `drop name`: columns dropped with their data, in declaration order. */
  dropColumns: string[];
}

/** What a build declares about its schema as a whole (ServerSpec.schema). */
export interface SchemaSpec {
  /** This build's schema, as a short stable hash of every table's DDL and changes: the history table's `build`. */
  build: string;
  /** `drop resource name`: tables dropped with their data. */
  dropTables: string[];
}

/** When a step runs: `expand` keeps the old build correct; `contract` removes what only it used. */
export type Phase = "expand" | "contract";

/** One statement of a plan, with what it costs the servers running while it does. */
export interface MigrationStep {
  /** The history table's name for the change the step belongs to, e.g. `task.headline renamed from title`. */
  change: string;
  phase: Phase;
  /** What the step does, in a few words: `add column headline`. */
  describe: string;
  sql: string;
  /** Run again until it changes no row: a backfill batch, each in a transaction of its own. */
  repeat?: true;
  /** Reads and writes of the table go on while it runs. */
  online: boolean;
  /** The lock taken, in the backend's words: `ACCESS EXCLUSIVE (brief: catalog only)`. */
  locks: string;
  /** Data is lost: a dropped column or table, or a conversion declared `lossy`. */
  lossy: boolean;
  /** May run inside a transaction (PostgreSQL's CREATE INDEX CONCURRENTLY may not). */
  transactional: boolean;
}

export interface MigrationPlanSteps {
  expand: MigrationStep[];
  contract: MigrationStep[];
  /** Differences no declaration explains, each naming the declaration to add; nothing runs while any. */
  problems: string[];
}
