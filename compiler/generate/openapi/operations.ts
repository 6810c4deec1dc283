// Every operation a client can call, in one list built from the model: `/api/<module>:<name>`
// endpoints, module routes and route-file blocks. openapi.json and client.ts are both
// printed from this list, so they describe the same operations with the same types.

import type { ActionModel, HttpMethod, Model, ParamModel, QueryModel, Requirement, RouteEntryModel, RouteExprModel, RouteFileModel, RouteModel, TargetRef } from "../../analyze/model/model.js";
import { pascalCase } from "../../analyze/shared/names.js";
import type { Names } from "../names.js";
import { type Answer, blockAnswer, endpointAnswer, routeAnswer } from "./answers.js";
import { paramSchema, type Schema } from "./schema.js";
import { requirementStatuses } from "./statuses.js";

export interface ApiParam {
  name: string;
  schema: Schema;
  required: boolean;
  /** A list or record argument: in a query string it travels as JSON text. */
  json: boolean;
}

/** Who may call: anyone; anyone, though a caller's credential changes the answer; or `requires`. */
export type ApiSecurity = { kind: "none" } | { kind: "optional" } | { kind: "required"; requires: Requirement };

export interface ApiOperation {
  /** Unique: the operationId, and the client's method name. */
  id: string;
  method: HttpMethod;
  /** OpenAPI path template: `/v1/tasks/{id}`. */
  path: string;
  /** A route-file block chosen with `?handler=`; null otherwise. */
  handler: string | null;
  /** The module it belongs to, or `app` for route files: the tag. */
  tag: string;
  summary: string;
  description: string | null;
  pathParams: ApiParam[];
  queryParams: ApiParam[];
  /** Arguments in the body (JSON, or a form): null for GET and DELETE. */
  body: ApiParam[] | null;
  answer: Answer;
  /** A route-file block a browser form posts to: success is a 303 to its redirect. */
  formRedirect: boolean;
  errors: number[];
  security: ApiSecurity;
  /** Takes an `Idempotency-Key` header (actions called over HTTP). */
  idempotencyKey: boolean;
}

/** Every operation, in a fixed order: endpoints, routes, route-file blocks. */
export function operations(model: Model, names: Names): ApiOperation[] {
  const ids = new Set<string>();
  const unique = (base: string) => {
    let id = base;
    for (let i = 2; ids.has(id); i++) id = `${base}${i}`;
    ids.add(id);
    return id;
  };
  const out: ApiOperation[] = [];
  const routes = new Map(model.routes.map((r) => [r.source, r]));
  const files = new Map((model.app?.routeFiles ?? []).map((f) => [f.source, f]));
  // The route table's order; a route file's blocks are listed together, where its first method is.
  for (const e of model.routeTable) {
    const t = e.target;
    if (t.kind === "endpoint" && t.target.kind === "query") {
      const q = findQuery(model, t.target);
      if (q) out.push(queryOperation(model, e, q, t.target, names, unique));
    } else if (t.kind === "endpoint") {
      const a = findAction(model, t.target);
      if (a) out.push(actionOperation(model, e, a, t.target, names, unique));
    } else if (t.kind === "route") {
      const r = routes.get(t.source);
      if (r) out.push(routeOperation(model, r, names, unique));
    } else if (t.kind === "file") {
      const file = files.get(t.source);
      files.delete(t.source);
      if (file) out.push(...routeFileOperations(model, file, names, unique));
    }
  }
  // On a route that `respond`s, argument checks answer `[errors]` validation_status, not 400.
  const validation = model.errorShape?.validationStatus;
  if (validation !== undefined) for (const op of out) if (!op.answer.envelope) op.errors = sorted([...op.errors, validation]);
  return out;
}

function queryOperation(model: Model, e: RouteEntryModel, q: QueryModel, t: TargetRef, names: Names, unique: (base: string) => string): ApiOperation {
  return {
    ...targetBase(model, t),
    id: unique(names.fn(q.module, q.name)),
    method: e.method,
    path: e.path,
    queryParams: q.params.map((p) => param(p, names)),
    body: null,
    answer: endpointAnswer(model, names, t),
  };
}

