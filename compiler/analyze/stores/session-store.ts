// The server-side session table of `[auth.sessions]` (runtime/auth/sessions.ts). Declared
// like a resource so the same DDL and record-operation code make it for every dialect.
// Every column is text (the id is the SHA-256 of the cookie's value, roles a JSON list,
// times ISO-8601, which compare as text), so rows read the same from every driver. Beside
// the record operations: ending every session of a subject (`revoke`), moving an idle
// deadline, and sweeping expired rows; the indexes serve those two.

import type { DialectSql, FieldModel, PreparedSql, SessionStoreModel } from "../model/model.js";
import { recordSql } from "../sql/record-sql.js";
import { type ResourceShape, allTableDdl } from "../sql/ddl/index.js";

export const SESSIONS_TABLE = "svc_sessions";
/** The runtime's own table of revocations (runtime/revocation/table.ts), with `[auth.jwt]`: no resource may take its name. */
export const REVOCATIONS_TABLE = "svc_revocations";

function field(name: string, type: FieldModel["type"], doc: string): FieldModel {
  return { name, type, enumValues: [], nullable: false, default: null, doc };
}

const TABLE: ResourceShape = {
  module: "svc",
  name: SESSIONS_TABLE,
  doc: "Live sessions of signed-in browsers.",
  primaryKey: ["id"],
  fields: [
    field("id", "id", "SHA-256 (hex) of the session cookie's value: the cookie itself is never stored."),
    field("subject", "text", "Who signed in: `auth.id`."),
    field("roles", "text", "`auth.roles`, as a JSON list."),
    field("created_at", "text", "ISO-8601."),
    field("expires_at", "text", "ISO-8601; a session past it is no session (the lifetime's end, or with `idle` the idle deadline when earlier)."),
  ],
  indexes: [
    { name: `${SESSIONS_TABLE}_subject_idx`, unique: false, columns: [{ name: "subject", desc: false }] },
    { name: `${SESSIONS_TABLE}_expires_at_idx`, unique: false, columns: [{ name: "expires_at", desc: false }] },
  ],
};

type Quote = (name: string) => string;
type Place = (i: number) => string;

/** One statement in the three dialects from one template, as the idempotency store writes its own. */
function statement(name: string, source: string, args: string[], text: (q: Quote, p: Place) => string): PreparedSql {
  const slots = args.map((_, i) => i);
  const sql = (q: Quote, p: Place): DialectSql => ({ text: text(q, p), slots });
  const dq: Quote = (n) => `"${n}"`;
  return {
    name: `${SESSIONS_TABLE}.${name}`,
    sql: {
      source,
      args,
      dialects: { sqlite: sql(dq, () => "?"), postgres: sql(dq, (i) => `$${i + 1}`), mysql: sql((n) => `\`${n}\``, () => "?") },
      readonly: false,
    },
  };
}

const t = SESSIONS_TABLE;

export function sessionStore(lifetimeS: number, cookie: string, idleS?: number): SessionStoreModel {
  return {
    lifetimeS,
    ...(idleS !== undefined && { idleS }),
    cookie,
    table: SESSIONS_TABLE,
    ddl: allTableDdl(TABLE),
    create: recordSql(TABLE, "insert"),
    find: recordSql(TABLE, "get"),
    end: recordSql(TABLE, "delete"),
    endSubject: statement(
      "end_subject",
      `DELETE FROM ${t} WHERE subject = @subject AND id <> @kept`,
      ["subject", "kept"],
      (q, p) => `DELETE FROM ${q(t)} WHERE ${q("subject")} = ${p(0)} AND ${q("id")} <> ${p(1)}`,
    ),
    touch: statement(
      "touch",
      `UPDATE ${t} SET expires_at = @expires_at WHERE id = @id`,
      ["expires_at", "id"],
      (q, p) => `UPDATE ${q(t)} SET ${q("expires_at")} = ${p(0)} WHERE ${q("id")} = ${p(1)}`,
    ),
    sweep: statement(
      "sweep",
      `DELETE FROM ${t} WHERE expires_at <= @now`,
      ["now"],
      (q, p) => `DELETE FROM ${q(t)} WHERE ${q("expires_at")} <= ${p(0)}`,
    ),
  };
}
