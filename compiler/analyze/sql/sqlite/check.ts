import BetterSqlite3 from "better-sqlite3";
import { sqlCodes } from "../../../diagnostics/codes/sql.js";
import { type Diagnostic, hasErrors } from "../../../diagnostics/diagnostic.js";
import type { ResourceModel } from "../../model/model.js";
import type { ResourceShape } from "../ddl/shared.js";
import { tableDdl } from "../ddl/sqlite.js";
import { type RejectedTable, type SqlCheckInput, type SqlCheckResult, type SqlChecker, describeOwner } from "../dialect.js";
import { bindParams, listItems } from "../params.js";
import { tableRefs } from "../refs.js";
import { spanIn } from "../span.js";
import { closest } from "../../../diagnostics/did-you-mean.js";
import { tokenize } from "../tokens.js";
import { resultColumns } from "./columns.js";
import { jsonValueFixes } from "./json-args.js";
import { intDivisions } from "./divisions.js";
import { errorMessage, makeContext, prepareError } from "./context.js";
import { prepareDiagnostic } from "./errors.js";
import { planWarnings } from "./plan.js";
import { standInFunctions } from "../portable.js";

// The SQLite checker: one in-memory database holding every declared table and index,
// made once per build; each check only prepares (never runs) the statement, so checking
// is fast and has no effect. Queries are then explained for the plan warnings.

/** Accepts resources with or without their DDL attached: the SQLite DDL is made here when missing. */
export type CheckedResource = ResourceShape & { ddl?: ResourceModel["ddl"] };

export function createSqliteChecker(resources: readonly CheckedResource[]): SqlChecker {
  const db = new BetterSqlite3(":memory:");
  // Never called: the checker only prepares. They let SQL written with another backend's
  // spelling of a JSON function prepare as written (the SQL run on SQLite has SQLite's).
  // better-sqlite3 takes a function's arity from its parameter count.
  const steps = [(_acc: unknown) => null, (_acc: unknown, _a: unknown) => null, (_acc: unknown, _a: unknown, _b: unknown) => null];
  for (const f of standInFunctions()) {
    if (f.aggregate) db.aggregate(f.name, { start: null, step: steps[f.args] as (acc: unknown, a: unknown) => null });
    else db.function(f.name, { varargs: true }, () => null);
  }
  const rejectedTables: RejectedTable[] = [];
  for (const r of resources) {
    const ddl = r.ddl?.sqlite ?? tableDdl(r);
    for (const sql of [ddl.createTable, ...ddl.createIndexes]) {
      const error = execError(db, sql);
      if (error !== null) {
        rejectedTables.push({ resource: r.name, message: error });
        break;
      }
    }
  }
  let open = true;
  return {
    dialect: "sqlite",
    rejectedTables,
    check(input) {
      if (!open) throw new Error("internal: the SQLite checker was used after dispose()");
      return check(db, resources, input);
    },
    dispose() {
      if (open) db.close();
      open = false;
    },
  };
}

function execError(db: BetterSqlite3.Database, sql: string): string | null {
  try {
    db.exec(sql);
    return null;
  } catch (e) {
    return errorMessage(e);
  }
}

function check(db: BetterSqlite3.Database, resources: readonly ResourceShape[], input: SqlCheckInput): SqlCheckResult {
  const { file, body, params, kind } = input;
  const where = describeOwner(input);
  const diagnostics: Diagnostic[] = [];
  const tokens = tokenize(body.text);
  const ctx = makeContext(db, input, where, resources, tokens, tableRefs(tokens));

  const declared = params.map((p) => p.name);
  for (const ref of body.params) {
    if (!declared.includes(ref.name)) {
      diagnostics.push(sqlCodes.unknownParam.at(file, ref.span, where, ref.name, closest(ref.name, declared), declared));
    }
  }
  const used = new Set(body.params.map((p) => p.name));
  for (const p of params) if (!used.has(p.name)) diagnostics.push(sqlCodes.unusedParam.at(file, body.span, where, p.name));
  for (const t of tokens) {
    if (t.kind === "param" && !t.text.startsWith("@")) {
      diagnostics.push(sqlCodes.foreignPlaceholder.at(file, spanIn(body, t.start, t.end), where, t.text));
    }
  }

  const bound = bindParams(body, undefined, listItems(params));
  const sql = bound.dialects.sqlite.text;
  let stmt: BetterSqlite3.Statement;
  try {
    stmt = db.prepare(sql);
  } catch (e) {
    // Diagnose from the SQL as written (SQLite takes `@name` too), so a message quotes the user's own tokens.
    const message = prepareError(db, body.text) ?? errorMessage(e);
    diagnostics.push(prepareDiagnostic(ctx, message));
    return { columns: [], rowResource: null, readonly: false, jsonValues: [], diagnostics };
  }
  const readonly = stmt.readonly;
  if (kind === "statement") return { columns: [], rowResource: null, readonly, jsonValues: [], diagnostics };

  if (!stmt.reader) {
    diagnostics.push(sqlCodes.queryReturnsNoRows.at(file, body.span, where));
    return { columns: [], rowResource: null, readonly, jsonValues: [], diagnostics };
  }
  if (!readonly) diagnostics.push(sqlCodes.queryWrites.at(file, body.span, where));
  const { diagnostics: annotations, ...shape } = resultColumns(ctx, stmt.columns());
  diagnostics.push(...annotations);
  // Rows are objects keyed by column name: a second `id` would silently overwrite the first.
  const names = shape.columns.map((c) => c.name);
  for (const name of new Set(names.filter((n, i) => names.indexOf(n) !== i))) {
    diagnostics.push(sqlCodes.duplicateColumn.at(file, body.span, where, name));
  }
  if (!hasErrors(diagnostics)) diagnostics.push(...planWarnings(ctx, sql, bound.dialects.sqlite.slots.length));
  return { ...shape, readonly, jsonValues: [...jsonValueFixes(ctx), ...intDivisions(ctx)], diagnostics };
}
