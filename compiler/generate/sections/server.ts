import { jobsSpecEntry } from "./jobs.js";
import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { ActionModel, Model, QueryModel, Requirement } from "../../analyze/model/model.js";
import { literal } from "../literal.js";
import { SQL_MODULE } from "../sql-file.js";
import type { Names } from "../names.js";
import { appSpecName } from "./pages.js";
import { idempotencySpecFields } from "./idempotency.js";
import { answerJson } from "./answers.js";
import { queryValues } from "./calls.js";
import { authorizeCall, securitySpecFields } from "./webhooks.js";
import { limitsField, limitsSpecFields } from "./limits.js";
import { routeTableEntries } from "./route-table.js";
import type { LimitModel } from "../../analyze/config/limits.js";
import { answersFile, fileParams } from "../../analyze/config/uploads.js";
import type { EventsModel } from "../../analyze/model/model.js";

type Out = (string | StatementStructures)[];

/** One endpoint per query and action: validate the input, then run (actions in one transaction). */
export function endpointSection(model: Model, names: Names): Out {
  const out: Out = ["// ---- endpoints ----"];
  // A private query or action has no URL of its own: it is an endpoint only for the route files
  // that call it. A webhook's handler runs only through its webhook, after the signature is checked.
  const isEndpoint = (t: QueryModel | ActionModel) => t.endpoint?.kind === "url" || t.endpoint?.kind === "route files";
  const queries = model.queries.filter(isEndpoint);
  const actions = model.actions.filter(isEndpoint);
  const answers = answerJson(model, queries, actions, names);
  out.push(...answers.functions);
  for (const q of queries) {
    const json = answers.byTarget.get(q);
    const input = names.input(q.module, q.name);
    const run = `(db, input) => ${names.fn(q.module, q.name)}(db, ${input}(input))`;
    const answer = databaseAnswer(q, input, names);
    if (answer !== null) out.push(answer.structure);
    out.push(endpointConst(q.module, q.name, "query", run, names, null, json, answer?.name));
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
    out.push(endpointConst(a.module, a.name, "action", run, names, a.requires, answers.byTarget.get(a), undefined, a.issuesCredentials === true, a.credentials === true, a.limits, uploadFields(a)));
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

/**
 * For a query SQLite can answer as JSON itself (DialectSql.json), the function its endpoint's
 * `answer` names: the database writes the answer's text, with the query function's values
 * from the same validated input.
 */
function databaseAnswer(q: QueryModel, input: string, names: Names): { name: string; structure: StatementStructures } | null {
  if (q.sql.dialects.sqlite?.json === undefined) return null;
  const name = names.databaseJson(q.module, q.name);
  const sql = names.querySql(q.module, q.name);
  const args = q.params.length === 0 ? `${input}(input);\n` : `const args = ${input}(input);\n`;
  const values = q.params.length === 0 ? "" : queryValues(q);
  return {
    name,
    structure: {
      kind: StructureKind.Function,
      name,
      docs: [
        `The answer of \`${q.module}.${q.name}\` as SQLite writes it, by the \`json\` form of ${sql} (${SQL_MODULE}.ts),\n` +
          "sent as it comes; undefined on PostgreSQL and MySQL, where `run` and `json` answer.",
      ],
      parameters: [
        { name: "db", type: "rt.Database" },
        { name: "input", type: "rt.CallInput" },
      ],
      returnType: "rt.Awaitable<string> | undefined",
      statements: `if (db.json === undefined) return undefined;\n${args}return db.json(${sql}, [${values}], ${q.one});`,
    },
  };
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
    (answer === undefined ? "" : `, answer: ${answer}`);
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
 * The server spec: tables, statements, and the model's route table, one entry per path and
 * method in the order the runtime matches them (docs/language.md §2.4); the first entry whose
 * path and method match wins.
 */
export function specSection(model: Model, names: Names): Out {
  const routes = routeTableEntries(model, names);
  const statements = [
    ...model.queries.map((q) => names.querySql(q.module, q.name)),
    ...model.statements.map((s) => names.statement(s.name)),
    ...(model.uploads?.store === "database" ? ["rt.uploads.PUT_UPLOAD", "rt.uploads.GET_UPLOAD"] : []),
  ];
  const spec = [
    `name: ${JSON.stringify(model.name)}`,
    `version: ${JSON.stringify(model.version)}`,
    `tables: [${[...model.resources.map((r) => names.table(r.name)), ...(model.uploads?.store === "database" ? ["rt.uploads.UPLOADS_TABLE"] : [])].join(", ")}]`,
    `statements: [${statements.join(", ")}]`,
    // The schema's hash and the tables dropped (docs/language.md §2.1, Changing a resource).
    ...(model.schema ? [`schema: ${literal({ build: model.schema.build, dropTables: model.schema.dropTables.map((t) => t.name) })}`] : []),
    `routes: [\n${routes.join(",\n")}\n]`,
    `defaults: ${literal(model.defaults)}`,
    ...securitySpecFields(model, names),
    ...idempotencySpecFields(model),
    ...limitsSpecFields(model),
    ...(model.errorShape ? ["errors: errorShape"] : []),
    // svc.toml [uploads], defaults filled in (docs/operations.md, Uploads).
    ...(model.uploads ? [`uploads: ${literal(model.uploads)}`] : []),
    // svc.toml [events], defaults filled in: the outbox's delivery loop (docs/language.md §2.9).
    ...(model.events ? [`events: ${literal(eventsSpec(model.events))}`] : []),
    ...(model.app ? [`app: ${appSpecName(model, names)}`] : []),
    ...jobsSpecEntry(model, names),
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

/** The runtime's EventsSpec: what the delivery loop needs; the events' members were checked at build time. */
function eventsSpec(events: EventsModel): Omit<EventsModel, "declared"> {
  const { declared: _declared, ...spec } = events;
  return spec;
}
