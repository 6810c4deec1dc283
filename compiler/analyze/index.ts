// Analysis: parsed module files and the parsed app folder in, one plain model and its
// diagnostics out. The steps, in the order analyze() runs them:
//   1. modules grouped by folder, one name each ............ here (groupModules)
//   2. resources, with their DDL per dialect ............... declarations/resource.ts, sql/ddl/
//      their declared changes, the schema ................. declarations/resource-changes.ts, declarations/schema.ts
//   3. the SQL checker for the project's backend ........... steps.ts, sql/
//   4. per module: record types, queries ................... declarations/record-types.ts, declarations/query.ts
//   5. per module: fns and actions, analyzed on demand ..... declarations/fn.ts, declarations/action-table.ts,
//      their bodies ........................................ declarations/action.ts, expressions/, answers/
//      and which of them write ............................. checks/writes.ts
//   6. per module: routes and webhooks ..................... declarations/route.ts, declarations/webhook.ts
//   7. per module: transaction clauses, sensitive fields,
//      untyped answers ..................................... transactions/transaction-check.ts,
//                                                            checks/visibility.ts, answers/untyped-answers.ts
//   8. what each action reaches through its calls:
//      credentials, fail statuses, the caller .............. checks/credential-actions.ts, checks/action-reach.ts
//   9. the app folder: route files, pages, public/ ......... app/
//  10. arguments that may arrive as text, password work ... checks/text-args.ts, checks/passwords.ts
//  11. no method and path claimed twice; each query's
//      and action's endpoint ............................... declarations/route.ts (checkRouteTable), route-table.ts
//  12. webhook handlers, identity use, reserved tables .... declarations/webhook.ts, here, stores/
//  13. the model assembled: the route table in match
//      order, svc's own stores, credentials, limits,
//      uploads ............................................. route-table.ts, stores/, config/, model/

import { analyzeCodes as codes } from "../diagnostics/codes/analyze.js";
import { identityCodes } from "../diagnostics/codes/identity.js";
import { REVOCATIONS_TABLE, SESSIONS_TABLE } from "./stores/session-store.js";
import { webhookCodes } from "../diagnostics/codes/webhooks.js";
import { sqlCodes } from "../diagnostics/codes/sql.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Decl, ModuleFile, Span } from "../parse/ast.js";
import { analyzeAction } from "./declarations/action.js";
import { checkModuleTransactions } from "./transactions/transaction-check.js";
import { ActionTable } from "./declarations/action-table.js";
import { FnTable } from "./declarations/fn.js";
import { warnSensitiveEndpoints } from "./checks/visibility.js";
import { type AppInput, analyzeApp, appScope } from "./app/app.js";
import type { ProjectConfig } from "../project/config/schema.js";
import { authModel, credentialModels, identityFeatures } from "./config/credentials.js";
import { markCredentialActions } from "./checks/credential-actions.js";
import { markActionReach } from "./checks/action-reach.js";
import { assignEndpoints, buildRouteTable } from "./route-table.js";
import type {
  ActionModel,
  AuthModel,
  Backend,
  ExpressionType,
  RecordTypeModel,
  FnModel,
  Model,
  QueryModel,
  ResourceModel,
  RouteModel,
  ScheduleModel,
  ServerDefaults,
  StatementModel,
  WebhookModel,
} from "./model/model.js";
import { analyzeQuery } from "./declarations/query.js";
import { analyzeTypes } from "./declarations/record-types.js";
import { analyzeResource } from "./declarations/resource.js";
import { analyzeChanges, warnRetypesInPlace } from "./declarations/resource-changes.js";
import { analyzeSchema } from "./declarations/schema.js";
import { type LocatedRoute, analyzeRoute, checkRouteTable } from "./declarations/route.js";
import { Reporter, place } from "./shared/context.js";
import type { ModuleScope } from "./expressions/scope.js";
import { allTableDdl } from "./sql/ddl/index.js";
import { analyzeWebhook, checkWebhookHandlers } from "./declarations/webhook.js";
import { warnUntypedAnswers } from "./answers/untyped-answers.js";
import { DELIVERIES_TABLE, deliveryStore } from "./stores/webhook-store.js";
import { IDEMPOTENCY_TABLE, idempotencyStore } from "./stores/idempotency-store.js";
import { UPLOADS_TABLE, uploadsModel } from "./config/uploads.js";
import { LIMITS_TABLE, limitsModel } from "./config/limits.js";
import { type AnalyzeSteps, directSteps } from "./steps.js";
import { assignTextArgs } from "./checks/text-args.js";
import { markPasswordWork } from "./checks/passwords.js";
import { markWrites } from "./checks/writes.js";
import { analyzeJob, jobSignatures } from "./declarations/job.js";
import { analyzeSchedule } from "./declarations/schedule.js";
import { jobCodes } from "../diagnostics/codes/jobs.js";
import type { JobDecl } from "../parse/ast.js";
import { analyzeEvents, eventsModel } from "./declarations/event.js";
import { eventCodes } from "../diagnostics/codes/events.js";
import { DELIVERIES_TABLE as OUTBOX_DELIVERIES_TABLE, OUTBOX_TABLE } from "../../runtime/outbox/table.js";

