import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { IrExpr, IrStmt, Model, TargetRef } from "../../analyze/model.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { appSpecName } from "./pages.js";
import { authorizeCall, securitySpecFields, webhookHandlers, webhookStatements, webhookTables } from "./webhooks.js";

type Out = (string | StatementStructures)[];

/** One endpoint per query and action: validate the input, then run (actions in one transaction). */
export function endpointSection(model: Model, names: Names): Out {
  const out: Out = ["// ---- endpoints ----"];
  for (const q of model.queries) {
    out.push(endpointConst(q.module, q.name, "query", `(db, input) => ${names.fn(q.module, q.name)}(db, ${names.input(q.module, q.name)}(input))`, names));
  }
  const handlers = webhookHandlers(model);
  for (const a of model.actions) {
    // A webhook's handler runs only through its webhook, after the signature is checked.
    if (handlers.has(`${a.module}.${a.name}`)) continue;
    const fn = names.fn(a.module, a.name);
    const input = names.input(a.module, a.name);
    // One statement is atomic on its own: an action that runs at most one, with no `fail`
    // after it that would have to undo it, needs no BEGIN/COMMIT (two statements saved).
    const guard = authorizeCall(a.requires);
    const run =
      !needsTransaction(a.body)
        ? guard === ""
          ? `(db, input) => ${fn}(db, ${input}(input))`
          : `(db, input, ctx) => {\n${guard}return ${fn}(db, ${input}(input));\n}`
        : `(db, input${guard === "" ? "" : ", ctx"}) => {\n${guard}const args = ${input}(input);\nreturn db.transaction((tx) => ${fn}(tx, args));\n}`;
    out.push(endpointConst(a.module, a.name, "action", run, names));
  }
  return out;
}

/**
 * Does an action need an explicit transaction? Yes when it has two or more statements,
 * or a `fail` after its statement in source order (there are no loops, so source order
 * bounds every execution order).
 */
export function needsTransaction(body: readonly IrStmt[]): boolean {
  let statements = 0;
  let failAfterStatement = false;
  const walk = (stmts: readonly IrStmt[]): void => {
    for (const s of stmts) {
      if (s.kind === "fail" && statements > 0) failAfterStatement = true;
      statements += countStatements([s.kind === "if" ? { ...s, then: [], else: [] } : s]);
      if (s.kind === "if") {
        walk(s.then);
        walk(s.else);
      }
    }
  };
  walk(body);
  return statements > 1 || failAfterStatement;
}

/** How many database statements an action body contains, counting every branch. */
export function countStatements(stmts: readonly IrStmt[]): number {
  let n = 0;
  const visit = (e: IrExpr): void => {
    switch (e.kind) {
      case "query":
      case "record":
        n++;
        break;
      // The callee may write several times or fail after writing: always a transaction.
      case "action":
        n += 2;
        break;
    }
    forEachChild(e, visit);
  };
  for (const s of stmts) {
    switch (s.kind) {
      case "let":
        visit(s.value);
        break;
      case "if":
        visit(s.cond);
        n += countStatements(s.then) + countStatements(s.else);
        break;
      case "fail":
        visit(s.message);
        break;
      case "return":
        if (s.value) visit(s.value);
        break;
      case "expr":
        visit(s.expr);
        break;
      case "sql":
        n++;
        s.args.forEach(visit);
        break;
    }
  }
  return n;
}

function forEachChild(e: IrExpr, f: (child: IrExpr) => void): void {
  switch (e.kind) {
    case "member":
      f(e.object);
      break;
    case "object":
      e.entries.forEach((x) => f(x.value));
      break;
    case "array":
      e.items.forEach(f);
      break;
    case "binary":
      f(e.left);
      f(e.right);
      break;
    case "unary":
      f(e.operand);
      break;
    case "builtin":
      e.args.forEach(f);
      break;
    case "query":
    case "action":
      e.args.forEach((a) => f(a.value));
      break;
    case "record":
      if (e.op !== "insert") f(e.key);
      if (e.op === "insert" || e.op === "update") e.fields.forEach((w) => f(w.value));
      break;
  }
}

function endpointConst(module: string, name: string, kind: "query" | "action", run: string, names: Names): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: names.endpoint(module, name),
        type: "rt.EndpointSpec",
        initializer: `{ kind: ${JSON.stringify(kind)}, name: ${JSON.stringify(`${module}.${name}`)}, run: ${run} }`,
      },
    ],
  };
}

/**
 * The server spec: tables, statements, and the route table precomputed at build time
 * (exact paths for `/api/<module>:<name>`, declared routes in declaration order).
 */
export function specSection(model: Model, names: Names): Out {
  const endpoint = (t: TargetRef) => names.endpoint(t.module, t.name);
  const handlers = webhookHandlers(model);
  const staticRoutes = [
    ...model.queries.map((q) => `{ method: "GET", path: ${JSON.stringify(`/api/${q.module}:${q.name}`)}, endpoint: ${endpoint({ kind: "query", module: q.module, name: q.name })} }`),
    ...model.actions
      .filter((a) => !handlers.has(`${a.module}.${a.name}`))
      .map((a) => `{ method: "POST", path: ${JSON.stringify(`/api/${a.module}:${a.name}`)}, endpoint: ${endpoint({ kind: "action", module: a.module, name: a.name })} }`),
  ];
  const paramRoutes = model.routes.map(
    (r) => `// ${r.source}\n{ method: ${JSON.stringify(r.method)}, path: ${JSON.stringify(r.path)}, segments: ${literal(r.segments)}, endpoint: ${endpoint(r.target)} }`,
  );
  const statements = [
    ...model.queries.map((q) => names.statement(`${q.module}.${q.name}`)),
    ...model.statements.map((s) => names.statement(s.name)),
    ...webhookStatements(model, names),
  ];
  const spec = [
    `name: ${JSON.stringify(model.name)}`,
    `version: ${JSON.stringify(model.version)}`,
    `tables: [${[...model.resources.map((r) => names.table(r.name)), ...webhookTables(model, names)].join(", ")}]`,
    `statements: [${statements.join(", ")}]`,
    `staticRoutes: [\n${staticRoutes.join(",\n")}\n]`,
    `paramRoutes: [\n${paramRoutes.join(",\n")}\n]`,
    `defaults: ${literal(model.defaults)}`,
    ...securitySpecFields(model, names),
    ...(model.app ? [`app: ${appSpecName(model, names)}`] : []),
  ];
  return [
    "// ---- server ----",
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      declarations: [{ name: "spec", type: "rt.ServerSpec", initializer: `{\n${spec.join(",\n")}\n}` }],
    },
    "// Run directly (`node dist/server.js [flags]`), this module serves; imported, it only exports.",
    "if (rt.isEntry(import.meta.url)) void rt.main(spec);",
  ];
}
