import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { ActionModel, Model, QueryModel, Requirement, TargetRef } from "../../analyze/model.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { identityStatements, identityTables } from "./identity.js";
import { appSpecName, pageName, routeFileName } from "./pages.js";
import { idempotencySpecFields, idempotencyStatements, idempotencyTables } from "./idempotency.js";
import { answerJson } from "./answers.js";
import { queryValues } from "./calls.js";
import { streamConstName } from "./stream.js";
import { respondFunctionName } from "./respond.js";
import { authorizeCall, securitySpecFields, webhookHandlers, webhookStatements, webhookTables } from "./webhooks.js";
import { limitsField, limitsSpecFields } from "./limits.js";
import type { LimitModel } from "../../analyze/limits.js";
import { answersFile, fileParams } from "../../analyze/uploads.js";

type Out = (string | StatementStructures)[];

/** One endpoint per query and action: validate the input, then run (actions in one transaction). */
export function endpointSection(model: Model, names: Names): Out {
  const out: Out = ["// ---- endpoints ----"];
  // A private query or action has no URL of its own: it is an endpoint only for the route files that call it.
  const called = routeFileTargets(model);
  const queries = model.queries.filter((q) => !q.private || called.has(`${q.module}.${q.name}`));
  const handlers = webhookHandlers(model);
  // A webhook's handler runs only through its webhook, after the signature is checked.
  const actions = model.actions.filter(
    (a) => !handlers.has(`${a.module}.${a.name}`) && (!a.private || called.has(`${a.module}.${a.name}`)),
  );
  const answers = answerJson(model, queries, actions, names);
  out.push(...answers.functions);
  for (const q of queries) {
    const json = answers.byTarget.get(`${q.module}.${q.name}`);
    const input = names.input(q.module, q.name);
    const run = `(db, input) => ${names.fn(q.module, q.name)}(db, ${input}(input))`;
    out.push(endpointConst(q.module, q.name, "query", run, names, null, json, databaseAnswer(q, input, names)));
  }
  for (const a of actions) {
    const fn = names.fn(a.module, a.name);
    const input = names.input(a.module, a.name);
    // `a.transaction` is false for an action that runs at most one statement, with no
    // `fail` after it that would have to undo it: one statement is atomic on its own.
    const guard = authorizeCall(a.requires);
    const passCtx = a.context === true ? ", ctx" : "";
    const takesCtx = guard !== "" || a.context === true;
    const run =
      !a.transaction
        ? guard === ""
          ? `(db, input${passCtx}) => ${fn}(db, ${input}(input)${passCtx})`
          : `(db, input, ctx) => {\n${guard}return ${fn}(db, ${input}(input)${passCtx});\n}`
        : `(db, input${takesCtx ? ", ctx" : ""}) => {\n${guard}const args = ${input}(input);\nreturn ${transaction(a, `(tx) => ${fn}(tx, args${passCtx})`)};\n}`;
    if (a.autocommit === true) out.push("// `transaction none`: each statement commits on its own, without BEGIN/COMMIT.");
    else if (!a.transaction) out.push("// At most one statement and no `fail` after it: atomic on its own, without BEGIN/COMMIT.");
    out.push(endpointConst(a.module, a.name, "action", run, names, a.requires, answers.byTarget.get(`${a.module}.${a.name}`), undefined, a.issuesCredentials === true, a.credentials === true, a.limits, uploadFields(a)));
  }
  return out;
}

/** `files` (its `file` arguments) and `answersFile` of an action's endpoint (runtime/uploads). */
function uploadFields(a: ActionModel): string {
  const files = fileParams(a);
  return (files.length === 0 ? "" : `, files: new Set(${literal(files)})`) + (answersFile(a) ? ", answersFile: true" : "");
}

/**
 * An action's transaction. One that hashes or verifies a password does that work with the
 * transaction rolled back, then runs again (runtime/auth/password-work.ts); with a context,
 * a rolled-back attempt's cookies are dropped.
 */
function transaction(a: ActionModel, fn: string): string {
  const isolation = a.isolation === undefined ? "" : JSON.stringify(a.isolation);
  if (a.passwords !== true) return `db.transaction(${fn}${isolation === "" ? "" : `, { isolation: ${isolation} }`})`;
  const ctx = a.context === true ? ", ctx" : isolation === "" ? "" : ", undefined";
  return `rt.passwordTransaction(db, ${fn}${ctx}${isolation === "" ? "" : `, ${isolation}`})`;
}

/** The private queries and actions route files call: only these need an endpoint (and an input check). */
export function routeFileTargets(model: Model): Set<string> {
  const out = new Set<string>();
  for (const f of model.app?.routeFiles ?? []) for (const b of f.blocks) if (b.step) out.add(`${b.step.target.module}.${b.step.target.name}`);
  return out;
}

/**
 * `{ stmt, one, values }` for a query SQLite can answer as JSON itself (DialectSql.json): the
 * values are the query function's, from the same validated input.
 */
function databaseAnswer(q: QueryModel, input: string, names: Names): string | undefined {
  if (q.sql.dialects.sqlite?.json === undefined) return undefined;
  const values = q.params.length === 0 ? `{\n${input}(input);\nreturn [];\n}` : `{\nconst args = ${input}(input);\nreturn [${queryValues(q)}];\n}`;
  return `{ stmt: ${names.querySql(q.module, q.name)}, one: ${q.one}, values: (input) => ${values} }`;
}

