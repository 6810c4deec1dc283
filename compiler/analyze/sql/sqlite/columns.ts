import type BetterSqlite3 from "better-sqlite3";
import { sqlCodes } from "../../../diagnostics/codes/sql.js";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import type { ColumnModel, ScalarType } from "../../model/model.js";
import { type SelectItem, selectItems } from "../clauses.js";
import { ANNOTATION_TYPES, type Annotation, parseAnnotation } from "../portable.js";
import { type TableRef, refByQualifier } from "../refs.js";
import { spanIn } from "../span.js";
import { closest } from "../../../diagnostics/did-you-mean.js";
import { type Token, sameName } from "../tokens.js";
import { type CheckContext, fieldNamed, resourceNamed } from "./context.js";
import { exprType } from "./expr-type.js";

// Result columns typed from the declared resources. SQLite tells each column's origin
// (table and column) when it is a plain column; the tokens of the select list tell which
// table reference it came through (for outer-join nullability) and what an expression is.

export interface ResultShape {
  columns: ColumnModel[];
  rowResource: string | null;
  /** About type annotations (`AS "name: type"`). */
  diagnostics: Diagnostic[];
}

/** For each result column, the select item it comes from and the reference it reads, when known. */
interface Source {
  item: SelectItem | null;
  ref: TableRef | null;
}

export function resultColumns(ctx: CheckContext, defs: readonly BetterSqlite3.ColumnDefinition[]): ResultShape {
  const sources = alignSources(ctx, defs.length);
  const diagnostics: Diagnostic[] = [];
  const columns = defs.map((def, i): ColumnModel => {
    const item = sources?.[i].item ?? itemNamed(ctx, def.name);
    const annotated = item ? annotationOf(ctx, item) : null;
    const field = def.table && def.column ? fieldNamed(resourceNamed(ctx, def.table), def.column) : undefined;
    if (field) {
      const ref = sources?.[i].ref ?? null;
      const joinNullable = ref
        ? ref.nullable
        : ctx.refs.some((r) => r.nullable && r.table !== null && sameName(r.table, def.table!));
      // SQLite names a field as the origin of a scalar subquery's column too, which finds no row at times.
      const subquery = item !== null && item.column === null && item.star === null && exprType(ctx, item.expr)?.nullable === true;
      const nullable = field.nullable || joinNullable || subquery;
      const column = { name: def.name, type: field.type, enumValues: [...field.enumValues], nullable };
      if (!annotated) return column;
      const type = annotationType(ctx, annotated, diagnostics);
      if (type === null) return column;
      if (type !== field.type && !(type === "text" && (field.type === "id" || field.type === "enum"))) {
        const { file } = ctx.input;
        const span = spanIn(ctx.input.body, annotated.token.start, annotated.token.end);
        diagnostics.push(sqlCodes.annotationContradicts.at(file, span, ctx.where, def.name, type, `${def.table}.${field.name}`, field.type));
        return column;
      }
      return { ...column, nullable: annotated.annotation.nullable };
    }
    if (annotated) {
      const type = annotationType(ctx, annotated, diagnostics);
      if (type !== null) return { name: def.name, type, enumValues: [], nullable: annotated.annotation.nullable };
    }
    const typed = item ? exprType(ctx, item.expr) : null;
    if (typed) return { name: def.name, ...typed };
    return { name: def.name, type: "unknown", enumValues: [], nullable: true };
  });
  return { columns, rowResource: rowResource(ctx, defs, columns), diagnostics };
}

interface Annotated {
  annotation: Annotation;
  token: Token;
}

/** The annotation in `item`'s alias, if it has one. */
function annotationOf(ctx: CheckContext, item: SelectItem): Annotated | null {
  if (item.alias === null) return null;
  const token = ctx.tokens.find((t) => t.end === item.end);
  const annotation = parseAnnotation(token);
  return annotation && token ? { annotation, token } : null;
}

