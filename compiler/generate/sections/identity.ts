import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { Model } from "../../analyze/model.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { statementSpec } from "./shared.js";

// Identity in the generated server: the sessions table and its three statements (made by
// the analyzer for every dialect), and the spec's `auth` entry. Credential values never
// appear: `auth` names the credentials the server reads at start.

type Out = (string | StatementStructures)[];

/** `[auth.sessions]`: the table and its create/find/end statements; nothing without sessions. */
export function identitySection(model: Model, names: Names): Out {
  const store = model.auth?.sessions;
  if (store === undefined) return [];
  return [
    "// ---- sessions ----",
    {
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      declarations: [{ name: names.table(store.table), type: "rt.TableSpec", initializer: literal({ name: store.table, ddl: store.ddl }) }],
    },
    statementSpec(store.create, names.statement(store.create.name)),
    statementSpec(store.find, names.statement(store.find.name)),
    statementSpec(store.end, names.statement(store.end.name)),
  ];
}

export function identityTables(model: Model, names: Names): string[] {
  const store = model.auth?.sessions;
  return store === undefined ? [] : [names.table(store.table)];
}

export function identityStatements(model: Model, names: Names): string[] {
  const store = model.auth?.sessions;
  return store === undefined ? [] : [store.create, store.find, store.end].map((s) => names.statement(s.name));
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
    const statements = `{ create: ${names.statement(s.create.name)}, find: ${names.statement(s.find.name)}, end: ${names.statement(s.end.name)} }`;
    fields.push(`sessions: { lifetimeS: ${s.lifetimeS}, cookie: ${JSON.stringify(s.cookie)}, table: ${names.table(s.table)}, statements: ${statements} }`);
  }
  return `{ ${fields.join(", ")} }`;
}
