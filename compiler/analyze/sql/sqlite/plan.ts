import { sqlCodes } from "../../../diagnostics/codes/sql.js";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import { type ColumnRef, clauseTokens, equalityColumns, orderItems } from "../clauses.js";
import type { ResourceShape } from "../ddl/shared.js";
import { type TableRef, refByQualifier } from "../refs.js";
import { sameName } from "../tokens.js";
import { type CheckContext, fieldNamed, resourceNamed } from "./context.js";

// Asks SQLite's planner how it would run a query (EXPLAIN QUERY PLAN, parameters bound to
// null) and turns the costly steps into warnings that name the index to declare:
//   SCAN t                               a full scan (with nothing indexed to search by)
//   USE TEMP B-TREE FOR … ORDER BY       a sort of every matching row
//   SEARCH t USING AUTOMATIC … INDEX     an index built on every call, for a join
// An ordered `SCAN t USING INDEX …` and any `SEARCH … USING (INDEX|PRIMARY KEY)` are fine.

interface PlanRow {
  detail: string;
}

/** One column of a suggested index. */
interface IndexPart {
  name: string;
  desc: boolean;
}

export function planWarnings(ctx: CheckContext, sql: string, argCount: number): Diagnostic[] {
  let rows: PlanRow[];
  try {
    const explain = ctx.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
    rows = explain.all(...new Array<null>(argCount).fill(null)) as PlanRow[];
  } catch {
    // A statement that prepares but cannot be explained (a stray placeholder, already reported) has no plan to judge.
    return [];
  }
  const out: Diagnostic[] = [];
  const { file, body } = ctx.input;
  const seen = new Set<string>();
  const warn = (d: Diagnostic) => {
    const key = `${d.code}\n${d.message}\n${d.hint ?? ""}`;
    if (!seen.has(key)) out.push(d);
    seen.add(key);
  };

  const sorts = rows.some((r) => /^USE TEMP B-TREE FOR .*ORDER BY$/.test(r.detail));
  let sortedTable: string | null = null;
  if (sorts) {
    const suggestion = sortIndex(ctx);
    sortedTable = suggestion?.resource.name ?? null;
    // The planner sorts despite an index that gives this order (a GROUP BY first, or the
    // table read inside a join): declaring it again would change nothing.
    if (!suggestion || !declaresOrder(suggestion.resource, suggestion.parts)) {
      warn(sqlCodes.sortWithoutIndex.at(file, body.span, ctx.where, sortedTable, suggestion ? indexText(suggestion.parts) : null));
    }
  }
  for (const row of rows) {
    const scan = /^SCAN (\S+)(.*)$/.exec(row.detail);
    if (scan && !/\bUSING\b|VIRTUAL TABLE/.test(scan[2])) {
      const target = planTarget(ctx, scan[1]);
      if (!target || target.resource.name === sortedTable) continue;
      const parts = scanIndex(ctx, target.ref, target.resource);
      if (parts) warn(sqlCodes.fullScan.at(file, body.span, ctx.where, target.resource.name, indexText(parts)));
    }
    const auto = /^SEARCH (\S+) USING AUTOMATIC (?:PARTIAL )?(?:COVERING )?INDEX \(([^)]*)\)/.exec(row.detail);
    if (auto) {
      const target = planTarget(ctx, auto[1]);
      const parts = auto[2]
        .split(" AND ")
        .map((term) => /^[^=<>!]+/.exec(term)?.[0].trim() ?? "")
        .filter((name) => fieldNamed(target?.resource, name))
        .map((name) => ({ name, desc: false }));
      if (target && parts.length)
        warn(sqlCodes.joinWithoutIndex.at(file, body.span, ctx.where, target.resource.name, indexText(parts)));
    }
  }
  return out;
}

function indexText(parts: readonly IndexPart[]): string {
  return `index (${parts.map((p) => `${p.name}${p.desc ? " desc" : ""}`).join(", ")})`;
}

/** The reference a plan row names (by alias, else by table) and its resource. */
function planTarget(ctx: CheckContext, name: string): { ref: TableRef; resource: ResourceShape } | null {
  const ref = refByQualifier(ctx.refs, name) ?? ctx.refs.find((r) => r.table !== null && sameName(r.table, name));
  const resource = resourceNamed(ctx, ref?.table ?? null);
  return ref && resource ? { ref, resource } : null;
}

