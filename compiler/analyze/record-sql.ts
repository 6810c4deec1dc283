import type { Dialect, DialectSql, RecordOp as Op, PreparedSql, ResourceModel, StatementModel } from "./model.js";
import type { ResourceShape } from "./sql/ddl/index.js";
import { mysqlPlaceholder } from "./sql/mysql/params.js";

// SQL for record operations (`get`, `insert`, `update`, `delete` by primary key), made at
// build time. Columns are listed explicitly rather than `*` so the JSON a client sees
// keeps the declared field order even after columns were added to a live table.
//
// Every operation returns the row. SQLite and PostgreSQL say so with RETURNING. The mysql
// dialect serves MySQL 8, MariaDB and TiDB with one text: MySQL and TiDB have no RETURNING
// and MariaDB has none on UPDATE, so there the row comes from a read by primary key that
// the adapter runs on the same connection, in the same transaction (`returning`): after an
// insert or update; before a delete, with FOR UPDATE so the row read is the row deleted.

const quote: Record<Dialect, (name: string) => string> = {
  sqlite: (n) => `"${n}"`,
  postgres: (n) => `"${n}"`,
  mysql: (n) => `\`${n}\``,
};

const placeholder: Record<Dialect, (i: number) => string> = {
  // Positional, as each argument appears once and in order (runtime/db/sqlite/statements.ts).
  sqlite: () => "?",
  postgres: (i) => `$${i + 1}`,
  mysql: () => "?",
};

/** Statement name: `task.get`, `task.insert`, `task.update.assignee.status`, `task.delete`, `account.rehash.password`. */
export function recordStatementName(resource: string, op: Op, fields: readonly string[] = []): string {
  return op === "update" || op === "patch" || op === "rehash" ? [resource, op, ...fields].join(".") : `${resource}.${op}`;
}

/**
 * The statement for one record operation. `args` order: insert → every field in
 * declaration order; update → the written fields (sorted, as in the name), then the key;
 * patch → per written field (sorted) whether it is given (1/0) and its value, then the key;
 * get/delete → the key; rehash (of one password field) → the new hash, the key, the hash it replaces.
 */
export function recordStatement(r: ResourceModel, op: Op, fields: readonly string[] = []): StatementModel {
  const { name, sql } = recordSql(r, op, fields);
  return {
    name,
    owner: { kind: "record", resource: r.name, op, fields: [...fields] },
    // The SQL is made from the resource, so that is where a message about it points.
    at: r.at,
    sql,
  };
}

/** The SQL of one record operation on a table, declared or the server's own (svc_sessions). */
export function recordSql(r: ResourceShape, op: Op, fields: readonly string[] = []): PreparedSql {
  const name = recordStatementName(r.name, op, fields);
  const args =
    op === "insert"
      ? r.fields.map((f) => f.name)
      : op === "update"
        ? [...fields, r.primaryKey]
        : op === "patch"
          ? [...fields.flatMap((f) => [`${f}_given`, f]), r.primaryKey]
        : op === "rehash"
          ? [fields[0], r.primaryKey, `${fields[0]}_before`]
          : [r.primaryKey];
  const dialects: Partial<Record<Dialect, DialectSql>> = {};
  for (const d of ["sqlite", "postgres"] as const) {
    dialects[d] = { text: render(d, r, op, fields), slots: args.map((_, i) => i) };
  }
  dialects.mysql = renderMysql(r, op, fields, args);
  const source = dialects.sqlite!.text;
  return { name, sql: { source, args, dialects, readonly: op === "get" } };
}

/** The mysql statement: no RETURNING, a timestamp read from ISO text (sql/mysql/params.ts). */
function renderMysql(r: ResourceShape, op: Op, fields: readonly string[], args: readonly string[]): DialectSql {
  const q = quote.mysql;
  const table = q(r.name);
  const columns = r.fields.map((f) => q(f.name)).join(", ");
  const typeOf = (field: string) => r.fields.find((f) => f.name === field)?.type;
  const slots = args.map((_, i) => i);
  const keyAt = args.lastIndexOf(r.primaryKey);
  const byKey = `SELECT ${columns} FROM ${table} WHERE ${q(r.primaryKey)} = ?`;
  switch (op) {
    case "get":
      return { text: byKey, slots };
    case "delete":
      return {
        text: `DELETE FROM ${table} WHERE ${q(r.primaryKey)} = ?`,
        slots,
        returning: { text: `${byKey} FOR UPDATE`, slots: [keyAt], when: "before" },
      };
    case "insert": {
      const values = r.fields.map((f) => mysqlPlaceholder(f.type)).join(", ");
      return {
        text: `INSERT INTO ${table} (${columns}) VALUES (${values})`,
        slots,
        returning: { text: byKey, slots: [keyAt], when: "after" },
      };
    }
    // Only where the row still holds the hash that was checked: a password changed meanwhile stays.
    case "rehash":
      return { text: `UPDATE ${table} SET ${q(fields[0])} = ? WHERE ${q(r.primaryKey)} = ? AND ${q(fields[0])} = ?`, slots };
    case "patch":
    case "update": {
      const sets = fields
        .map((f) => (op === "patch" ? `${q(f)} = CASE WHEN ? = 1 THEN ${mysqlPlaceholder(typeOf(f))} ELSE ${q(f)} END` : `${q(f)} = ${mysqlPlaceholder(typeOf(f))}`))
        .join(", ");
      return {
        text: `UPDATE ${table} SET ${sets} WHERE ${q(r.primaryKey)} = ?`,
        slots,
        returning: { text: byKey, slots: [keyAt], when: "after" },
      };
    }
  }
}

function render(d: Dialect, r: ResourceShape, op: Op, fields: readonly string[]): string {
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
    case "rehash":
      return `UPDATE ${table} SET ${q(fields[0])} = ${p(0)} WHERE ${q(r.primaryKey)} = ${p(1)} AND ${q(fields[0])} = ${p(2)}`;
    case "update": {
      const sets = fields.map((f, i) => `${q(f)} = ${p(i)}`).join(", ");
      return `UPDATE ${table} SET ${sets} WHERE ${q(r.primaryKey)} = ${p(fields.length)} RETURNING ${columns}`;
    }
    // A field not given keeps its value: `"bio" = CASE WHEN ? = 1 THEN ? ELSE "bio" END`.
    case "patch": {
      const sets = fields.map((f, i) => `${q(f)} = CASE WHEN ${p(2 * i)} = 1 THEN ${p(2 * i + 1)} ELSE ${q(f)} END`).join(", ");
      return `UPDATE ${table} SET ${sets} WHERE ${q(r.primaryKey)} = ${p(2 * fields.length)} RETURNING ${columns}`;
    }
  }
}
