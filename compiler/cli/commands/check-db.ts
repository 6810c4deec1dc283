import type { CheckResult } from "../../index.js";
import type { ColumnModel, Dialect, SqlModel } from "../../analyze/model.js";
import { type LiveReport, type LiveStatement, compatible, sourceOffset } from "../../analyze/sql/live.js";
import { spanIn } from "../../analyze/sql/span.js";
import { dialectCodes as codes } from "../../diagnostics/codes/dialect.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { IfStmt, SqlBody, Span, Stmt } from "../../parse/ast.js";
import { parseModule } from "../../parse/index.js";
import { redactUrl } from "../../../runtime/db/net-url.js";

// `svc check --db URL`: after the static checks, every statement the server would run is
// prepared and described by the live database (never run), and what it says is reported
// at the statement's place in its .svc file: a refused statement where the database
// points (PostgreSQL gives a position; for MySQL the quoted text of its message is looked
// up), result columns that differ from what svc typed, and tables the server would refuse
// to start on.

type NetBackend = "postgres" | "mysql" | "tidb";

interface Place {
  file: string;
  body: SqlBody | null;
  /** The declaration's name (a query's, a resource's) or the `sql { … }` block: where a whole-statement finding points. */
  span: Span;
}

export async function checkAgainstDatabase(
  result: CheckResult,
  db: string,
  backend: NetBackend,
): Promise<Diagnostic[]> {
  const model = result.model;
  if (model === null) return [];
  const dialect: Exclude<Dialect, "sqlite"> = backend === "postgres" ? "postgres" : "mysql";
  const places = placesOf(result);
  const statements: LiveStatement[] = [];
  const owner = new Map<
    string,
    { where: string; place: Place | undefined; columns: ColumnModel[] | null; values?: SqlModel["jsonValues"] }
  >();
  const add = (
    name: string,
    where: string,
    text: string | undefined,
    columns: ColumnModel[] | null,
    place: Place | undefined,
    values?: SqlModel["jsonValues"],
  ) => {
    if (text === undefined) return;
    statements.push({ name, text, columns });
    owner.set(name, { where, place, columns, values });
  };
  for (const q of model.queries) {
    const name = `${q.module}.${q.name}`;
    add(name, `query \`${q.name}\``, q.sql.dialects[dialect]?.text, q.columns, places.get(name), q.sql.jsonValues);
  }
  for (const s of model.statements) {
    const sql = s.sql.dialects[dialect];
    const where = s.name.includes(".sql")
      ? `the \`sql { … }\` of action \`${s.name.split(".")[1]}\``
      : `record operation \`${s.name}\``;
    const place = places.get(s.name) ?? places.get(`resource:${s.name.split(".")[0]}`);
    add(s.name, where, sql?.text, null, place);
    if (sql?.returning) add(`${s.name}#returning`, `${where} (its returning read)`, sql.returning.text, null, place);
  }

  let report: LiveReport;
  try {
    const tables = model.resources.map((r) => ({ name: r.name, ddl: r.ddl }));
    // The drivers load only for `svc check --db`, not on every build.
    report =
      dialect === "postgres"
        ? await (await import("../../analyze/sql/postgres/live.js")).livePostgres(db, tables, statements)
        : await (await import("../../analyze/sql/mysql/live.js")).liveMysql(db, tables, statements);
  } catch (err) {
    return [
      codes.liveUnreachable.at(
        redactUrl(db),
        null,
        redactUrl(db),
        redactUrl(err instanceof Error ? err.message : String(err)),
      ),
    ];
  }

  const out: Diagnostic[] = [];
  for (const { table, problem } of report.schema) {
    const place = places.get(`resource:${table}`);
    out.push(
      codes.liveSchema.at(place?.file ?? "svc.toml", place?.span ?? null, table, problem.replace(/^table \S+: /, "")),
    );
  }
  const backendName = backend === "postgres" ? "PostgreSQL" : backend === "tidb" ? "TiDB" : "MySQL";
  for (const answer of report.statements) {
    const o = owner.get(answer.name);
    if (o === undefined) continue;
    const file = o.place?.file ?? "svc.toml";
    if (answer.error !== null) {
      out.push(
        codes.liveStatement.at(
          file,
          errorSpan(o.place, statements, answer.name, answer.error.offset, o.values),
          o.where,
          backendName,
          answer.error.message,
        ),
      );
      continue;
    }
    if (o.columns === null || o.columns.length === 0) continue;
    const expected = o.columns.map((c) => c.name);
    const live = answer.columns.map((c) => c.name);
    if (expected.join("\u0000") !== live.join("\u0000")) {
      out.push(codes.liveColumns.at(file, o.place?.span ?? null, o.where, expected, live));
      continue;
    }
    o.columns.forEach((c, i) => {
      const l = answer.columns[i];
      if (!compatible(c.type, l.type))
        out.push(codes.liveColumnType.at(file, o.place?.span ?? null, o.where, c.name, c.type, l.typeName));
    });
  }
  return out;
}

/** Where the database pointed, mapped back into the .svc file; the whole SQL when it did not say. */
function errorSpan(
  place: Place | undefined,
  statements: readonly LiveStatement[],
  name: string,
  offset: number | null,
  values: SqlModel["jsonValues"],
): Span | null {
  if (place === undefined) return null;
  if (place.body === null || offset === null || name.endsWith("#returning")) return place.span;
  const sent = statements.find((s) => s.name === name)?.text ?? "";
  const at = sourceOffset(place.body, sent, offset, values);
  const rest = place.body.text.slice(at);
  const length = /^[A-Za-z0-9_$@"`]+/.exec(rest)?.[0].length ?? 1;
  return spanIn(place.body, at, at + length);
}

/**
 * Each query's and each `sql { … }` block's SQL body, and each resource's name, read
 * again from the sources (the model keeps no positions). `sql { … }` blocks are numbered
 * per action in the order the analyzer numbers them: statements in order, `then` before `else`.
 */
function placesOf(result: CheckResult): Map<string, Place> {
  const places = new Map<string, Place>();
  for (const [path, text] of result.sources) {
    if (!path.endsWith(".svc") || path.endsWith("route.svc")) continue;
    const ast = parseModule(path, text).ast;
    const module = ast.module?.name;
    if (module === undefined) continue;
    for (const decl of ast.decls) {
      if (decl.kind === "Resource")
        places.set(`resource:${decl.name.name}`, { file: path, body: null, span: decl.name.span });
      else if (decl.kind === "Query")
        places.set(`${module}.${decl.name.name}`, { file: path, body: decl.sql, span: decl.name.span });
      else if (decl.kind === "Action") {
        let n = 0;
        const visit = (stmts: readonly Stmt[]) => {
          for (const s of stmts) {
            if (s.kind === "SqlStmt")
              places.set(`${module}.${decl.name.name}.sql${++n}`, { file: path, body: s.sql, span: s.span });
            else if (s.kind === "If") visitIf(s);
          }
        };
        const visitIf = (s: IfStmt) => {
          visit(s.then.stmts);
          if (s.else?.kind === "Block") visit(s.else.stmts);
          else if (s.else) visitIf(s.else);
        };
        visit(decl.body.stmts);
      }
    }
  }
  return places;
}