function actionOperation(model: Model, e: RouteEntryModel, a: ActionModel, t: TargetRef, names: Names, unique: (base: string) => string): ApiOperation {
  return {
    ...targetBase(model, t),
    id: unique(names.fn(a.module, a.name)),
    method: e.method,
    path: e.path,
    queryParams: [],
    body: a.params.map((p) => param(p, names)),
    answer: endpointAnswer(model, names, t),
  };
}

function routeOperation(model: Model, r: RouteModel, names: Names, unique: (base: string) => string): ApiOperation {
  const base = targetBase(model, r.target);
  const params = targetParams(model, r.target);
  const inPath = r.segments.filter((s) => s.startsWith(":")).map((s) => s.slice(1));
  const pathParams = inPath.map((n) => {
    const p = params.find((x) => x.name === n);
    return p ? { ...param(p, names), required: true } : { name: n, schema: { type: "string" }, required: true, json: false };
  });
  const rest = params.filter((p) => !inPath.includes(p.name)).map((p) => param(p, names));
  const inBody = r.method === "POST" || r.method === "PUT" || r.method === "PATCH";
  return {
    ...base,
    id: unique(routeId(r.method, r.segments, null)),
    method: r.method,
    path: template(r.segments),
    summary: `${r.method} ${r.path} → ${r.target.module}.${r.target.name}`,
    pathParams,
    queryParams: inBody ? [] : rest,
    body: inBody ? rest : null,
    answer: routeAnswer(model, names, r),
    // A shaped route to a `one` query answers 404 when no row is found.
    ...(r.respond?.notFoundOnNull ? { errors: sorted([...base.errors, 404]) } : {}),
  };
}

/** What an endpoint and the routes to it share: docs, errors, security. */
function targetBase(model: Model, t: TargetRef): Omit<ApiOperation, "id" | "method" | "path" | "queryParams" | "body" | "answer"> {
  const auth = model.auth !== undefined;
  if (t.kind === "query") {
    const q = findQuery(model, t);
    return {
      handler: null,
      tag: t.module,
      summary: `${t.module}.${t.name}`,
      description: q?.doc ?? null,
      pathParams: [],
      formRedirect: false,
      errors: sorted([400, 503, ...(auth ? [401] : [])]),
      security: { kind: "none" },
      idempotencyKey: false,
    };
  }
  const a = findAction(model, t);
  const statuses = a ? [...a.failStatuses, ...requirementStatuses(a.requires)] : [];
  const keys = model.idempotencyStore !== undefined;
  return {
    handler: null,
    tag: t.module,
    summary: `${t.module}.${t.name}`,
    description: a?.doc ?? null,
    pathParams: [],
    formRedirect: false,
    errors: sorted([400, 413, 415, 503, ...statuses, ...(auth ? [401] : []), ...(keys ? [409, 422] : [])]),
    security: a ? actionSecurity(model, a) : { kind: "none" },
    // Never recorded under a key (docs/language.md, "Idempotency keys"): the header is not offered.
    idempotencyKey: keys && a?.credentials !== true,
  };
}

function actionSecurity(model: Model, a: ActionModel): ApiSecurity {
  if (a.requires) return { kind: "required", requires: a.requires };
  return a.readsCaller ? { kind: "optional" } : { kind: "none" };
}

