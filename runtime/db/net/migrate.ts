// The schema check shared by the postgres and mysql adapters (docs/language.md §2.1), the same
// rules as sqlite/migrate.ts: a missing table is created, a missing column is added when
// it is nullable or has a default, and any other difference (a column dropped, renamed,
// retyped, or its nullability changed) stops the server with a message naming the table
// and the column. Nothing is dropped, renamed or retyped. The adapters read the live
// columns from information_schema and apply the plan under a lock of their database, so
// several servers starting at once make the changes once.

import { StartupError } from "../../core/errors.js";
import { keyProblems } from "../../keys/index.js";
import type { TableColumnDdl, TableDdl, TableSpec } from "../../contract/index.js";

export interface LiveColumn {
  name: string;
  /** As information_schema reports it (`data_type`), lower-cased. */
  type: string;
  nullable: boolean;
  /** Its place in the primary key, from 1; 0 when not in it; absent when the key was not read. */
  keyPosition?: number;
  /** The database numbers it (an identity, serial or AUTO_INCREMENT column). */
  numbered?: boolean;
}

export interface DeclaredTable {
  name: string;
  ddl: TableDdl;
}

export interface MigrationPlan {
  /** Tables to create (their CREATE TABLE, then their indexes). */
  create: DeclaredTable[];
  /** Columns to add to existing tables, in declaration order. */
  add: { table: string; column: TableColumnDdl }[];
  /** Differences refused; when any, nothing of the plan may run. */
  problems: string[];
}

/** Every table's DDL for `dialect`; a table built without it means the server was built for another backend. */
export function declaredTables(tables: readonly TableSpec[], dialect: "postgres" | "mysql"): DeclaredTable[] {
  return tables.map((table) => {
    const ddl = table.ddl[dialect];
    if (ddl === undefined) {
      throw new StartupError("SVC_ERR_MIGRATION", `table ${table.name} has no ${dialect} DDL; rebuild the server with this svc version`);
    }
    return { name: table.name, ddl };
  });
}

/**
 * Compares the declared tables with the live ones (`live`: lower-cased table name → its
 * columns; a table absent from the map does not exist). `sameType` says whether a live
 * type is the one declared.
 */
export function planMigration(
  tables: readonly DeclaredTable[],
  live: ReadonlyMap<string, readonly LiveColumn[]>,
  sameType: (live: string, declared: string) => boolean,
  owned: (table: string) => ReadonlySet<string> = () => new Set(),
): MigrationPlan {
  const plan: MigrationPlan = { create: [], add: [], problems: [] };
  for (const table of tables) {
    const columns = live.get(table.name.toLowerCase());
    if (columns === undefined || columns.length === 0) {
      plan.create.push(table);
      continue;
    }
    const byName = new Map(columns.map((c) => [c.name.toLowerCase(), c]));
    // Columns a declared change (or an open one of a newer build) is changing are the planner's (runtime/migrate).
    const theirs = owned(table.name);
    for (const column of table.ddl.columns) {
      if (theirs.has(column.name.toLowerCase())) continue;
      const have = byName.get(column.name.toLowerCase());
      if (have === undefined) {
        if (column.nullable || column.hasDefault) plan.add.push({ table: table.name, column });
        else {
          plan.problems.push(
            `table ${table.name}: column ${column.name} is declared NOT NULL without a default, so it cannot be added to the existing rows; make it nullable or give it a default`,
          );
        }
        continue;
      }
      if (!sameType(have.type, column.sqlType.toLowerCase())) {
        plan.problems.push(
          `table ${table.name}: column ${column.name} is ${have.type} in the database but declared ${column.sqlType}; add \`changed from <its old type>\` on the field (with \`using (…) lossy\` when the conversion narrows)`,
        );
      }
      if (have.nullable !== column.nullable) {
        plan.problems.push(
          `table ${table.name}: column ${column.name} is ${have.nullable ? "nullable" : "NOT NULL"} in the database but declared ${column.nullable ? "nullable" : "NOT NULL"}` +
            (have.nullable ? `; add \`backfill <value>\` on the field to fill the NULL rows` : ""),
        );
      }
    }
    // The key is compared when the reader of the live schema reported it (both adapters do).
    if (columns.some((c) => c.keyPosition !== undefined)) {
      const key = columns.filter((c) => (c.keyPosition ?? 0) > 0).sort((a, b) => a.keyPosition! - b.keyPosition!);
      const liveKey = { columns: key.map((c) => c.name), identity: columns.find((c) => c.numbered)?.name ?? null };
      plan.problems.push(...keyProblems(table.name, table.ddl, liveKey));
    }
    const declared = new Set(table.ddl.columns.map((c) => c.name.toLowerCase()));
    for (const column of columns) {
      if (!declared.has(column.name.toLowerCase()) && !theirs.has(column.name.toLowerCase())) {
        plan.problems.push(
          `table ${table.name}: column ${column.name} is in the database but not declared; add \`drop ${column.name}\` to drop it with its data, or \`renamed from ${column.name}\` on the field that replaces it`,
        );
      }
    }
  }
  return plan;
}

export function mismatchError(problems: readonly string[]): StartupError {
  return new StartupError(
    "SVC_ERR_MIGRATION",
    "the database does not match the declared resources, and no data is dropped implicitly:\n" +
      problems.map((p) => `  - ${p}`).join("\n") +
      "\ndeclare the change (docs/migrations.md) or restore the declaration, then start again",
  );
}

/** Runs one DDL statement; a failure names the table and shows the statement. */
export async function execDdl(run: (sql: string) => Promise<unknown>, sql: string, what: string): Promise<void> {
  try {
    await run(sql);
  } catch (err) {
    throw new StartupError("SVC_ERR_MIGRATION", `${what}: ${(err as Error).message}\n  ${sql}`);
  }
}
