import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { IdempotencyStoreModel, Model } from "../../analyze/model.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { statementSpec, tableSpecDeclaration } from "./shared.js";

// Idempotency keys in the generated server: the table of answers, its statements, and
// the spec's `idempotency` entry that runtime/idempotency runs them from. Absent from the
// output of a model without an action called over HTTP.

type Out = (string | StatementStructures)[];

const STATEMENTS = ["claim", "lookup", "expire", "settle", "sweep"] as const;

function statementsOf(store: IdempotencyStoreModel) {
  return STATEMENTS.map((role) => ({ role, statement: store[role] }));
}

/** The table, its five statements, and the `rt.IdempotencySpec` that names them. */
export function idempotencySection(model: Model, names: Names): Out {
  const store = model.idempotencyStore;
  if (store === undefined) return [];
  const fields = statementsOf(store).map(({ role, statement }) => `${role}: ${names.statement(statement.name)}`);
  return [
    "// ---- idempotency keys ----",
    tableSpecDeclaration(names.table(store.table), { name: store.table, ddl: store.ddl }),
    ...statementsOf(store).map(({ statement }) => statementSpec(statement, names.statement(statement.name))),
    {
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      docs: ["Action calls with an `Idempotency-Key` header run once; a retry gets the stored answer."],
      declarations: [{ name: names.idempotency(), type: "rt.IdempotencySpec", initializer: `{\n${fields.join(",\n")}\n}` }],
    },
  ];
}

/** The table of answers, for the spec's `tables`. */
export function idempotencyTables(model: Model, names: Names): string[] {
  return model.idempotencyStore === undefined ? [] : [names.table(model.idempotencyStore.table)];
}

/** Its statements, for the spec's `statements` (prepared at start with the others). */
export function idempotencyStatements(model: Model, names: Names): string[] {
  const store = model.idempotencyStore;
  return store === undefined ? [] : statementsOf(store).map(({ statement }) => names.statement(statement.name));
}

/** The spec's `idempotency` entry. */
export function idempotencySpecFields(model: Model, names: Names): string[] {
  return model.idempotencyStore === undefined ? [] : [`idempotency: ${names.idempotency()}`];
}
