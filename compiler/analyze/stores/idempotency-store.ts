// The table that makes an action call with an `Idempotency-Key` header run once
// (docs/language.md, "Idempotency keys"; runtime/idempotency uses it). Declared like a
// resource so the same DDL code makes it for every dialect and the server creates it at
// start with the resources' tables, as it does the webhook deliveries' table. The
// statements are written per dialect: the claim must change no row when the key is
// there, instead of failing (which would abort a PostgreSQL transaction).

import type { DialectSql, FieldModel, IdempotencyStoreModel, PreparedSql } from "../model/model.js";
import { type ResourceShape, buildTableDdl } from "../sql/ddl/shared.js";
import { mysqlRules } from "../sql/ddl/mysql.js";
import { tableDdl as postgresDdl } from "../sql/ddl/postgres.js";
import { tableDdl as sqliteDdl } from "../sql/ddl/sqlite.js";

export const IDEMPOTENCY_TABLE = "svc_idempotency_keys";

function field(name: string, type: FieldModel["type"], doc: string, extra: Partial<FieldModel> = {}): FieldModel {
  return { name, type, enumValues: [], nullable: false, default: null, doc, ...extra };
}

const SHAPE: ResourceShape = {
  module: "svc",
  name: IDEMPOTENCY_TABLE,
  doc: "Answers of action calls made with an Idempotency-Key.",
  primaryKey: ["id"],
  fields: [
    field("id", "id", "HMAC-SHA256 (hex) under the client's key of the target, the caller and, when bound, the request (runtime/idempotency/keyed.ts)."),
    field("scope", "text", "What the key belongs to: the action (`module.action`) or the route-file block."),
    field("idempotency_key", "text", "Always empty: the key is never stored (the column stays for tables made before)."),
    field("fingerprint", "text", "HMAC-SHA256 (hex) under the client's key of the method, the path and the canonical arguments."),
    field("status", "int", "The answer's HTTP status."),
    field("body", "text", "The answer's data, as JSON text (an action that handles credentials has no row).", { nullable: true }),
    field("expires_at", "int", "Milliseconds since the Unix epoch after which the key may be used afresh."),
    field("created_at", "timestamp", "When the call ran.", { default: { kind: "now" } }),
  ],
  indexes: [{ name: `${IDEMPOTENCY_TABLE}_expires_at_idx`, unique: false, columns: [{ name: "expires_at", desc: false }] }],
};

// An answer can be longer than MySQL's TEXT (64 KiB); LONGTEXT is what MySQL and MariaDB
// report for it too.
const mysqlTableRules = {
  ...mysqlRules,
  columnType: (f: FieldModel, primaryKey: boolean) =>
    f.name === "body" ? { declared: "LONGTEXT", reported: "longtext" } : mysqlRules.columnType(f, primaryKey),
};

type Quote = (name: string) => string;
const doubleQuoted: Quote = (name) => `"${name}"`;
const backQuoted: Quote = (name) => `\`${name}\``;

/** Placeholder `i` (0-based) of each dialect. */
const PLACEHOLDER = {
  sqlite: (_i: number) => "?",
  postgres: (i: number) => `$${i + 1}`,
  mysql: (_i: number) => "?",
};

/**
 * One statement in all three dialects from one template: `q` quotes a name, `p(i)` is the
 * placeholder of the i-th argument (in order of appearance, each used once).
 */
function statement(
  name: string,
  source: string,
  args: string[],
  text: (q: Quote, p: (i: number) => string, dialect: "sqlite" | "postgres" | "mysql") => string,
  readonly = false,
): PreparedSql {
  const slots = args.map((_, i) => i);
  const sql = (d: "sqlite" | "postgres" | "mysql", q: Quote): DialectSql => ({ text: text(q, PLACEHOLDER[d], d), slots });
  return {
    name: `${IDEMPOTENCY_TABLE}.${name}`,
    sql: {
      source,
      args,
      dialects: { sqlite: sql("sqlite", doubleQuoted), postgres: sql("postgres", doubleQuoted), mysql: sql("mysql", backQuoted) },
      readonly,
    },
  };
}

export function idempotencyStore(): IdempotencyStoreModel {
  const t = IDEMPOTENCY_TABLE;
  return {
    table: t,
    ddl: { sqlite: sqliteDdl(SHAPE), postgres: postgresDdl(SHAPE), mysql: buildTableDdl(SHAPE, mysqlTableRules) },
    claim: statement(
      "claim",
      `INSERT INTO ${t} (id, scope, idempotency_key, fingerprint, status, expires_at) VALUES (@id, @scope, @key, @fingerprint, 0, @expires_at) -- unless the id is there`,
      ["id", "scope", "key", "fingerprint", "expires_at"],
      (q, p, d) =>
        // IGNORE turns only the duplicate key into "no row changed" here: the key is at
        // most 255 characters and the other columns cannot overflow or mistype.
        `${d === "mysql" ? "INSERT IGNORE INTO" : "INSERT INTO"} ${q(t)} (${q("id")}, ${q("scope")}, ${q("idempotency_key")}, ${q("fingerprint")}, ${q("status")}, ${q("expires_at")}) ` +
        `VALUES (${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, 0, ${p(4)})${d === "mysql" ? "" : " ON CONFLICT DO NOTHING"}`,
    ),
    lookup: statement(
      "lookup",
      `SELECT fingerprint, status, body, expires_at FROM ${t} WHERE id = @id`,
      ["id"],
      (q, p) => `SELECT ${q("fingerprint")}, ${q("status")}, ${q("body")}, ${q("expires_at")} FROM ${q(t)} WHERE ${q("id")} = ${p(0)}`,
      true,
    ),
    expire: statement(
      "expire",
      `DELETE FROM ${t} WHERE id = @id AND expires_at <= @now`,
      ["id", "now"],
      (q, p) => `DELETE FROM ${q(t)} WHERE ${q("id")} = ${p(0)} AND ${q("expires_at")} <= ${p(1)}`,
    ),
    settle: statement(
      "settle",
      `UPDATE ${t} SET status = @status, body = @body WHERE id = @id`,
      ["status", "body", "id"],
      (q, p) => `UPDATE ${q(t)} SET ${q("status")} = ${p(0)}, ${q("body")} = ${p(1)} WHERE ${q("id")} = ${p(2)}`,
    ),
    sweep: statement(
      "sweep",
      `DELETE FROM ${t} WHERE expires_at <= @now`,
      ["now"],
      (q, p) => `DELETE FROM ${q(t)} WHERE ${q("expires_at")} <= ${p(0)}`,
    ),
  };
}
