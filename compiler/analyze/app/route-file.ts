// Route files (`app/api/**/route.svc`, docs/language.md §4): per block, its method and handler
// name, its one data step resolved against the modules' queries and actions (arguments
// checked by name, required-ness and, for literals, type), and its redirect.

import { appCodes as codes } from "../../diagnostics/codes/app.js";
import type { DataStep, MethodBlock, RespondClause, RouteFile, Span } from "../../parse/ast.js";
import type { RouteArgModel, RouteBlockModel, RouteExprModel, RouteFileModel, RouteStepModel } from "../model/app-model.js";
import type { AppPath } from "./app-paths.js";
import type { ActionModel, HttpMethod, ParamModel, QueryModel, ResourceModel, ResponseModel, ValueType } from "../model/model.js";
import { analyzeRespond } from "../answers/respond.js";
import { routeExpr, staticKind, type RouteExprScope } from "./route-expr.js";
import { type Reporter, place } from "../shared/context.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import { checkSafeMethod } from "../checks/writes.js";
import { limitCodes } from "../../diagnostics/codes/limits.js";
import { analyzeLimits, blockKey, type LimitModel } from "../config/limits.js";

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Every query and action of the project, by `module.name`. */
export interface AppScope {
  modules: readonly string[];
  queries: ReadonlyMap<string, QueryModel>;
  actions: ReadonlyMap<string, ActionModel>;
  resources: ReadonlyMap<string, ResourceModel>;
  /** `module.action` of each webhook handler → the webhook's name. */
  webhookHandlers: ReadonlyMap<string, string>;
  /** Does the project say who is calling (`[auth]`)? Else `auth` is SVC7005. */
  identity?: boolean;
}

/** A block's place in the route table, for the one check that no method and path is claimed twice. */
export interface BlockClaim {
  method: HttpMethod;
  span: Span;
}

export function analyzeRouteFile(
  ast: RouteFile,
  at: AppPath,
  scope: AppScope,
  r: Reporter,
): { model: RouteFileModel; claims: BlockClaim[]; declaresDefaultGet: boolean } {
  const file = ast.file;
  const blocks: RouteBlockModel[] = [];
  const claims: BlockClaim[] = [];
  const seen = new Map<string, string>();
  for (const b of ast.blocks) {
    const method = b.method.name as HttpMethod;
    if (!METHODS.includes(method)) {
      r.add(codes.unknownMethod.at(file, b.method.span, b.method.name));
      continue;
    }
    const key = `${method} ${b.name?.name ?? ""}`;
    const other = seen.get(key);
    if (other) {
      const what = b.name ? `\`${method} ${b.name.name}\`` : `the default ${method} block`;
      r.add(codes.duplicateBlock.at(file, b.name?.span ?? b.method.span, what, other));
      continue;
    }
    seen.set(key, place(file, b.span));
    // Named blocks share their method's path: the route table sees the method once.
    if (!claims.some((c) => c.method === method)) claims.push({ method, span: b.method.span });
    const block = analyzeBlock(b, method, at, scope, file, r);
    if (block) blocks.push(block);
  }
  const declaresDefaultGet = seen.has("GET ");
  return { model: { source: file, path: at.path, segments: at.segments, blocks }, claims, declaresDefaultGet };
}

