import { evolveCodes as codes } from "../../diagnostics/codes/evolve.js";
import type { FieldChange, FieldDecl, ResourceDecl, Span, SqlBody, TypeRef } from "../../parse/ast.js";
import type { Backend, ColumnChangeModel, Dialect, FieldModel, RowExpression, ScalarType, TableChangesModel } from "../model/model.js";
import type { Reporter } from "../shared/context.js";
import { convert, isWidening } from "../sql/ddl/conversions.js";
import { mysqlRules } from "../sql/ddl/mysql.js";
import { postgresRules } from "../sql/ddl/postgres.js";
import { type ResourceShape, type Rules, renderLiteral } from "../sql/ddl/shared.js";
import { sqliteRules } from "../sql/ddl/sqlite.js";
import { checkRowExpression, rowExpression } from "../sql/row-expression.js";
import { spanIn } from "../sql/span.js";
import { tokenize } from "../sql/tokens.js";
import { literalDefault, resolveType } from "./resource.js";
import { expectedLiteral } from "./resource.js";

// A resource's declared changes (docs/language.md §2.1, Changing a resource): each checked
// against the resource's own declarations, its SQL checked by SQLite against the table as the
// expression sees it, and everything the runtime needs (runtime/contract/evolve.ts) made here,
// per dialect. Whether the live database agrees is the runtime's question (svc migrate plan).

const RULES: Record<Dialect, Rules> = { sqlite: sqliteRules, postgres: postgresRules, mysql: mysqlRules };
const DIALECTS: readonly Dialect[] = ["sqlite", "postgres", "mysql"];

type Typed = Pick<FieldModel, "type" | "enumValues">;

/** The resource's changes; undefined when it declares none (or none survives its errors). */
export function analyzeChanges(decl: ResourceDecl, shape: ResourceShape, file: string, r: Reporter): TableChangesModel | undefined {
  const declared = new Set(decl.fields.map((f) => f.name.name));
  /** Old column names claimed by a rename or a drop, with what claimed them. */
  const claimed = new Map<string, string>();
  const columns: ColumnChangeModel[] = [];
  const seen = new Set<string>();
  for (const f of decl.fields) {
    // A field declared twice was reported (SVC2008): only its first declaration counts.
    const first = !seen.has(f.name.name);
    seen.add(f.name.name);
    const field = shape.fields.find((x) => x.name === f.name.name);
    if (!f.change || !field || !first) continue;
    const change = fieldChange(f, f.change, field, { decl, shape, declared, claimed, file, r });
    if (change) columns.push(change);
  }
  const dropColumns: TableChangesModel["dropColumns"] = [];
  for (const d of decl.drops ?? []) {
    const name = d.name.name;
    if (declared.has(name)) {
      r.add(codes.dropDeclaredField.at(file, d.name.span, name, decl.name.name));
    } else if (dropColumns.some((x) => x.name === name)) {
      r.add(codes.droppedTwice.at(file, d.name.span, `column \`${name}\``));
    } else if (claimed.has(name)) {
      r.add(codes.oldNameTwice.at(file, d.name.span, name, `${claimed.get(name)} and dropped`));
    } else {
      dropColumns.push({ name, at: { file, span: d.span } });
    }
  }
  return columns.length > 0 || dropColumns.length > 0 ? { columns, dropColumns } : undefined;
}

const SERIAL_BACKENDS: Partial<Record<Backend, string>> = { tidb: "TiDB", sqlite: "SQLite" };

/**
 * SVC8122 for each field retyped in place when the project's backend cannot show the new build
 * the new type beside the old build's (PostgreSQL's search_path, MariaDB's default database,
 * each onto views): the new build refuses to start until the old build is stopped and the
 * change completed (runtime/migrate/at-start.ts), which the deploy must plan for. Backend
 * `mysql` is MariaDB here: MySQL 8 runs no column change at all. A retype with a rename has a
 * column of its own and runs side by side everywhere.
 */
export function warnRetypesInPlace(changes: TableChangesModel, backend: Backend | undefined, r: Reporter): void {
  const name = backend === undefined ? undefined : SERIAL_BACKENDS[backend];
  if (name === undefined) return;
  for (const c of changes.columns) {
    if (c.retype !== undefined && c.renamedFrom === undefined) r.add(codes.retypeNotSideBySide.at(c.at.file, c.at.span, c.column, name));
  }
}

interface Scope {
  decl: ResourceDecl;
  shape: ResourceShape;
  declared: ReadonlySet<string>;
  claimed: Map<string, string>;
  file: string;
  r: Reporter;
}