/** One operation per block; blocks at one path and method share it in openapi.json (`?handler=`). */
function routeFileOperations(model: Model, file: RouteFileModel, names: Names, unique: (base: string) => string): ApiOperation[] {
  const out: ApiOperation[] = [];
  const auth = model.auth !== undefined;
  const keys = model.idempotencyStore !== undefined;
  for (const block of file.blocks) {
    const step = block.step;
    const params = step ? targetParams(model, step.target) : [];
    const action = step?.op === "invoke" ? findAction(model, step.target) : undefined;
    const query = step && step.op !== "invoke" ? findQuery(model, step.target) : undefined;
    const from = (kind: "query" | "body"): ApiParam[] => {
      const seen = new Map<string, ApiParam>();
      for (const a of step?.args ?? []) {
        for (const v of inputs(a.value)) {
          if (v.from !== kind || seen.has(v.name)) continue;
          const p = params.find((x) => x.name === a.name);
          // Fed whole to an argument, a value has that argument's type; inside `+` it is text.
          const direct = a.value.kind === "input" && p !== undefined;
          seen.set(v.name, {
            name: v.name,
            schema: direct ? paramSchema(p, names) : { type: "string" },
            required: direct && p.required,
            json: direct && p.shape !== undefined,
          });
        }
      }
      return [...seen.values()];
    };
    const pathParams = file.segments
      .filter((s) => s.startsWith(":"))
      .map((s) => {
        const name = s.slice(1);
        const arg = step?.args.find((a) => a.value.kind === "input" && a.value.from === "params" && a.value.name === name);
        const p = arg ? params.find((x) => x.name === arg.name) : undefined;
        return { name, schema: p ? paramSchema(p, names) : { type: "string" }, required: true, json: false };
      });
    // The invoked action's `requires` holds through the route file: its endpoint checks it.
    const requires = step?.requires ?? action?.requires ?? null;
    const statuses = new Set<number>([400, 503]);
    if (auth) statuses.add(401);
    if (step?.op === "fetch") statuses.add(404);
    for (const s of requirementStatuses(requires)) statuses.add(s);
    if (action) for (const s of action.failStatuses) statuses.add(s);
    const writes = block.method !== "GET";
    if (writes) [413, 415].forEach((s) => statuses.add(s));
    if (writes && keys) [409, 422].forEach((s) => statuses.add(s));
    const callerRead = (step?.args ?? []).some((a) => usesCaller(a.value)) || (block.redirect !== null && usesCaller(block.redirect)) || action?.readsCaller === true;
    const security: ApiSecurity = requires ? { kind: "required", requires } : callerRead ? { kind: "optional" } : { kind: "none" };
    const target = step ? `${step.target.module}.${step.target.name}` : null;
    out.push({
      id: unique(routeId(block.method, file.segments, block.handler)),
      method: block.method,
      path: template(file.segments),
      handler: block.handler,
      tag: "app",
      summary: `${block.method} ${file.path}${block.handler ? `?handler=${block.handler}` : ""}${target ? ` → ${target}` : ""}`,
      description: action?.doc ?? query?.doc ?? null,
      pathParams,
      queryParams: from("query"),
      body: writes ? from("body") : null,
      answer: blockAnswer(model, names, block),
      formRedirect: writes,
      errors: sorted([...statuses]),
      security,
      idempotencyKey: writes && keys && action?.credentials !== true,
    });
  }
  return out;
}

function inputs(v: RouteExprModel): Extract<RouteExprModel, { kind: "input" }>[] {
  if (v.kind === "input") return [v];
  return v.kind === "concat" ? v.parts.flatMap(inputs) : [];
}

function usesCaller(v: RouteExprModel): boolean {
  return v.kind === "caller" || (v.kind === "concat" && v.parts.some(usesCaller));
}

function param(p: ParamModel, names: Names): ApiParam {
  return { name: p.name, schema: paramSchema(p, names), required: p.required, json: p.shape !== undefined };
}

function targetParams(model: Model, t: TargetRef): ParamModel[] {
  return (t.kind === "query" ? findQuery(model, t)?.params : findAction(model, t)?.params) ?? [];
}

function findQuery(model: Model, t: TargetRef): QueryModel | undefined {
  return model.queries.find((q) => q.module === t.module && q.name === t.name);
}

function findAction(model: Model, t: TargetRef): ActionModel | undefined {
  return model.actions.find((a) => a.module === t.module && a.name === t.name);
}

/** `["v1", "tasks", ":id"]` → `/v1/tasks/{id}` */
function template(segments: readonly string[]): string {
  return "/" + segments.map((s) => (s.startsWith(":") ? `{${s.slice(1)}}` : s)).join("/");
}

/** `getV1TasksId`, `postApiTaskTrackerIdStartTask`. */
function routeId(method: HttpMethod, segments: readonly string[], handler: string | null): string {
  const words = [...segments.map((s) => s.replace(/^:/, "")), handler ?? ""].join("_").replace(/[^A-Za-z0-9_]/g, "_");
  return method.toLowerCase() + pascalCase(words);
}

function sorted(statuses: number[]): number[] {
  return [...new Set(statuses)].sort((a, b) => a - b);
}
