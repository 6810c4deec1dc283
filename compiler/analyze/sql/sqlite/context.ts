import type BetterSqlite3 from "better-sqlite3";
import type { FieldModel } from "../../model/model.js";
import type { ResourceShape } from "../ddl/shared.js";
import type { SqlCheckInput } from "../dialect.js";
import { type TableRef, enclosingParens } from "../refs.js";
import { type Token, sameName } from "../tokens.js";

/** Everything one `check()` call works from; built once per call, passed down, never stored. */
export interface CheckContext {
  db: BetterSqlite3.Database;
  input: SqlCheckInput;
  /** "query `list_tasks`", for messages. */
  where: string;
  resources: readonly ResourceShape[];
  /** Tokens of `input.body.text` (the SQL as written). */
  tokens: Token[];
  /** `parents[i]`: the index of the `(` enclosing token i, -1 at the top level. */
  parents: number[];
  refs: TableRef[];
}

export function makeContext(
  db: BetterSqlite3.Database,
  input: SqlCheckInput,
  where: string,
  resources: readonly ResourceShape[],
  tokens: Token[],
  refs: TableRef[],
): CheckContext {
  return { db, input, where, resources, tokens, parents: enclosingParens(tokens), refs };
}

export function resourceNamed(ctx: CheckContext, table: string | null): ResourceShape | undefined {
  return table === null ? undefined : ctx.resources.find((r) => sameName(r.name, table));
}

export function fieldNamed(resource: ResourceShape | undefined, column: string): FieldModel | undefined {
  return resource?.fields.find((f) => sameName(f.name, column));
}

/** The resources the statement's table references name, each once, in order. */
export function referencedResources(ctx: CheckContext): ResourceShape[] {
  const out: ResourceShape[] = [];
  for (const ref of ctx.refs) {
    const r = resourceNamed(ctx, ref.table);
    if (r && !out.includes(r)) out.push(r);
  }
  return out;
}

/** Prepares `sql`; the error message when SQLite refuses it, null when it prepares. */
export function prepareError(db: BetterSqlite3.Database, sql: string): string | null {
  try {
    db.prepare(sql);
    return null;
  } catch (e) {
    return errorMessage(e);
  }
}

/**
 * The message of something thrown. Not `instanceof Error`: errors made by the native
 * driver may come from another realm (under jest's VM modules they do).
 */
export function errorMessage(e: unknown): string {
  const message = typeof e === "object" && e !== null ? (e as { message?: unknown }).message : undefined;
  return typeof message === "string" ? message : String(e);
}
