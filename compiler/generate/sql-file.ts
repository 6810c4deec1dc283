import type { StatementStructures, VariableStatementStructure } from "./ts-morph.js";

// server.ts and its companion sql.ts (docs/language.md, "Generated code"). The sections make
// one list of statements; a table spec, a statement spec or a row literal is marked here as
// SQL data as it is made, and `splitSql` sends the marked ones to sql.ts, where a reviewer
// who wants the text of the SQL finds it per dialect, and everything else to server.ts, which
// imports the specs it names. A field added to a resource then changes its DDL and every
// statement's column list in sql.ts, and in server.ts only the code that reads the field.

/** The companion's module name, as server.ts imports it and as svc dev finds it. */
export const SQL_MODULE = "sql";

type Item = string | StatementStructures;

/** What goes to sql.ts, and whether server.ts imports it (a row literal is sql.ts's own). */
const marked = new WeakMap<object, { imported: boolean }>();

/** Marks `structure` (a `const` of SQL data) for sql.ts; `imported` when server.ts names it. */
export function sqlData(structure: VariableStatementStructure, imported = true): VariableStatementStructure {
  marked.set(structure, { imported });
  return structure;
}

export interface SplitSql {
  server: Item[];
  sql: Item[];
  /** The names server.ts imports from sql.ts, in the order sql.ts declares them. */
  imports: string[];
}

/**
 * Partitions the sections' statements. A section's header comment (`// ---- … ----`) goes to
 * server.ts, and to sql.ts too before the first of the section's data, so both files read in
 * the same order under the same headers.
 */
export function splitSql(items: readonly Item[]): SplitSql {
  const out: SplitSql = { server: [], sql: [], imports: [] };
  let header: string | null = null;
  for (const item of items) {
    if (typeof item === "string" && item.startsWith("// ----")) {
      header = item;
      out.server.push(item);
      continue;
    }
    const mark = typeof item === "string" ? undefined : marked.get(item);
    if (mark === undefined) {
      out.server.push(item);
      continue;
    }
    if (header !== null) out.sql.push(header);
    header = null;
    const declaration = item as VariableStatementStructure;
    out.sql.push({ ...declaration, isExported: mark.imported });
    if (mark.imported) out.imports.push(...declaration.declarations.map((d) => d.name));
  }
  return out;
}
