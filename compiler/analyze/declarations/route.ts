import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import { compositionCodes } from "../../diagnostics/codes/composition.js";
import type { RouteDecl, Span } from "../../parse/ast.js";
import type { ActionModel, HttpMethod, QueryModel, ResourceModel, ResponseModel, RouteModel, TargetRef, ValueType } from "../model/model.js";
import { analyzeRespond } from "../answers/respond.js";
import { type Reporter, place } from "../shared/context.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import { checkSafeMethod } from "../checks/writes.js";
import { analyzeLimits } from "../config/limits.js";

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export interface RouteTargets {
  actions: ReadonlyMap<string, ActionModel>;
  queries: ReadonlyMap<string, QueryModel>;
  /** Every resource, for the fields `result.<field>` may name in a respond. */
  resources: ReadonlyMap<string, ResourceModel>;
  /** Does the project say who is calling? (`limit … by auth.id`) */
  identity?: boolean;
}

/** A module's `route METHOD "path" => target`: path split into segments, target and `:params` resolved. */
export function analyzeRoute(module: string, decl: RouteDecl, file: string, t: RouteTargets, r: Reporter): RouteModel | null {
  const method = decl.method.name.toUpperCase() as HttpMethod;
  let ok = true;
  if (!METHODS.includes(method) || decl.method.name !== method) {
    r.add(codes.unknownRouteMethod.at(file, decl.method.span, decl.method.name));
    ok = false;
  }
  const segments = splitPath(decl.path.value, (problem) => r.add(codes.badRoutePath.at(file, decl.path.span, problem)));
  if (!segments) ok = false;

  const name = decl.target.name;
  const action = t.actions.get(name);
  const query = t.queries.get(name);
  let target: TargetRef | null = null;
  let paramNames: string[] = [];
  if (action?.private || (!action && query?.private)) {
    const kind = action ? "action" : "query";
    r.add(compositionCodes.routeToPrivate.at(file, decl.target.span, kind, name));
    ok = false;
  } else if (action) {
    target = { kind: "action", module, name };
    paramNames = action.params.map((p) => p.name);
  } else if (query) {
    target = { kind: "query", module, name };
    paramNames = query.params.map((p) => p.name);
  } else {
    r.add(codes.unknownRouteTarget.at(file, decl.target.span, name, closest(name, [...t.actions.keys(), ...t.queries.keys()])));
    ok = false;
  }
  for (const s of segments ?? []) {
    if (s.startsWith(":") && target && !paramNames.includes(s.slice(1))) {
      r.add(codes.routeParamUnknown.at(file, decl.path.span, s.slice(1), name));
      ok = false;
    }
  }
  const limits = analyzeLimits(
    decl.limits ?? [],
    { describe: `the route's target \`${name}\``, policy: `${method} ${decl.path.value}`, params: target ? paramNames : null, identity: t.identity === true, file },
    r,
  );
  if (limits.length !== (decl.limits ?? []).length) ok = false;
  if (!ok || !target || !segments) return null;
  const path = decl.path.value;
  const unsafe = checkSafeMethod(
    { file, method, unsafe: decl.unsafe, action: action ?? null, targetSpan: decl.target.span, what: `route ${method} "${path}"`, allow: `unsafe route ${method} "${path}" => ${name}` },
    r,
  );
  let respond: ResponseModel | undefined;
  if (decl.respond) {
    const params = segments.filter((s) => s.startsWith(":")).map((s) => s.slice(1));
    const result: ValueType = action
      ? action.returns
      : query!.one
        ? query!.rowResource
          ? { kind: "row", resource: query!.rowResource, nullable: false }
          : { kind: "queryRow", query: name, nullable: false }
        : query!.rowResource
          ? { kind: "rows", resource: query!.rowResource }
          : { kind: "queryRows", query: name };
    // A module route's answer has no caller: `auth` there is SVC7104, as any other unknown name.
    const scope = { file, method, params, path: decl.path.value, result, resources: t.resources, queries: t.queries, identity: false, r, moduleRoute: true };
    const model = analyzeRespond(decl.respond, scope, query?.one === true, false, action !== undefined && action !== null);
    if (!model) return null;
    respond = model;
  }
  return {
    module,
    method,
    path: decl.path.value,
    segments,
    target,
    ...(respond ? { respond } : {}),
    ...(unsafe ? { unsafe: true as const } : {}),
    ...(limits.length > 0 ? { limits } : {}),
    source: place(file, decl.span),
  };
}

/** `/v1/tasks/:id` → `["v1", "tasks", ":id"]`; null (after reporting) when malformed. */
export function splitPath(path: string, report: (problem: string) => void): string[] | null {
  if (!path.startsWith("/")) {
    report(`route path "${path}" must start with /`);
    return null;
  }
  if (path === "/") return [];
  const segments = path.slice(1).split("/");
  const seen = new Set<string>();
  for (const s of segments) {
    if (s === "") {
      report(`route path "${path}" has an empty segment`);
      return null;
    }
    if (/[?#\s]/.test(s)) {
      report(`route path "${path}" may not contain spaces, ? or #`);
      return null;
    }
    if (s.startsWith(":")) {
      if (!/^:[A-Za-z_][A-Za-z0-9_]*$/.test(s)) {
        report(`\`${s}\` is not a valid parameter segment`);
        return null;
      }
      if (seen.has(s)) {
        report(`parameter \`${s}\` appears twice in "${path}"`);
        return null;
      }
      seen.add(s);
    }
  }
  return segments;
}

/** Does `earlier` match every path `later` matches (same method)? Then `later` is dead. */
export function shadows(earlier: readonly string[], later: readonly string[]): boolean {
  if (earlier.length !== later.length) return false;
  return earlier.every((s, i) => s.startsWith(":") || s === later[i]);
}

export interface LocatedRoute {
  route: RouteModel;
  file: string;
  span: Span;
  /** Matched by its exact path before any declared route (a webhook): no earlier route shadows it. */
  exact?: boolean;
}

/**
 * Across the whole server: the same method and path claimed twice is an error naming
 * both places; a route that an earlier one always wins over is a warning.
 */
export function checkRouteTable(routes: readonly LocatedRoute[], r: Reporter): void {
  const claimed = new Map<string, LocatedRoute>();
  routes.forEach(({ route, file, span, exact }, i) => {
    const key = `${route.method} ${route.segments.map((s) => (s.startsWith(":") ? ":" : s)).join("/")}`;
    const other = claimed.get(key);
    if (other) {
      r.add(codes.duplicateRoute.at(file, span, route.method, route.path, other.route.source));
      return;
    }
    claimed.set(key, routes[i]);
    if (exact) return;
    const earlier = routes
      .slice(0, i)
      .find((e) => e.route.method === route.method && shadows(e.route.segments, route.segments));
    if (earlier) {
      const e = earlier.route;
      r.add(codes.routeShadowed.at(file, span, route.path, `${e.method} ${e.path} (${e.source})`));
    }
  });
}
