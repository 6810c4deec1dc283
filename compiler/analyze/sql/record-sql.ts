import type { Dialect, DialectSql, RecordOp as Op, PreparedSql, ResourceModel, StatementModel } from "../model/model.js";
import type { ResourceShape } from "./ddl/index.js";
import { mysqlPlaceholder } from "./mysql/params.js";

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

/**
 * Statement name: `task.get`, `task.insert`, `task.update.assignee.status`, `task.delete`,
 * `account.rehash.password`; `world.insert.id` for an insert that gives an `id(int)` key itself.
 */
export function recordStatementName(resource: string, op: Op, fields: readonly string[] = []): string {
  return op === "update" || op === "patch" || op === "rehash" || (op === "insert" && fields.length > 0)
    ? [resource, op, ...fields].join(".")
    : `${resource}.${op}`;
}

/** The `id(int)` field the database numbers, when the resource has one. */
export function identityKey(r: ResourceShape): string | null {
  const f = r.primaryKey.length === 1 ? r.fields.find((x) => x.name === r.primaryKey[0]) : undefined;
  return f?.generated === "identity" ? f.name : null;
}

/** The columns an insert writes: every field, but an identity key the insert leaves to the database. */
export function insertColumns(r: ResourceShape, fields: readonly string[]): string[] {
  const identity = identityKey(r);
  return r.fields.map((f) => f.name).filter((f) => f !== identity || fields.includes(f));
}

/**
 * The statement for one record operation. `args` order: insert → every field in
 * declaration order (an `id(int)` key only when the insert gives it, named in `fields`);
 * update → the written fields (sorted, as in the name), then the key fields; patch → per
 * written field (sorted) whether it is given (1/0) and its value, then the key fields;
 * get/delete → the key fields; rehash (of one password field) → the new hash, the key
 * fields, the hash it replaces.
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

/** The SQL of one record operation on a declared table. */
export function recordSql(r: ResourceShape, op: Op, fields: readonly string[] = []): PreparedSql {
  const name = recordStatementName(r.name, op, fields);
  const key = r.primaryKey;
  const args =
    op === "insert"
      ? insertColumns(r, fields)
      : op === "update"
        ? [...fields, ...key]
        : op === "patch"
          ? [...fields.flatMap((f) => [`${f}_given`, f]), ...key]
        : op === "rehash"
          ? [fields[0], ...key, `${fields[0]}_before`]
          : [...key];
  const dialects: Partial<Record<Dialect, DialectSql>> = {};
  for (const d of ["sqlite", "postgres"] as const) {
    dialects[d] = { text: render(d, r, op, fields, args), slots: args.map((_, i) => i) };
  }
  dialects.mysql = renderMysql(r, op, fields, args);
  const source = dialects.sqlite!.text;
  return { name, sql: { source, args, dialects, readonly: op === "get" } };
}

/** `"a" = ? AND "b" = ?` over the key fields, numbered from `first`. */
function keyMatch(r: ResourceShape, q: (n: string) => string, p: (i: number) => string, first: number): string {
  return r.primaryKey.map((k, i) => `${q(k)} = ${p(first + i)}`).join(" AND ");
}

/** The mysql statement: no RETURNING, a timestamp read from ISO text (sql/mysql/params.ts). */
function renderMysql(r: ResourceShape, op: Op, fields: readonly string[], args: readonly string[]): DialectSql {
  const q = quote.mysql;
  const p = placeholder.mysql;
  const table = q(r.name);
  const columns = r.fields.map((f) => q(f.name)).join(", ");
  const typeOf = (field: string) => r.fields.find((f) => f.name === field)?.type;
  const slots = args.map((_, i) => i);
  // The key's places among the arguments: the last ones named so (rehash's `…_before` follows them).
  const keyAt = r.primaryKey.map((k) => args.lastIndexOf(k));
  const byKey = `SELECT ${columns} FROM ${table} WHERE ${keyMatch(r, q, p, 0)}`;
  switch (op) {
    case "get":
      return { text: byKey, slots };
    case "delete":
      return {
        text: `DELETE FROM ${table} WHERE ${keyMatch(r, q, p, 0)}`,
        slots,
        returning: { text: `${byKey} FOR UPDATE`, slots: keyAt, when: "before" },
      };
    case "insert": {
      const values = args.map((a) => mysqlPlaceholder(typeOf(a))).join(", ");
      const text = `INSERT INTO ${table} (${args.map(q).join(", ")}) VALUES (${values})`;
      // A key the database numbered is this connection's LAST_INSERT_ID().
      if (keyAt.some((i) => i < 0)) {
        const numbered = `SELECT ${columns} FROM ${table} WHERE ${q(r.primaryKey[0])} = LAST_INSERT_ID()`;
        return { text, slots, returning: { text: numbered, slots: [], when: "after" } };
      }
      return { text, slots, returning: { text: byKey, slots: keyAt, when: "after" } };
    }
    // Only where the row still holds the hash that was checked: a password changed meanwhile stays.
    case "rehash":
      return { text: `UPDATE ${table} SET ${q(fields[0])} = ? WHERE ${keyMatch(r, q, p, 0)} AND ${q(fields[0])} = ?`, slots };
    case "patch":
    case "update": {
      const sets = fields
        .map((f) => (op === "patch" ? `${q(f)} = CASE WHEN ? = 1 THEN ${mysqlPlaceholder(typeOf(f))} ELSE ${q(f)} END` : `${q(f)} = ${mysqlPlaceholder(typeOf(f))}`))
        .join(", ");
      return {
        text: `UPDATE ${table} SET ${sets} WHERE ${keyMatch(r, q, p, 0)}`,
        slots,
        returning: { text: byKey, slots: keyAt, when: "after" },
      };
    }
  }
}

