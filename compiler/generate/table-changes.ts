import type { SchemaModel, TableChangesModel } from "../analyze/model/model.js";
import type { SchemaSpec, TableChanges } from "../../runtime/contract/evolve.js";

// The model's declared changes as the runtime takes them (runtime/contract/evolve.ts), without
// source places: written into server.ts, and handed to the planner by `svc check --db`.

export function tableChanges(changes: TableChangesModel): TableChanges {
  return {
    columns: changes.columns.map((c) => ({
      column: c.column,
      ...(c.renamedFrom !== undefined ? { renamedFrom: c.renamedFrom } : {}),
      ...(c.retype ? { retype: c.retype } : {}),
      ...(c.backfill ? { backfill: c.backfill } : {}),
    })),
    dropColumns: changes.dropColumns.map((d) => d.name),
  };
}

export function schemaSpec(schema: SchemaModel): SchemaSpec {
  return { build: schema.build, dropTables: schema.dropTables.map((d) => d.name) };
}
