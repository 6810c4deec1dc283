import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { PreparedSql } from "../../analyze/action-model.js";
import type { Model, SessionStoreModel } from "../../analyze/model.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { statementSpec, tableSpecDeclaration } from "./shared.js";

// Identity in the generated server: the sessions table and its statements (made by
// the analyzer for every dialect), and the spec's `auth` entry. Credential values never
// appear: `auth` names the credentials the server reads at start.

type Out = (string | StatementStructures)[];

/** `[auth.sessions]`: the table and its statements; nothing without sessions. */
export function identitySection(model: Model, names: Names): Out {
  const store = model.auth?.sessions;
  if (store === undefined) return [];
  return [
    "// ---- sessions ----",
    tableSpecDeclaration(names.table(store.table), { name: store.table, ddl: store.ddl }),
    ...sessionStatements(store).map((s) => statementSpec(s, names.statement(s.name))),
  ];
}

export function identityTables(model: Model, names: Names): string[] {
  const store = model.auth?.sessions;
  return store === undefined ? [] : [names.table(store.table)];
}

export function identityStatements(model: Model, names: Names): string[] {
  const store = model.auth?.sessions;
  return store === undefined ? [] : sessionStatements(store).map((s) => names.statement(s.name));
}

function sessionStatements(store: SessionStoreModel): PreparedSql[] {
  return [store.create, store.find, store.end, store.endSubject, store.touch, store.sweep];
}

/** The spec's `auth` entry: as svc.toml says, with the sessions' table and statements by name. */
export function authSpec(model: Model, names: Names): string | null {
  const auth = model.auth;
  if (auth === undefined) return null;
  const fields: string[] = [];
  if (auth.bearer !== undefined) fields.push(`bearer: ${literal(auth.bearer)}`);
  if (auth.schemes !== undefined) fields.push(`schemes: ${literal(auth.schemes)}`);
  if (auth.jwt !== undefined) fields.push(`jwt: ${literal(auth.jwt)}`);
  const s = auth.sessions;
  if (s !== undefined) {
    const byRole = { create: s.create, find: s.find, end: s.end, endSubject: s.endSubject, touch: s.touch, sweep: s.sweep };
    const statements = `{ ${Object.entries(byRole).map(([role, st]) => `${role}: ${names.statement(st.name)}`).join(", ")} }`;
    const idle = s.idleS === undefined ? "" : `, idleS: ${s.idleS}`;
    fields.push(`sessions: { lifetimeS: ${s.lifetimeS}${idle}, cookie: ${JSON.stringify(s.cookie)}, table: ${names.table(s.table)}, statements: ${statements} }`);
  }
  return `{ ${fields.join(", ")} }`;
}