/** Resolves a column reference within the references of one scope to its reference, if it is a declared field. */
function resolve(ctx: CheckContext, refs: readonly TableRef[], c: ColumnRef): TableRef | null {
  if (c.qualifier !== null) {
    const ref = refByQualifier(refs, c.qualifier);
    return ref && fieldNamed(resourceNamed(ctx, ref.table), c.column) ? ref : null;
  }
  const having = refs.filter((r) => fieldNamed(resourceNamed(ctx, r.table), c.column));
  return having.length === 1 ? having[0] : null;
}

/** Equality columns of the WHERE of `scope` that belong to `ref`, as the field names declare them. */
function whereEqualities(ctx: CheckContext, scope: number, ref: TableRef, resource: ResourceShape): string[] {
  const refs = ctx.refs.filter((r) => r.scope === scope);
  const clauses: ColumnRef[] = [];
  ctx.tokens.forEach((t, i) => {
    if (ctx.parents[i] !== scope) return;
    if (t.value === "WHERE" || (t.value === "ON" && i > ref.at)) clauses.push(...equalityColumns(clauseTokens(ctx.tokens, i)));
  });
  const names: string[] = [];
  for (const c of clauses) {
    const name = fieldNamed(resource, c.column)?.name;
    if (name && resolve(ctx, refs, c) === ref && !names.includes(name)) names.push(name);
  }
  return names;
}

/** True when a declared index (or the primary key) already starts with exactly these columns, in any order. */
function alreadyIndexed(resource: ResourceShape, names: readonly string[]): boolean {
  const leads = [resource.primaryKey, ...resource.indexes.map((ix) => ix.columns.map((c) => c.name))];
  return leads.some((cols) => cols.length >= names.length && names.every((n) => cols.slice(0, names.length).includes(n)));
}

/**
 * True when the primary key, a unique index or an index already starts with `parts` in
 * this order, each in its direction or each reversed (SQLite reads an index backwards).
 */
function declaresOrder(resource: ResourceShape, parts: readonly IndexPart[]): boolean {
  const indexes = [resource.primaryKey.map((name) => ({ name, desc: false })), ...resource.indexes.map((ix) => ix.columns)];
  return indexes.some((cols) => {
    if (cols.length < parts.length) return false;
    const same = parts.every((p, i) => cols[i].name === p.name && cols[i].desc === p.desc);
    const reversed = parts.every((p, i) => cols[i].name === p.name && cols[i].desc !== p.desc);
    return same || reversed;
  });
}

/** For a full scan: an index on the columns its WHERE requires to equal a value; null when none would help. */
function scanIndex(ctx: CheckContext, ref: TableRef, resource: ResourceShape): IndexPart[] | null {
  const names = whereEqualities(ctx, ref.scope, ref, resource);
  if (names.length === 0 || alreadyIndexed(resource, names)) return null;
  return names.map((name) => ({ name, desc: false }));
}

/**
 * For a sort: the WHERE's equality columns (they fix the leading key) then the ORDER BY
 * columns with their directions. Null when ORDER BY is not plain columns of one table.
 */
function sortIndex(ctx: CheckContext): { resource: ResourceShape; parts: IndexPart[] } | null {
  const orders = ctx.tokens.map((t, i) => i).filter((i) => ctx.tokens[i].value === "ORDER" && ctx.tokens[i + 1]?.value === "BY");
  const top = orders.filter((i) => ctx.parents[i] === -1);
  const at = top.length ? top[top.length - 1] : orders[0];
  if (at === undefined) return null;
  const scope = ctx.parents[at];
  const refs = ctx.refs.filter((r) => r.scope === scope);
  const items = orderItems(clauseTokens(ctx.tokens, at + 1));
  if (!items) return null;
  const owners = items.map((it) => resolve(ctx, refs, it.column));
  const ref = owners[0];
  if (!ref || owners.some((o) => o !== ref)) return null;
  const resource = resourceNamed(ctx, ref.table)!;
  const ordered = items.map((it) => ({ name: fieldNamed(resource, it.column.column)!.name, desc: it.desc }));
  const leading = whereEqualities(ctx, scope, ref, resource)
    .filter((n) => !ordered.some((o) => o.name === n))
    .map((name) => ({ name, desc: false }));
  return { resource, parts: [...leading, ...ordered] };
}