function fieldChange(f: FieldDecl, c: FieldChange, field: FieldModel, s: Scope): ColumnChangeModel | null {
  const { file, r } = s;
  const name = field.name;
  const resource = s.decl.name.name;
  const isKey = s.shape.primaryKey.includes(name);
  let ok = true;
  const out: ColumnChangeModel = { column: name, keys: [], at: { file, span: f.name.span } };

  if (c.renamedFrom) {
    const old = c.renamedFrom.name;
    if (isKey) {
      r.add(codes.keyFieldChange.at(file, c.renamedFrom.span, name, `renamed from \`${old}\``));
      ok = false;
    } else if (old === name) {
      r.add(codes.renamedFromDeclared.at(file, c.renamedFrom.span, name, old, "its own name"));
      ok = false;
    } else if (s.declared.has(old)) {
      r.add(codes.renamedFromDeclared.at(file, c.renamedFrom.span, name, old, `a field \`${resource}\` still declares`));
      ok = false;
    } else if (s.claimed.has(old)) {
      r.add(codes.oldNameTwice.at(file, c.renamedFrom.span, old, `${s.claimed.get(old)} and renamed to \`${name}\``));
      ok = false;
    } else {
      s.claimed.set(old, `renamed to \`${name}\``);
      out.renamedFrom = old;
      out.keys.push(`${resource}.${name} renamed from ${old}`);
    }
  }

  if (!c.changedFrom) {
    for (const [clause, at] of [["using", c.using?.span], ["back", c.back?.span], ["lossy", c.lossy]] as const) {
      if (at) {
        r.add(codes.needsChangedFrom.at(file, at, clause, name));
        ok = false;
      }
    }
  } else {
    const retype = retypeOf(f, c, c.changedFrom, field, isKey, out.renamedFrom ?? name, s);
    if (retype === null) ok = false;
    else {
      out.retype = retype;
      out.keys.push(`${resource}.${name} changed from ${typeText(c.changedFrom)}`);
    }
  }

  if (c.backfill) {
    const backfill = backfillOf(c.backfill, field, isKey, s);
    if (backfill === null) ok = false;
    else {
      out.backfill = backfill;
      out.keys.push(`${resource}.${name} backfill`);
    }
  }
  return ok && out.keys.length > 0 ? out : null;
}

function retypeOf(
  f: FieldDecl,
  c: FieldChange,
  written: TypeRef,
  field: FieldModel,
  isKey: boolean,
  oldName: string,
  s: Scope,
): ColumnChangeModel["retype"] | null {
  const { file, r } = s;
  const name = field.name;
  if (isKey) {
    r.add(codes.keyFieldChange.at(file, written.span, name, `changed from ${typeText(written)}`));
    return null;
  }
  if (written.nullable) {
    r.add(codes.changedFromNullable.at(file, written.span, name, typeText(written)));
    return null;
  }
  const resolved = resolveType(written, file, r);
  if (!resolved) return null;
  const from: Typed = resolved;
  const sameType = from.type === field.type && (from.type !== "enum" || sameValues(from.enumValues, field.enumValues));
  if (sameType || (field.password && from.type === "text")) {
    r.add(codes.changedFromSameType.at(file, written.span, name, typeText(written)));
    return null;
  }
  const widening = isWidening(from, field);
  const newType = typeText(f.type);
  if (!widening && !c.using) {
    r.add(codes.narrowingWithoutUsing.at(file, written.span, name, typeText(written), newType));
    return null;
  }
  if (!widening && !c.lossy) {
    r.add(codes.narrowingWithoutLossy.at(file, c.using!.span, name, typeText(written), newType));
    return null;
  }
  const { password: _password, ...plain } = field;
  const oldField: FieldModel = { ...plain, name: oldName, type: from.type, enumValues: from.enumValues, default: null };
  const oldTable = withField(s.shape, field.name, oldField);
  const up = c.using ? rowSql(c.using, "using", name, oldTable, field, s) : convert(oldName, from, field);
  // Without `back`: the guarded reverse of a widening cast, or (after a `using` that narrows)
  // the widening cast back to the old type; where neither exists the old build reads NULL.
  const down = c.back
    ? rowSql(c.back, "back", name, s.shape, from, s)
    : isWidening(from, field) || isWidening(field, from)
      ? convert(name, field, from)
      : nulls();
  if (up === null || down === null) return null;
  const declared = Object.fromEntries(DIALECTS.map((d) => [d, RULES[d].columnType(oldField, false)])) as Record<Dialect, { declared: string; reported: string }>;
  return { from: declared, up, down, lossy: c.lossy !== undefined };
}

