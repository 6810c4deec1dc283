import { createHash } from "node:crypto";
import { evolveCodes as codes } from "../../diagnostics/codes/evolve.js";
import type { Decl, Span } from "../../parse/ast.js";
import type { ResourceModel, SchemaModel } from "../model/model.js";
import { type Reporter, place } from "../shared/context.js";

// The build's schema as a whole (runtime/contract/evolve.ts SchemaSpec): the `drop resource`
// declarations of every module, and a hash naming this build's schema in the history table.

/** Present when some resource declares a change or some module drops a resource; undefined otherwise. */
export function analyzeSchema(
  decls: readonly { decl: Decl; file: string }[],
  resources: readonly ResourceModel[],
  declaredAt: ReadonlyMap<string, { file: string; span: Span }>,
  r: Reporter,
): SchemaModel | undefined {
  const dropTables: SchemaModel["dropTables"] = [];
  for (const { decl, file } of decls) {
    if (decl.kind !== "DropResource") continue;
    const name = decl.name.name;
    const declared = declaredAt.get(name);
    if (name.toLowerCase().startsWith("svc_")) r.add(codes.dropOwnTable.at(file, decl.name.span, name));
    else if (declared) r.add(codes.dropDeclaredResource.at(file, decl.name.span, name, place(declared.file, declared.span)));
    else if (dropTables.some((t) => t.name === name)) r.add(codes.droppedTwice.at(file, decl.name.span, `resource \`${name}\``));
    else dropTables.push({ name, at: { file, span: decl.span } });
  }
  if (dropTables.length === 0 && !resources.some((x) => x.changes)) return undefined;
  return { build: schemaBuild(resources, dropTables.map((t) => t.name)), dropTables };
}

/**
 * The first 12 hex digits of the sha256 of every table's DDL and declared changes (without
 * their places in the source) and the dropped tables: two builds share it exactly when they
 * ask the same of the database.
 */
export function schemaBuild(resources: readonly ResourceModel[], dropTables: readonly string[]): string {
  const tables = [...resources]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((t) => ({
      name: t.name,
      ddl: t.ddl,
      changes: t.changes && {
        columns: t.changes.columns.map(({ at: _at, keys: _keys, ...c }) => c),
        dropColumns: t.changes.dropColumns.map((d) => d.name),
      },
    }));
  return createHash("sha256").update(JSON.stringify({ tables, dropTables: [...dropTables].sort() })).digest("hex").slice(0, 12);
}