function render(d: Dialect, r: ResourceShape, op: Op, fields: readonly string[], args: readonly string[]): string {
  const q = quote[d];
  const p = placeholder[d];
  const table = q(r.name);
  const columns = r.fields.map((f) => q(f.name)).join(", ");
  switch (op) {
    case "get":
      return `SELECT ${columns} FROM ${table} WHERE ${keyMatch(r, q, p, 0)}`;
    case "delete":
      return `DELETE FROM ${table} WHERE ${keyMatch(r, q, p, 0)} RETURNING ${columns}`;
    case "insert": {
      const insert = `INSERT INTO ${table} (${args.map(q).join(", ")}) VALUES (${args.map((_, i) => p(i)).join(", ")})`;
      const identity = identityKey(r);
      if (d === "postgres" && identity !== null && args.includes(identity)) return pgInsertPastSequence(r, insert, identity);
      return `${insert} RETURNING ${columns}`;
    }
    case "rehash":
      return `UPDATE ${table} SET ${q(fields[0])} = ${p(0)} WHERE ${keyMatch(r, q, p, 1)} AND ${q(fields[0])} = ${p(1 + r.primaryKey.length)}`;
    case "update": {
      const sets = fields.map((f, i) => `${q(f)} = ${p(i)}`).join(", ");
      return `UPDATE ${table} SET ${sets} WHERE ${keyMatch(r, q, p, fields.length)} RETURNING ${columns}`;
    }
    // A field not given keeps its value: `"bio" = CASE WHEN ? = 1 THEN ? ELSE "bio" END`.
    case "patch": {
      const sets = fields.map((f, i) => `${q(f)} = CASE WHEN ${p(2 * i)} = 1 THEN ${p(2 * i + 1)} ELSE ${q(f)} END`).join(", ");
      return `UPDATE ${table} SET ${sets} WHERE ${keyMatch(r, q, p, 2 * fields.length)} RETURNING ${columns}`;
    }
  }
}

/**
 * PostgreSQL's identity does not notice a key an insert gives (SQLite's AUTOINCREMENT and
 * MySQL's AUTO_INCREMENT do): without a nudge, the next numbered row would get a key the
 * seed data already holds. So an insert that gives the key also moves the column's sequence
 * to it, when the key is past the sequence's last value, in the same statement.
 */
function pgInsertPastSequence(r: ResourceShape, insert: string, identity: string): string {
  const q = quote.postgres;
  const table = q(r.name);
  const columns = r.fields.map((f) => `"inserted".${q(f.name)}`).join(", ");
  const seq = `pg_get_serial_sequence('${table.replace(/'/g, "''")}', '${identity.replace(/'/g, "''")}')`;
  const key = `"inserted".${q(identity)}`;
  return (
    `WITH "inserted" AS (${insert} RETURNING ${r.fields.map((f) => q(f.name)).join(", ")}) ` +
    `SELECT ${columns} FROM "inserted" LEFT JOIN LATERAL (SELECT setval(${seq}, ${key}) AS "moved" ` +
    `WHERE ${key} > COALESCE(pg_sequence_last_value(${seq}::regclass), 0)) AS "sequence" ON TRUE`
  );
}
