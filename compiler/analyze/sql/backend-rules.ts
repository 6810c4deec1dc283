import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { Backend } from "../model/model.js";
import type { ResourceShape } from "./ddl/shared.js";
import { type SqlCheckInput, type SqlChecker, describeOwner } from "./dialect.js";
import { mysqlRules } from "./mysql/rules.js";
import { BACKEND_NAMES, type RuleBackend, type RuleContext, findCalls } from "./portability.js";
import { postgresRules } from "./postgres/rules.js";
import { tableRefs } from "./refs.js";
import { tokenize } from "./tokens.js";

// The SQL checker for the backend svc.toml chooses (`[database] backend`): the SQLite
// checker (names, types, result columns) and then that backend's rules
// (portability.ts, postgres/rules.ts, mysql/rules.ts).

/**
 * The checker for `backend`: the SQLite checker's result plus the rules of the chosen
 * backend. SQLite (or no backend chosen) adds nothing.
 */
export function withBackendRules(
  base: SqlChecker,
  backend: Backend | undefined,
  resources: readonly ResourceShape[],
): SqlChecker {
  if (backend === undefined || backend === "sqlite") return base;
  return {
    dialect: base.dialect,
    rejectedTables: base.rejectedTables,
    check(input) {
      const result = base.check(input);
      return { ...result, diagnostics: [...result.diagnostics, ...backendDiagnostics(input, backend, resources)] };
    },
    dispose() {
      base.dispose();
    },
  };
}

/** The diagnostics of `backend`'s rules for one SQL block. */
export function backendDiagnostics(
  input: SqlCheckInput,
  backend: RuleBackend,
  resources: readonly ResourceShape[],
): Diagnostic[] {
  const tokens = tokenize(input.body.text);
  const ctx: RuleContext = {
    input,
    tokens,
    refs: tableRefs(tokens),
    resources,
    backend,
    backendName: BACKEND_NAMES[backend],
    where: describeOwner(input),
    calls: findCalls(tokens),
    out: [],
  };
  if (backend === "postgres") postgresRules(ctx);
  else mysqlRules(ctx);
  return ctx.out;
}