function analyzeBlock(
  b: MethodBlock,
  method: HttpMethod,
  at: AppPath,
  scope: AppScope,
  file: string,
  r: Reporter,
): RouteBlockModel | null {
  const before = r.diagnostics.length;
  const steps = b.steps.filter((s): s is DataStep => s.kind === "DataStep");
  const redirects = b.steps.filter((s) => s.kind === "Redirect");
  const responds = b.steps.filter((s): s is RespondClause => s.kind === "Respond");
  if (steps.length > 1) r.add(codes.blockShape.at(file, steps[1].span, "a block has at most one data step"));
  if (redirects.length > 1) r.add(codes.blockShape.at(file, redirects[1].span, "a block has at most one redirect"));
  if (responds.length > 1) r.add(codes.blockShape.at(file, responds[1].span, "a block has at most one respond"));
  // The data step comes first; respond and redirect follow it, in either order.
  const stepAt = steps.length > 0 ? b.steps.indexOf(steps[0]) : -1;
  if (redirects.length === 1 && b.steps.indexOf(redirects[0]) < stepAt) {
    r.add(codes.blockShape.at(file, redirects[0].span, "`redirect` comes last in its block, after the data step"));
  }
  if (responds.length === 1 && b.steps.indexOf(responds[0]) < stepAt) {
    r.add(codes.blockShape.at(file, responds[0].span, "`respond` comes after the data step"));
  }
  if (redirects.length > 0 && method === "GET") r.add(codes.redirectInGet.at(file, redirects[0].span));

  const exprScope: RouteExprScope = {
    file,
    method,
    params: at.params,
    path: at.path,
    result: null,
    resources: scope.resources,
    queries: scope.queries,
    identity: scope.identity === true,
    r,
  };
  const step = steps.length > 0 ? analyzeStep(steps[0], exprScope, scope) : null;

  let redirect: RouteExprModel | null = null;
  if (redirects.length > 0 && redirects[0].kind === "Redirect") {
    const written = redirects[0].to;
    exprScope.result = step && step.type ? step.type : null;
    redirect = routeExpr(written, exprScope);
    if (redirect) checkRedirect(redirect, written.span, file, r);
  }
  let respond: ResponseModel | null = null;
  if (responds.length > 0) {
    const scope: RouteExprScope = { ...exprScope, result: step && step.type ? step.type : null, records: step?.model.op === "query" };
    respond = analyzeRespond(responds[0], scope, false, true);
  }
  const limits = blockLimits(b, method, at, step?.model ?? null, scope, file, r);
  if (r.diagnostics.length > before) return null;
  // After the block is known to be sound: a needless `unsafe` is only a warning.
  const target = step?.model.target;
  const label = b.name ? `${method} ${b.name.name}` : method;
  const unsafe = checkSafeMethod(
    {
      file,
      method,
      unsafe: b.unsafe,
      action: target?.kind === "action" ? (scope.actions.get(`${target.module}.${target.name}`) ?? null) : null,
      targetSpan: steps.length > 0 ? steps[0].target.span : b.method.span,
      what: `the \`${label}\` block`,
      allow: `unsafe ${label} { … }`,
    },
    r,
  );
  return {
    method,
    handler: b.name?.name ?? null,
    source: place(file, b.span),
    step: step?.model ?? null,
    redirect,
    ...(respond ? { respond } : {}),
    ...(unsafe ? { unsafe: true as const } : {}),
    ...(limits.length > 0 ? { limits } : {}),
  };
}

/**
 * The block's own limits, then those of the action its step invokes (which hold wherever
 * the action is called from), each argument key read from what the block passes.
 */
function blockLimits(b: MethodBlock, method: HttpMethod, at: AppPath, step: RouteStepModel | null, scope: AppScope, file: string, r: Reporter): LimitModel[] {
  const target = step === null ? null : `${step.target.module}.${step.target.name}`;
  const action = target === null || step?.op !== "invoke" ? undefined : scope.actions.get(target);
  const params = target === null ? null : (action ?? scope.queries.get(target))?.params.map((p) => p.name) ?? null;
  const policy = `${method} ${at.path}${b.name === null ? "" : `?handler=${b.name.name}`}`;
  const describe = target === null ? "this block (it calls nothing)" : `this block's target \`${target}\``;
  const own = analyzeLimits(b.limits ?? [], { describe, policy, params, identity: scope.identity === true, file }, r);
  const out: LimitModel[] = [];
  const args = step?.args ?? [];
  for (const limit of [...own, ...(action?.limits ?? [])]) {
    const by = blockKey(limit.by, args);
    if ("why" in by) {
      const arg = limit.by.kind === "arg" ? limit.by.name : "";
      const whose = own.includes(limit) ? by.why : `${by.why} (the limit is declared on \`${target}\`)`;
      r.add(limitCodes.blockKey.at(file, b.method.span, arg, whose));
      continue;
    }
    out.push({ ...limit, by });
  }
  return out;
}

/** A redirect must stay on this site: it has to begin with a path, not a scheme or `//host`. */
function checkRedirect(v: RouteExprModel, span: Span, file: string, r: Reporter): void {
  const first = v.kind === "concat" ? v.parts[0] : v;
  const kind = staticKind(v);
  if (kind !== null && kind !== "text") {
    r.add(codes.unsupportedExpression.at(file, span, `a redirect to ${withArticle(kind)}`));
    return;
  }
  if (first.kind === "literal" && typeof first.value === "string") {
    const s = first.value;
    if (!s.startsWith("/") || s.startsWith("//") || s.startsWith("/\\")) r.add(codes.redirectTarget.at(file, span, s));
  } else {
    // Only the request decides where this goes; the server refuses an off-site answer at run time.
  }
}

