import BetterSqlite3 from "better-sqlite3";
import type { SchemaSpec, TableSpec } from "../../../../runtime/contract/index.js";
import { sqlitePath } from "../../../../runtime/db/index.js";
import { migrateSqlitePhase } from "../../../../runtime/db/sqlite/migrate.js";
import type { LiveAnswer, LiveReport, LiveStatement } from "../live.js";
import { schemaFindings, standIns } from "../live-plan.js";

// `svc check --db <SQLite file>`: the start-up migration's plan run in its transaction (the
// tables a server would create, created; the columns it would add, added; a table a declared
// change reshapes stood in for by a TEMPORARY table, which SQLite looks up before the file's
// own), every statement prepared there (never run), then all of it rolled back. The file must
// exist: a check never creates one.

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export async function liveSqlite(
  db: string,
  tables: readonly TableSpec[],
  statements: readonly LiveStatement[],
  schema?: SchemaSpec,
): Promise<LiveReport> {
  const file = new BetterSqlite3(sqlitePath(db), { fileMustExist: true, timeout: 5000 });
  const report: LiveReport = { schema: [], statements: [], pending: [] };
  try {
    await migrateSqlitePhase(file, tables, schema, {
      phase: "plan",
      lockTimeoutMs: 5000,
      beforeRollback: ({ additive, evolve }) => {
        Object.assign(report, schemaFindings(additive, evolve));
        const live = new Map(
          tables.map((t) => [t.name.toLowerCase(), file.prepare(`PRAGMA table_info(${q(t.name)})`).all() as { name: string }[]]),
        );
        for (const [, list] of standIns("sqlite", tables, live, additive, evolve, q, (t) => `temp.${q(t)}`)) {
          for (const statement of list) {
            // SQLite refuses to drop a column a UNIQUE or key constraint names: it then stays, and
            // only the statements' names are checked against it.
            try {
              file.exec(statement);
            } catch (err) {
              if (statement.startsWith("CREATE")) throw err;
            }
          }
        }
        for (const s of statements) report.statements.push(prepare(file, s));
      },
    });
  } finally {
    file.close();
  }
  return report;
}

function prepare(file: BetterSqlite3.Database, s: LiveStatement): LiveAnswer {
  try {
    const statement = file.prepare(s.text);
    const columns = statement.reader ? statement.columns().map((c) => ({ name: c.name, type: "other" as const, typeName: c.type ?? "any" })) : [];
    return { name: s.name, error: null, columns };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { name: s.name, error: { message, offset: offsetOf(s.text, message) }, columns: [] };
  }
}

/** Where SQLite's message points (`no such column: due`, `near "x": syntax error`), as a place in `text`. */
function offsetOf(text: string, message: string): number | null {
  const m = /^(?:no such (?:column|table): (?:\w+\.)?|near ")(\S+?)"?(?::|$)/.exec(message);
  if (m === null) return null;
  const at = new RegExp(`(^|[^A-Za-z0-9_$])"?${m[1]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"?(?![A-Za-z0-9_$])`, "i").exec(text);
  return at === null ? null : at.index + at[1]!.length;
}