/** The parsed files of one module folder. */
export interface ParsedModuleDir {
  dir: string;
  files: ModuleFile[];
}

export interface AnalyzeInput {
  name: string;
  version: string;
  mode: Model["mode"];
  config: ProjectConfig;
  modules: ParsedModuleDir[];
  sources: string[];
  /** Project mode: the app folder (route files, pages, layout) and public/. */
  app?: AppInput;
  /** The backend whose SQL rules apply, instead of svc.toml's `[database] backend` (`svc check --db`). */
  backend?: Backend;
  /**
   * How route files are parsed, SQL, templates and page.jq checked: `svc dev`'s build cache
   * answers unchanged texts from the last build; default, all afresh.
   */
  steps?: AnalyzeSteps;
  /** Where analysis adds the type of every expression it types, when given (`svc lsp`). */
  expressionTypes?: ExpressionType[];
}

interface ModuleDecls {
  name: string;
  decls: { decl: Decl; file: string }[];
}

/**
 * Resolve every name, type every expression, check every SQL statement against the
 * declared resources, and hand back one plain model. Never throws on bad input:
 * problems are diagnostics, and the model is as complete as the input allows.
 */
export function analyze(input: AnalyzeInput): { model: Model; diagnostics: Diagnostic[] } {
  const r = new Reporter();
  const steps = input.steps ?? directSteps;
  const modules = groupModules(input.modules, r);

  // Resources first: every query and action of every module may use any table.
  const resources: ResourceModel[] = [];
  const resourceSeen = new Map<string, string>();
  const resourceDecls = new Map<string, { file: string; span: Span }>();
  for (const m of modules) {
    for (const { decl, file } of m.decls) {
      if (decl.kind !== "Resource") continue;
      const other = resourceSeen.get(decl.name.name);
      if (other) {
        r.add(codes.duplicateDeclaration.at(file, decl.name.span, "resource", decl.name.name, other));
        continue;
      }
      resourceSeen.set(decl.name.name, place(file, decl.name.span));
      resourceDecls.set(decl.name.name, { file, span: decl.name.span });
      const shape = analyzeResource(m.name, decl, file, r);
      const changes = analyzeChanges(decl, shape, file, r);
      if (changes) warnRetypesInPlace(changes, input.backend ?? input.config.database.backend, r);
      resources.push(changes ? { ...shape, ddl: allTableDdl(shape), changes } : { ...shape, ddl: allTableDdl(shape) });
    }
  }
  const resourceMap = new Map(resources.map((x) => [x.name, x]));
  const schema = analyzeSchema(modules.flatMap((m) => m.decls), resources, resourceDecls, r);

  // SQL is checked with SQLite (names, types), then for the backend the project runs on.
  const checker = steps.sqlChecker(resources, input.backend ?? input.config.database.backend);
  for (const t of checker.rejectedTables) {
    const at = resourceDecls.get(t.resource);
    if (at) r.add(sqlCodes.tableRejected.at(at.file, at.span, t.resource, t.message));
  }
  const queries: QueryModel[] = [];
  const actions: ActionModel[] = [];
  const statements = new Map<string, StatementModel>();
  const routes: RouteModel[] = [];
  /** Routes and webhook paths together, in declaration order, for the one route-table check. */
  const claims: LocatedRoute[] = [];
  const webhooks: WebhookModel[] = [];
  const types: RecordTypeModel[] = [];
  const fnModels: FnModel[] = [];
  const schedules: ScheduleModel[] = [];
  const auth = authModel(input.config);
  const identity = identityFeatures(auth);
  const declaredCredentials = input.mode === "project" ? Object.keys(input.config.credentials) : null;
  // Record types and events before any action: an action may emit an event another module declares.
  const typesByModule = new Map(modules.map((m) => [m.name, analyzeTypes(m.name, m.decls, r)] as const));
  const events = analyzeEvents(modules, typesByModule, r);
  try {
    for (const m of modules) {
      checkEndpointNames(m, r);
      const moduleTypes = typesByModule.get(m.name)!;
      types.push(...moduleTypes.values());
      const moduleQueries = new Map<string, QueryModel>();
      for (const { decl, file } of m.decls) {
        if (decl.kind !== "Query" || moduleQueries.has(decl.name.name)) continue;
        const q = analyzeQuery(m.name, decl, file, r, checker, resourceMap, moduleTypes);
        moduleQueries.set(q.name, q);
        queries.push(q);
      }
      const moduleScope: Omit<ModuleScope, "file"> = {
        module: m.name,
        resources: resourceMap,
        queries: moduleQueries,
        statements,
        checker,
        reporter: r,
        ...(input.expressionTypes ? { typed: input.expressionTypes } : {}),
        types: moduleTypes,
        events,
        identity,
      };
      // Actions and fns may call each other in any order: each is analyzed when first needed.
      const fns = new FnTable(pick(m, "Fn").filter(({ decl }) => !moduleQueries.has(decl.name.name)), moduleScope);
      const table: ActionTable = new ActionTable(
        pick(m, "Action").filter(({ decl }) => !moduleQueries.has(decl.name.name)),
        (decl, file) => analyzeAction(decl, { ...moduleScope, file, actions: table, fns }),
        r,
      );
      // A fn sees the module's actions only to say it cannot call them (SVC2073).
      moduleScope.actions = table;
      const jobDecls = pick(m, "Job").filter(({ decl }) => !moduleQueries.has(decl.name.name) && !table.has(decl.name.name));
      moduleScope.jobs = jobSignatures(moduleScope, jobDecls);
      const moduleActions = table.all();
      // Before routes and route files, which may not reach a write from a GET.
      markWrites(moduleActions, statements);
      actions.push(...moduleActions.values());
      actions.push(...analyzeJobs(jobDecls, { ...moduleScope, actions: table, fns }, r));
      for (const { decl, file } of pick(m, "Schedule")) {
        const s = analyzeSchedule(m.name, decl, file, moduleScope.jobs, (name) => table.has(name), r);
        if (s) schedules.push(s);
      }
      fns.checkUncalled();
      fnModels.push(...fns.models());
      for (const { decl, file } of m.decls) {
        if (decl.kind === "Route") {
          const route = analyzeRoute(m.name, decl, file, { actions: moduleActions, queries: moduleQueries, resources: resourceMap, identity: identity.any }, r);
          if (route) {
            routes.push(route);
            claims.push({ route, file, span: decl.span });
          }
        } else if (decl.kind === "Webhook") {
          const hook = analyzeWebhook(m.name, decl, file, moduleActions, r, declaredCredentials);
          if (hook) {
            webhooks.push(hook);
            claims.push({ route: webhookRoute(hook), file, span: decl.span, exact: true });
          }
        }
      }
      checkModuleTransactions(m, moduleActions, statements, webhooks, r);
      warnSensitiveEndpoints(m.name, m.decls, moduleQueries, moduleActions, webhooks, resourceMap, r);
      // An answer left untyped by an error is that error's consequence, not a gap to warn about.
      if (!r.diagnostics.some((d) => d.severity === "error")) {
        warnUntypedAnswers(m.decls, moduleQueries, moduleActions, webhooks, [...moduleQueries.values()], resourceMap, r);
      }
    }
  } finally {
    checker.dispose();
  }
  // Before route files, whose steps copy it from the actions they invoke.
  markCredentialActions(actions, fnModels);
  markActionReach(actions, fnModels);
  // Route files and pages come after the modules' routes and webhooks in the one route table.
  const app = input.app ? analyzeApp(input.app, appScope(modules.map((m) => m.name), queries, actions, resourceMap, webhooks, identity.any), r, steps) : null;
  if (app) claims.push(...app.claims);
  assignTextArgs([...queries, ...actions], routes, app?.app ?? null);
  markPasswordWork(actions);
  checkRouteTable(claims, r);
  assignEndpoints(queries, actions, webhooks, app?.app ?? null);
  checkWebhookHandlers(claims, webhooks, r);
  checkIdentityUse(actions, webhooks, auth, resourceDecls, modules, r);
  const reserved = resourceDecls.get(DELIVERIES_TABLE);
  if (webhooks.length > 0 && reserved) {
    r.add(webhookCodes.reservedTable.at(reserved.file, reserved.span, DELIVERIES_TABLE, "handled webhook deliveries"));
  }
  // Every action but a webhook's handler is called over HTTP, and may be with an Idempotency-Key.
  const calledOverHttp = actions.some((a) => a.endpoint?.kind !== "webhook");
  const reservedKeys = resourceDecls.get(IDEMPOTENCY_TABLE);
  if (calledOverHttp && reservedKeys) {
    r.add(webhookCodes.reservedTable.at(reservedKeys.file, reservedKeys.span, IDEMPOTENCY_TABLE, "the answers of calls made with an Idempotency-Key"));
  }

  const model: Model = {
    name: input.name,
    version: input.version,
    mode: input.mode,
    sources: [...input.sources].sort(),
    modules: modules.map((m) => m.name),
    resources,
    queries,
    actions,
    statements: [...statements.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    routes,
    webhooks,
    routeTable: buildRouteTable(webhooks, queries, actions, routes, app?.app ?? null),
    defaults: serverDefaults(input.config),
  };
  if (schema) model.schema = schema;
  // Present only when used, so models of projects without them stay as they were.
  const eventsDeclared = eventsModel(input.config, events, r);
  const credentials = credentialModels(input.config, webhooks, eventsDeclared);
  if (credentials.length > 0) model.credentials = credentials;
  if (auth !== null) model.auth = auth;
  if (webhooks.length > 0) model.deliveryStore = deliveryStore();
  if (calledOverHttp) model.idempotencyStore = idempotencyStore();
  if (app) model.app = app.app;
  if (types.length > 0) model.types = types;
  if (eventsDeclared !== null) {
    model.events = eventsDeclared;
    for (const table of [OUTBOX_TABLE, OUTBOX_DELIVERIES_TABLE]) {
      const taken = resourceDecls.get(table);
      if (taken) r.add(eventCodes.reservedOutboxTable.at(taken.file, taken.span, table));
    }
  }
  if (fnModels.length > 0) model.fns = fnModels;
  if (schedules.length > 0) model.schedules = schedules;
  const limits = limitsModel(input.config.auth.throttle, actions, routes, app?.app ?? null);
  if (limits !== null) {
    model.limits = limits;
    const reservedLimits = resourceDecls.get(LIMITS_TABLE);
    if (reservedLimits) r.add(webhookCodes.reservedTable.at(reservedLimits.file, reservedLimits.span, LIMITS_TABLE, "rate-limit counters"));
  }
  const uploads = uploadsModel(input.config, actions, resources);
  if (uploads !== null) {
    model.uploads = uploads;
    const reservedUploads = resourceDecls.get(UPLOADS_TABLE);
    if (uploads.store === "database" && reservedUploads) r.add(webhookCodes.reservedTable.at(reservedUploads.file, reservedUploads.span, UPLOADS_TABLE, "uploaded files"));
  }
  const errors = input.config.errors;
  if (errors.body !== undefined || errors.validation_status !== undefined) {
    // Without a body, a shaped route's errors keep the envelope's shape; only the status changes.
    model.errorShape = { body: errors.body ?? { ok: false, error: "{message}" }, validationStatus: errors.validation_status ?? 400 };
  }
  return { model, diagnostics: r.diagnostics };
}

/** Each job once, as a private action with its options; a job has no caller to read (SVC8016). */
function analyzeJobs(decls: readonly { decl: JobDecl; file: string }[], m: Omit<ModuleScope, "file">, r: Reporter): ActionModel[] {
  const out = new Map<string, ActionModel>();
  for (const { decl, file } of decls) {
    if (out.has(decl.name.name)) continue;
    const model = analyzeJob(decl, { ...m, file });
    if (model.context === true || model.issuesCredentials === true) r.add(jobCodes.jobCaller.at(file, decl.name.span, decl.name.name));
    out.set(decl.name.name, model);
  }
  return [...out.values()];
}

/** The declarations of one kind in a module, with their files. */
function pick<K extends Decl["kind"]>(m: ModuleDecls, kind: K): { decl: Extract<Decl, { kind: K }>; file: string }[] {
  return m.decls.filter((d): d is { decl: Extract<Decl, { kind: K }>; file: string } => d.decl.kind === kind);
}

/**
 * A webhook's handler has no caller (the signature is its proof), and with sessions the
 * table `svc_sessions` is the server's, with JWTs `svc_revocations`.
 */
function checkIdentityUse(
  actions: readonly ActionModel[],
  webhooks: readonly WebhookModel[],
  auth: AuthModel | null,
  resourceDecls: ReadonlyMap<string, { file: string; span: Span }>,
  modules: readonly ModuleDecls[],
  r: Reporter,
): void {
  for (const w of webhooks) {
    const a = actions.find((x) => x.module === w.handler.module && x.name === w.handler.name);
    if (a?.context !== true) continue;
    const decl = modules.find((m) => m.name === a.module)?.decls.find((d) => d.decl.kind === "Action" && d.decl.name.name === a.name);
    if (decl && decl.decl.kind === "Action") r.add(identityCodes.identityInWebhook.at(decl.file, decl.decl.name.span, a.name));
  }
  const reserved = resourceDecls.get(SESSIONS_TABLE);
  if (auth?.sessions !== undefined && reserved) r.add(identityCodes.reservedSessionsTable.at(reserved.file, reserved.span, SESSIONS_TABLE));
  const revocations = resourceDecls.get(REVOCATIONS_TABLE);
  if (auth?.jwt !== undefined && revocations) r.add(identityCodes.reservedRevocationsTable.at(revocations.file, revocations.span, REVOCATIONS_TABLE));
}

/** A webhook claims `POST <path>` like a route does; this lets one check see both. */
function webhookRoute(w: WebhookModel): RouteModel {
  return {
    module: w.module,
    method: "POST",
    path: w.path,
    segments: w.path === "/" ? [] : w.path.slice(1).split("/"),
    target: w.handler,
    source: w.source,
  };
}

/** Module name per folder: every file of a folder must name the same module, and no two folders one name. */
function groupModules(dirs: ParsedModuleDir[], r: Reporter): ModuleDecls[] {
  const out: ModuleDecls[] = [];
  const byName = new Map<string, { dir: string; span: Span; file: string }>();
  for (const dir of dirs) {
    const named = dir.files.find((f) => f.module !== null);
    if (!named?.module) continue; // the parser reported the missing header
    const name = named.module.name;
    const other = byName.get(name);
    if (other) {
      r.add(codes.duplicateDeclaration.at(named.file, named.module.span, "module", name, `${other.file}:${other.span.start.line}:${other.span.start.column}`));
      continue;
    }
    byName.set(name, { dir: dir.dir, span: named.module.span, file: named.file });
    const decls: ModuleDecls["decls"] = [];
    for (const f of dir.files) {
      if (f.module && f.module.name !== name) {
        r.add(codes.moduleNameMismatch.at(f.file, f.module.span, f.module.name, name));
        continue;
      }
      for (const decl of f.decls) decls.push({ decl, file: f.file });
    }
    out.push({ name, decls });
  }
  return out;
}

/**
 * Queries, actions, fns and webhooks share one namespace: queries and actions are endpoints at
 * `/api/<module>:<name>` (unless private), and a call names any of them the same way.
 * (Resources are one namespace across modules, checked where they are collected.)
 */
function checkEndpointNames(m: ModuleDecls, r: Reporter): void {
  const seen = new Map<string, string>();
  for (const { decl, file } of m.decls) {
    if (decl.kind === "Route" || decl.kind === "Resource" || decl.kind === "Type" || decl.kind === "DropResource") continue;
    const other = seen.get(decl.name.name);
    if (other) r.add(codes.duplicateDeclaration.at(file, decl.name.span, decl.kind.toLowerCase(), decl.name.name, other));
    else seen.set(decl.name.name, place(file, decl.name.span));
  }
}

function serverDefaults(c: ProjectConfig): ServerDefaults {
  const d: ServerDefaults = {};
  if (c.server.listen !== undefined) d.listen = c.server.listen;
  if (c.database.backend !== undefined) d.backend = c.database.backend;
  if (c.database.url !== undefined) d.db = c.database.url;
  if (c.server.cors_origin !== undefined) d.corsOrigin = c.server.cors_origin;
  if (c.server.read_timeout_ms !== undefined) d.readTimeoutMs = c.server.read_timeout_ms;
  if (c.server.write_timeout_ms !== undefined) d.writeTimeoutMs = c.server.write_timeout_ms;
  if (c.server.max_body_size !== undefined) d.maxBodySize = c.server.max_body_size;
  if (c.server.workers !== undefined) d.workers = c.server.workers;
  if (c.server.log_level !== undefined) d.logLevel = c.server.log_level;
  if (c.server.public_url !== undefined) d.publicUrl = c.server.public_url;
  if (c.server.trust_proxy !== undefined) d.trustProxy = c.server.trust_proxy;
  if (c.server.openapi !== undefined) d.openapi = c.server.openapi;
  if (c.server.header !== undefined) d.serverHeader = c.server.header;
  if (c.server.metrics !== undefined) d.metrics = c.server.metrics;
  if (c.server.metrics_listen !== undefined) d.metricsListen = c.server.metrics_listen;
  if (c.server.metrics_token !== undefined) d.metricsToken = c.server.metrics_token;
  return d;
}
