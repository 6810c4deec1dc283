import type { CheckResult } from "../../index.js";
import { type LiveBackend, liveDiagnostics, liveStatements } from "../../analyze/sql/live-check.js";
import type { LiveReport } from "../../analyze/sql/live.js";
import { dialectCodes as codes } from "../../diagnostics/codes/dialect.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { redactUrl } from "../../../runtime/db/net/url.js";

/** `svc check --db URL`: connects, asks the database about every statement (analyze/sql/live-check.ts). */
export async function checkAgainstDatabase(result: CheckResult, db: string, backend: LiveBackend): Promise<Diagnostic[]> {
  const model = result.model;
  if (model === null) return [];
  const asked = liveStatements(model, backend);
  const statements = asked.map(({ name, text, columns }) => ({ name, text, columns }));
  const tables = model.resources.map((r) => ({ name: r.name, ddl: r.ddl }));
  let report: LiveReport;
  try {
    // The drivers load only for `svc check --db`, not on every build.
    report =
      backend === "postgres"
        ? await (await import("../../analyze/sql/postgres/live.js")).livePostgres(db, tables, statements)
        : await (await import("../../analyze/sql/mysql/live.js")).liveMysql(db, tables, statements);
  } catch (err) {
    const message = redactUrl(err instanceof Error ? err.message : String(err));
    return [codes.liveUnreachable.at(redactUrl(db), null, redactUrl(db), message)];
  }
  return liveDiagnostics(model, backend, asked, report);
}