/** What the runtime fills with a column (runtime/contract/evolve.ts RowExpression). */
const BRACED_NAME = /\{[A-Za-z_][A-Za-z0-9_]*\}/;

function nulls(): RowExpression {
  return { sqlite: "NULL", postgres: "NULL", mysql: "NULL" };
}

function backfillOf(b: NonNullable<FieldChange["backfill"]>, field: FieldModel, isKey: boolean, s: Scope): RowExpression | null {
  const { file, r } = s;
  if (isKey) {
    r.add(codes.backfillOnKey.at(file, b.span, field.name));
    return null;
  }
  if (field.nullable) {
    r.add(codes.backfillOnNullable.at(file, b.span, field.name));
    return null;
  }
  if ("sql" in b) {
    // The row's other columns: the field itself holds the NULL being replaced.
    const others = { ...s.shape, fields: s.shape.fields.filter((f) => f.name !== field.name), indexes: [] };
    return rowSql(b.sql, "backfill", field.name, others, field, s);
  }
  const value = literalDefault({ ...field, nullable: false }, b.value);
  if (value === undefined || value === null) {
    r.add(codes.backfillLiteral.at(file, b.value.span, field.name, expectedLiteral(field, false)));
    return null;
  }
  if (BRACED_NAME.test(JSON.stringify(value))) {
    r.add(codes.braceNameInString.at(file, b.value.span, `the backfill of field \`${field.name}\``));
    return null;
  }
  return Object.fromEntries(
    DIALECTS.map((d) => [d, field.type === "json" ? RULES[d].quoteString(JSON.stringify(value)) : renderLiteral(field, value as string | number | boolean, RULES[d])]),
  ) as RowExpression;
}

/** An expression of `using`/`back`/`backfill (…)` checked against `table`, yielding `target`'s type. */
function rowSql(body: SqlBody, clause: string, field: string, table: ResourceShape, target: Typed, s: Scope): RowExpression | null {
  const { file, r } = s;
  if (body.params.length > 0) {
    for (const p of body.params) r.add(codes.paramInRowExpression.at(file, p.span, p.name));
    return null;
  }
  for (const t of tokenize(body.text)) {
    if ((t.kind === "string" || t.kind === "quoted") && BRACED_NAME.test(t.text)) {
      r.add(codes.braceNameInString.at(file, spanIn(body, t.start, t.end), `the \`${clause}\` SQL of field \`${field}\``));
      return null;
    }
  }
  const check = checkRowExpression(file, body, table);
  if (check.errors.length > 0) {
    for (const e of check.errors) {
      const message = e.message.split(`query \`${table.name}\``).join("the expression");
      const d = codes.changeSqlRefused.at(file, within(e.span, body), clause, field, message);
      // The checker's own hint (a column's likely name) comes first.
      if (e.hint) d.hint = d.hint ? `${e.hint}; ${d.hint}` : e.hint;
      r.add(d);
    }
    return null;
  }
  if (!fits(check.type, target.type)) {
    r.add(codes.changeSqlType.at(file, body.span, clause, field, check.type, target.type));
    return null;
  }
  return rowExpression(body.text, table.name, table.fields.map((f) => f.name), check.divisions);
}

/** The checker's place for an error, or the whole `(…)` when it points past the expression (an empty one, an operator at its end). */
function within(span: Span | null | undefined, body: SqlBody): Span {
  if (span && span.start.offset >= body.span.start.offset && span.end.offset <= body.span.end.offset) return span;
  const { start, end } = body.span;
  return { start: { ...start, offset: start.offset - 1, column: start.column - 1 }, end: { ...end, offset: end.offset + 1, column: end.column + 1 } };
}

/** Whether an expression of type `found` may be stored in a column of type `target` (SQLite's reading of its type). */
function fits(found: ScalarType | "unknown", target: ScalarType): boolean {
  if (found === "unknown" || found === target || target === "json") return true;
  switch (target) {
    case "float":
      return found === "int";
    case "text":
    case "id":
    case "enum":
      return found === "text" || found === "enum" || found === "id";
    case "bool":
      return found === "int";
    case "int":
      return found === "bool";
    case "timestamp":
      return found === "text";
    default:
      return false;
  }
}

/** The resource with one field replaced (the table as an expression over the old column sees it). */
function withField(shape: ResourceShape, name: string, replacement: FieldModel): ResourceShape {
  return { ...shape, fields: shape.fields.map((f) => (f.name === name ? replacement : f)), indexes: [] };
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

function typeText(t: TypeRef): string {
  const name = t.values.length > 0 ? `${t.name.name}(${t.values.map((v) => v.name).join(", ")})` : t.name.name;
  return t.nullable ? `${name}?` : name;
}