function analyzeStep(
  step: DataStep,
  s: RouteExprScope,
  scope: AppScope,
): { model: RouteStepModel; type: ValueType | null } | null {
  const { file, r } = s;
  const module = step.module.name;
  if (!scope.modules.includes(module)) {
    r.add(codes.unknownModule.at(file, step.module.span, module, closest(module, scope.modules)));
    return null;
  }
  const name = step.target.name;
  const key = `${module}.${name}`;
  const query = scope.queries.get(key);
  const action = scope.actions.get(key);
  const wantAction = step.op === "invoke";
  if (!query && !action) {
    const pool = [...(wantAction ? scope.actions : scope.queries).values()].filter((x) => x.module === module);
    r.add(
      codes.unknownTarget.at(file, step.target.span, wantAction ? "action" : "query", module, name, closest(name, pool.map((x) => x.name))),
    );
    return null;
  }
  if (wantAction && !action) {
    r.add(codes.wrongStep.at(file, step.target.span, step.op, key, "query"));
    return null;
  }
  if (!wantAction && !query) {
    r.add(codes.wrongStep.at(file, step.target.span, step.op, key, "action"));
    return null;
  }
  const webhook = scope.webhookHandlers.get(key);
  if (action && webhook !== undefined) {
    r.add(codes.webhookHandler.at(file, step.target.span, key, webhook));
    return null;
  }
  if (query && step.op === "fetch" && !query.one) {
    r.add(codes.fetchNotOne.at(file, step.target.span, key));
    return null;
  }
  if (query && step.op === "query" && query.one) {
    r.add(codes.queryOnOne.at(file, step.target.span, key));
    return null;
  }
  const target = (action ?? query)!;
  const args = analyzeArgs(step, key, target.params, s);
  if (!args) return null;
  const model: RouteStepModel = {
    op: step.op,
    target: { kind: action ? "action" : "query", module, name },
    args,
    requires: action?.requires ?? null,
  };
  if (action?.issuesCredentials === true) model.issuesCredentials = true;
  if (action?.credentials === true) model.credentials = true;
  // `result` exists after invoke (the action's return) and fetch (the row, never null past the 404).
  const type: ValueType | null = action
    ? action.returns
    : step.op === "fetch"
      ? query!.rowResource
        ? { kind: "row", resource: query!.rowResource, nullable: false }
        : { kind: "queryRow", query: key, nullable: false }
      : null;
  return { model, type };
}

function analyzeArgs(step: DataStep, target: string, params: readonly ParamModel[], s: RouteExprScope): RouteArgModel[] | null {
  const { file, r } = s;
  const before = r.diagnostics.length;
  const given = new Set<string>();
  const out: RouteArgModel[] = [];
  for (const entry of step.args) {
    const name = entry.key.name;
    const param = params.find((p) => p.name === name);
    if (!param) {
      r.add(codes.unknownArgument.at(file, entry.key.span, target, name, closest(name, params.map((p) => p.name))));
      continue;
    }
    if (given.has(name)) {
      r.add(codes.duplicateArgument.at(file, entry.key.span, name));
      continue;
    }
    given.add(name);
    const value = routeExpr(entry.value, s);
    if (!value) continue;
    const problem = typeProblem(value, param);
    if (problem) r.add(codes.argumentType.at(file, entry.value.span, target, name, describeParam(param), problem));
    out.push({ name, value });
  }
  const missing = params.filter((p) => p.required && !given.has(p.name)).map((p) => p.name);
  if (missing.length > 0) r.add(codes.missingArgument.at(file, step.target.span, target, missing));
  return r.diagnostics.length > before ? null : out;
}

/** What is wrong with a value whose type is known at build time; null when it fits or only the request can tell. */
function typeProblem(v: RouteExprModel, p: ParamModel): string | null {
  const kind = staticKind(v);
  if (kind === null) return null;
  if (kind === "null") return p.nullable ? null : "null";
  const found = withArticle(kind);
  switch (p.type) {
    case "json":
      return null;
    case "file":
      // Only a file part of the request is a file: input.body.<name> of a multipart body.
      return found;
    case "text":
    case "id":
    case "timestamp":
      return kind === "text" ? null : found;
    case "enum":
      if (kind !== "text") return found;
      if (v.kind === "literal" && !p.enumValues.includes(v.value as string)) return `"${String(v.value)}"`;
      return null;
    case "int":
      return kind === "int" ? null : found;
    case "float":
      return kind === "int" || kind === "float" ? null : found;
    case "bool":
      return kind === "bool" ? null : found;
  }
}

/** "text", "an int", "a float", "a bool", "null": how a value's kind reads in a sentence. */
function withArticle(kind: string): string {
  if (kind === "text" || kind === "null") return kind;
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function describeParam(p: ParamModel): string {
  const base = p.type === "enum" ? `enum(${p.enumValues.join(", ")})` : p.type;
  return p.nullable ? `${base}?` : base;
}
