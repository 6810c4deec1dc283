import type { CheckResult } from "../../index.js";
import { type LiveBackend, liveDiagnostics, liveStatements } from "../../analyze/sql/live-check.js";
import type { LiveReport } from "../../analyze/sql/live.js";
import { dialectCodes as codes } from "../../diagnostics/codes/dialect.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { schemaSpec, tableChanges } from "../../generate/table-changes.js";
import type { TableSpec } from "../../../runtime/contract/index.js";
import { redactUrl } from "../../../runtime/db/net/url.js";

export interface LiveCheck {
  diagnostics: Diagnostic[];
  /** Declared changes not complete on the database: the statements were checked as their plan leaves the tables. */
  pending: LiveReport["pending"];
}

/** `svc check --db URL`: connects, asks the database about every statement (analyze/sql/live-check.ts). */
export async function checkAgainstDatabase(result: CheckResult, db: string, backend: LiveBackend): Promise<LiveCheck> {
  const model = result.model;
  if (model === null) return { diagnostics: [], pending: [] };
  const asked = liveStatements(model, backend);
  const statements = asked.map(({ name, text, columns }) => ({ name, text, columns }));
  const tables: TableSpec[] = model.resources.map((r) => (r.changes ? { name: r.name, ddl: r.ddl, changes: tableChanges(r.changes) } : { name: r.name, ddl: r.ddl }));
  const schema = model.schema ? schemaSpec(model.schema) : undefined;
  let report: LiveReport;
  try {
    // The drivers load only for `svc check --db`, not on every build.
    report =
      backend === "postgres"
        ? await (await import("../../analyze/sql/postgres/live.js")).livePostgres(db, tables, statements, schema)
        : backend === "sqlite"
          ? await (await import("../../analyze/sql/sqlite/live.js")).liveSqlite(db, tables, statements, schema)
          : await (await import("../../analyze/sql/mysql/live.js")).liveMysql(db, tables, statements, schema);
  } catch (err) {
    const message = redactUrl(err instanceof Error ? err.message : String(err));
    return { diagnostics: [codes.liveUnreachable.at(redactUrl(db), null, redactUrl(db), message)], pending: [] };
  }
  return { diagnostics: liveDiagnostics(model, backend, asked, report), pending: report.pending };
}

/** The line `svc check --db` prints about declared changes the database has not completed; null when none. */
export function pendingLine(pending: LiveCheck["pending"], db: string): string | null {
  if (pending.length === 0) return null;
  const n = pending.length;
  return (
    `svc check: ${n} declared change${n === 1 ? "" : "s"} not complete on ${redactUrl(db)}, checked as done: ` +
    `${pending.map((p) => `${p.change} (${p.status})`).join(", ")}; \`svc migrate plan --db …\` shows the steps`
  );
}
