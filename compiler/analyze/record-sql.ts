import type { Dialect, DialectSql, ResourceModel, StatementModel } from "./model.js";

// SQL for record operations (`get`, `insert`, `update`, `delete` by primary key), made at
// build time. Columns are listed explicitly rather than `*` so the JSON a client sees
// keeps the declared field order even after columns were added to a live table.

type Op = "get" | "insert" | "update" | "delete";

const quote: Record<Dialect, (name: string) => string> = {
  sqlite: (n) => `"${n}"`,
  postgres: (n) => `"${n}"`,
  mysql: (n) => `\`${n}\``,
};

const placeholder: Record<Dialect, (i: number) => string> = {
  sqlite: (i) => `?${i + 1}`,
  postgres: (i) => `$${i + 1}`,
  mysql: () => "?",
};

/** Statement name: `task.get`, `task.insert`, `task.update.assignee.status`, `task.delete`. */
export function recordStatementName(resource: string, op: Op, fields: readonly string[] = []): string {
  return op === "update" ? [resource, op, ...fields].join(".") : `${resource}.${op}`;
}

/**
 * The statement for one record operation. `args` order: insert → every field in
 * declaration order; update → the written fields (sorted, as in the name), then the key;
 * get/delete → the key.
 */
export function recordStatement(r: ResourceModel, op: Op, fields: readonly string[] = []): StatementModel {
  const name = recordStatementName(r.name, op, fields);
  const args = op === "insert" ? r.fields.map((f) => f.name) : op === "update" ? [...fields, r.primaryKey] : [r.primaryKey];
  const dialects: Partial<Record<Dialect, DialectSql>> = {};
  for (const d of ["sqlite", "postgres"] as const) {
    dialects[d] = { text: render(d, r, op, fields), slots: args.map((_, i) => i) };
  }
  const source = dialects.sqlite!.text;
  return { name, sql: { source, args, dialects, readonly: op === "get" } };
}

function render(d: Dialect, r: ResourceModel, op: Op, fields: readonly string[]): string {
  const q = quote[d];
  const p = placeholder[d];
  const table = q(r.name);
  const columns = r.fields.map((f) => q(f.name)).join(", ");
  switch (op) {
    case "get":
      return `SELECT ${columns} FROM ${table} WHERE ${q(r.primaryKey)} = ${p(0)}`;
    case "delete":
      return `DELETE FROM ${table} WHERE ${q(r.primaryKey)} = ${p(0)} RETURNING ${columns}`;
    case "insert":
      return `INSERT INTO ${table} (${columns}) VALUES (${r.fields.map((_, i) => p(i)).join(", ")}) RETURNING ${columns}`;
    case "update": {
      const sets = fields.map((f, i) => `${q(f)} = ${p(i)}`).join(", ");
      return `UPDATE ${table} SET ${sets} WHERE ${q(r.primaryKey)} = ${p(fields.length)} RETURNING ${columns}`;
    }
  }
}
