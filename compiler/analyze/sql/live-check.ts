import { dialectCodes as codes } from "../../diagnostics/codes/dialect.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { Span } from "../../parse/ast.js";
import type { ColumnModel, Model, SourceRef, SqlModel, SqlSourceRef, StatementModel } from "../model/model.js";
import { type LiveReport, type LiveStatement, compatible, sourceOffset } from "./live.js";
import { spanInText } from "./span.js";

// `svc check --db URL`: every statement the server would run is prepared and described by
// the live database (never run), and what it says is reported at the statement's place
// in its .svc file, as the model records it: a refused statement where the database
// points (PostgreSQL gives a position; for MySQL the quoted text of its message is looked
// up), result columns that differ from what svc typed, and tables the server would refuse
// to start on.

export type LiveBackend = "postgres" | "mysql" | "tidb" | "sqlite";

/** One statement to ask about, and what a finding about it says and where. */
interface Asked extends LiveStatement {
  where: string;
  at: SourceRef | SqlSourceRef;
  sql: SqlModel;
  /** The returning read of a dialect without RETURNING: findings point at the whole statement. */
  returning: boolean;
}

/** Every statement the server would prepare on `backend`, in the model's order. */
export function liveStatements(model: Model, backend: LiveBackend): Asked[] {
  const dialect = backend === "postgres" || backend === "sqlite" ? backend : "mysql";
  const out: Asked[] = [];
  for (const q of model.queries) {
    const text = q.sql.dialects[dialect]?.text;
    if (text === undefined) continue;
    out.push({ name: `${q.module}.${q.name}`, text, columns: q.columns, where: `query \`${q.name}\``, at: q.at, sql: q.sql, returning: false });
  }
  for (const s of model.statements) {
    const sql = s.sql.dialects[dialect];
    if (sql === undefined) continue;
    const where = describe(s);
    out.push({ name: s.name, text: sql.text, columns: null, where, at: s.at, sql: s.sql, returning: false });
    if (sql.returning) {
      const text = sql.returning.text;
      out.push({ name: `${s.name}#returning`, text, columns: null, where: `${where} (its returning read)`, at: s.at, sql: s.sql, returning: true });
    }
  }
  return out;
}

function describe(s: StatementModel): string {
  return s.owner.kind === "sql" ? `the \`sql { … }\` of action \`${s.owner.action}\`` : `record operation \`${s.name}\``;
}

/** What the live database said, as diagnostics at the places the model records. */
export function liveDiagnostics(model: Model, backend: LiveBackend, asked: readonly Asked[], report: LiveReport): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { table, problem } of report.schema) {
    const at = model.resources.find((r) => r.name === table)?.at;
    out.push(codes.liveSchema.at(at?.file ?? "svc.toml", at?.span ?? null, table, problem.replace(/^table \S+: /, "")));
  }
  const backendName = backend === "postgres" ? "PostgreSQL" : backend === "tidb" ? "TiDB" : backend === "sqlite" ? "SQLite" : "MySQL";
  const byName = new Map(asked.map((a) => [a.name, a]));
  for (const answer of report.statements) {
    const a = byName.get(answer.name);
    if (a === undefined) continue;
    if (answer.error !== null) {
      out.push(codes.liveStatement.at(a.at.file, errorSpan(a, answer.error.offset, model.resources), a.where, backendName, answer.error.message));
      continue;
    }
    if (a.columns === null || a.columns.length === 0) continue;
    const expected = a.columns.map((c) => c.name);
    const live = answer.columns.map((c) => c.name);
    if (expected.join("\u0000") !== live.join("\u0000")) {
      out.push(codes.liveColumns.at(a.at.file, a.at.span, a.where, expected, live));
      continue;
    }
    // SQLite's columns have affinities, not types: the build's SQLite checker typed them already.
    if (backend === "sqlite") continue;
    a.columns.forEach((c: ColumnModel, i) => {
      const l = answer.columns[i];
      if (!compatible(c.type, l.type)) out.push(codes.liveColumnType.at(a.at.file, a.at.span, a.where, c.name, c.type, l.typeName));
    });
  }
  return out;
}

/** Where the database pointed, mapped back into the .svc file; the whole statement when it did not say. */
function errorSpan(a: Asked, offset: number | null, tables: Model["resources"]): Span {
  if (!("text" in a.at) || offset === null || a.returning) return a.at.span;
  const sql = { text: a.sql.source, ...a.at.text };
  const at = sourceOffset(sql, a.text, offset, a.sql.jsonValues, tables);
  const rest = sql.text.slice(at);
  const length = /^[A-Za-z0-9_$@"`]+/.exec(rest)?.[0].length ?? 1;
  return spanInText(sql, at, at + length);
}