function endpointConst(
  module: string,
  name: string,
  kind: "query" | "action",
  run: string,
  names: Names,
  requires: Requirement | null = null,
  json?: string,
  answer?: string,
  noStore = false,
  credentials = false,
  limits?: readonly LimitModel[],
  files = "",
): StatementStructures {
  // `requires` is also named outside `run`: an Idempotency-Key replay is authorized before it skips `run`.
  const extra =
    (requires === null ? "" : `, requires: ${literal(requires)}`) +
    // Its answers carry a token or a session: no cache may keep them, replays included.
    (noStore ? ", noStore: true" : "") +
    // Never recorded under an Idempotency-Key (runtime/core/server.ts drops its key).
    (credentials ? ", credentials: true" : "") +
    limitsField(limits) +
    files +
    (json === undefined ? "" : `, json: ${json}`) +
    (answer === undefined ? "" : `,\n// SQLite writes the answer's JSON itself (docs/language.md, "Generated code").\nanswer: ${answer}`);
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: names.endpoint(module, name),
        type: "rt.EndpointSpec",
        initializer: `{ kind: ${JSON.stringify(kind)}, name: ${JSON.stringify(`${module}.${name}`)}${extra}, run: ${run} }`,
      },
    ],
  };
}

/**
 * The server spec: tables, statements, and the route table, one entry per path and method in
 * the order the runtime matches them (docs/language.md §2.4): webhooks, module endpoints,
 * declared routes as declared, route files, pages, public/ files; the first entry whose path
 * and method match wins.
 */
export function specSection(model: Model, names: Names): Out {
  const endpoint = (t: TargetRef) => names.endpoint(t.module, t.name);
  const handlers = webhookHandlers(model);
  const entry = (method: string, path: string, segments: readonly string[], target: string) => {
    const split = segments.some((s) => s.startsWith(":")) ? `, segments: ${literal(segments)}` : "";
    return `{ method: ${JSON.stringify(method)}, path: ${JSON.stringify(path)}${split}, target: ${target} }`;
  };
  const app = model.app;
  const routes = [
    ...model.webhooks.map((w) => `{ method: "POST", path: ${JSON.stringify(w.path)}, target: { kind: "webhook", name: ${JSON.stringify(`${w.module}.${w.name}`)} } }`),
    ...model.queries
      .filter((q) => !q.private)
      .map((q) => `{ method: "GET", path: ${JSON.stringify(`/api/${q.module}:${q.name}`)}, target: { kind: "endpoint", endpoint: ${endpoint({ kind: "query", module: q.module, name: q.name })} } }`),
    ...model.actions
      .filter((a) => !handlers.has(`${a.module}.${a.name}`) && !a.private)
      .map((a) => `{ method: "POST", path: ${JSON.stringify(`/api/${a.module}:${a.name}`)}, target: { kind: "endpoint", endpoint: ${endpoint({ kind: "action", module: a.module, name: a.name })} } }`),
    ...model.routes.map(
      (r) =>
        `// ${r.source}\n${entry(r.method, r.path, r.segments, `{ kind: "endpoint", endpoint: ${endpoint(r.target)}${r.respond ? `, respond: ${respondFunctionName(names, r)}` : ""}${r.respond?.stream ? `, stream: ${streamConstName(names, r)}` : ""}${limitsField(r.limits)} }`)}`,
    ),
    ...(app?.routeFiles ?? []).flatMap((f) =>
      [...new Set(f.blocks.map((b) => b.method))].map((m) => entry(m, f.path, f.segments, `{ kind: "file", file: ${routeFileName(names, f)} }`)),
    ),
    ...(app?.pages ?? []).map((p) => entry("GET", p.path, p.segments, `{ kind: "page", page: ${pageName(names, p)} }`)),
    ...(app?.publicFiles ?? []).map((f) => `{ method: "GET", path: ${JSON.stringify(f.path)}, target: { kind: "asset" } }`),
  ];
  const statements = [
    ...model.queries.map((q) => names.querySql(q.module, q.name)),
    ...model.statements.map((s) => names.statement(s.name)),
    ...webhookStatements(model, names),
    ...idempotencyStatements(model, names),
    ...identityStatements(model, names),
    ...(model.uploads?.store === "database" ? ["rt.uploads.PUT_UPLOAD", "rt.uploads.GET_UPLOAD"] : []),
  ];
  const spec = [
    `name: ${JSON.stringify(model.name)}`,
    `version: ${JSON.stringify(model.version)}`,
    `tables: [${[...model.resources.map((r) => names.table(r.name)), ...webhookTables(model, names), ...idempotencyTables(model, names), ...identityTables(model, names), ...(model.uploads?.store === "database" ? ["rt.uploads.UPLOADS_TABLE"] : [])].join(", ")}]`,
    `statements: [${statements.join(", ")}]`,
    `routes: [\n${routes.join(",\n")}\n]`,
    `defaults: ${literal(model.defaults)}`,
    ...securitySpecFields(model, names),
    ...idempotencySpecFields(model, names),
    ...limitsSpecFields(model),
    ...(model.errorShape ? ["errors: errorShape"] : []),
    // svc.toml [uploads], defaults filled in (docs/operations.md, Uploads).
    ...(model.uploads ? [`uploads: ${literal(model.uploads)}`] : []),
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
