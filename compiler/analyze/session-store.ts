// The server-side session table of `[auth.sessions]` (runtime/auth/sessions.ts). Declared
// like a resource so the same DDL and record-operation code make it for every dialect.
// Every column is text (the id is the SHA-256 of the cookie's value, roles a JSON list,
// times ISO-8601), so rows read the same from every driver.

import type { FieldModel, SessionStoreModel } from "./model.js";
import { recordSql } from "./record-sql.js";
import { type ResourceShape, allTableDdl } from "./sql/ddl/index.js";

export const SESSIONS_TABLE = "svc_sessions";

function field(name: string, type: FieldModel["type"], doc: string): FieldModel {
  return { name, type, enumValues: [], nullable: false, default: null, doc };
}

const TABLE: ResourceShape = {
  module: "svc",
  name: SESSIONS_TABLE,
  doc: "Live sessions of signed-in browsers.",
  primaryKey: "id",
  fields: [
    field("id", "id", "SHA-256 (hex) of the session cookie's value: the cookie itself is never stored."),
    field("subject", "text", "Who signed in: `auth.id`."),
    field("roles", "text", "`auth.roles`, as a JSON list."),
    field("created_at", "text", "ISO-8601."),
    field("expires_at", "text", "ISO-8601; a session past it is no session."),
  ],
  indexes: [],
};

export function sessionStore(lifetimeS: number, cookie: string): SessionStoreModel {
  return {
    lifetimeS,
    cookie,
    table: SESSIONS_TABLE,
    ddl: allTableDdl(TABLE),
    create: recordSql(TABLE, "insert"),
    find: recordSql(TABLE, "get"),
    end: recordSql(TABLE, "delete"),
  };
}