/** The annotation's type; null (and a diagnostic) when svc has no such type. */
function annotationType(ctx: CheckContext, a: Annotated, out: Diagnostic[]): ScalarType | null {
  const type = ANNOTATION_TYPES.find((t) => t === a.annotation.type);
  if (type) return type;
  const span = spanIn(ctx.input.body, a.token.start, a.token.end);
  const near = ALIASES[a.annotation.type.toLowerCase()] ?? closest(a.annotation.type.toLowerCase(), [...ANNOTATION_TYPES]) ?? null;
  out.push(sqlCodes.unknownAnnotationType.at(ctx.input.file, span, ctx.where, a.annotation.name, a.annotation.type, near, ANNOTATION_TYPES));
  return null;
}

/** Other languages' names for svc's types, for the hint. */
const ALIASES: Record<string, ScalarType> = {
  boolean: "bool",
  integer: "int",
  bigint: "int",
  number: "float",
  real: "float",
  double: "float",
  string: "text",
  varchar: "text",
  jsonb: "json",
  object: "json",
  array: "json",
  date: "timestamp",
  datetime: "timestamp",
};

/** The first top-level SELECT: the one whose list names the result columns. */
function mainSelect(ctx: CheckContext): number {
  return ctx.tokens.findIndex((t, i) => t.value === "SELECT" && ctx.parents[i] === -1);
}

/**
 * Expands the select list (`*` and `t.*` by the fields of the tables they stand for) and
 * lines it up with SQLite's columns. Null when the counts disagree (a subquery in FROM,
 * USING/NATURAL joins that merge columns): then callers fall back to names.
 */
function alignSources(ctx: CheckContext, count: number): Source[] | null {
  const at = mainSelect(ctx);
  if (at < 0) return null;
  const end = ctx.tokens.findIndex(
    (t, i) => i > at && ctx.parents[i] === -1 && ["UNION", "EXCEPT", "INTERSECT"].includes(t.value),
  );
  const refs = ctx.refs.filter((r) => r.scope === -1 && r.at > at && (end < 0 || r.at < end));
  const out: Source[] = [];
  for (const item of selectItems(ctx.tokens, at)) {
    if (item.star) {
      const starred = item.star.qualifier === null ? refs : [refByQualifier(refs, item.star.qualifier)];
      for (const ref of starred) {
        const r = resourceNamed(ctx, ref?.table ?? null);
        if (!ref || !r) return null;
        for (let k = 0; k < r.fields.length; k++) out.push({ item: null, ref });
      }
    } else {
      const q = item.column?.qualifier ?? null;
      const ref =
        q !== null ? (refByQualifier(refs, q) ?? null) : item.column ? unqualifiedRef(ctx, refs, item.column.column) : null;
      out.push({ item, ref });
    }
  }
  return out.length === count ? out : null;
}

/** The one reference among `refs` whose table has `column`; null when none or several do. */
function unqualifiedRef(ctx: CheckContext, refs: readonly TableRef[], column: string): TableRef | null {
  const having = refs.filter((r) => fieldNamed(resourceNamed(ctx, r.table), column));
  return having.length === 1 ? having[0] : null;
}

/** SQLite names an unaliased expression column by its text as written. */
function itemNamed(ctx: CheckContext, name: string): SelectItem | null {
  const at = mainSelect(ctx);
  if (at < 0) return null;
  const text = ctx.input.body.text;
  return (
    selectItems(ctx.tokens, at).find((it) =>
      it.alias !== null ? sameName(annotationOf(ctx, it)?.annotation.name ?? it.alias, name) : text.slice(it.start, it.end) === name,
    ) ?? null
  );
}

/** The resource whose fields, in order and as they are, make up the columns. */
function rowResource(
  ctx: CheckContext,
  defs: readonly BetterSqlite3.ColumnDefinition[],
  columns: readonly ColumnModel[],
): string | null {
  const first = defs[0];
  const r = first?.table ? resourceNamed(ctx, first.table) : undefined;
  if (!r || r.fields.length !== defs.length) return null;
  const same = r.fields.every((f, i) => {
    const d = defs[i];
    return (
      d.table !== null &&
      sameName(d.table, r.name) &&
      d.column === f.name &&
      d.name === f.name &&
      columns[i].nullable === f.nullable
    );
  });
  return same ? r.name : null;
}
