// The route table (docs/language.md §2.4, "Routes"), built once from the analyzed parts in the
// order the server matches requests, and each query's and action's endpoint: whether a
// request reaches it at its own URL, through route files only, through its webhook, or not
// at all. The generator, openapi.json and the client print these; none decides them again.

import type { AppModel } from "./model/app-model.js";
import type { ActionModel, EndpointModel, QueryModel, RouteEntryModel, RouteModel, WebhookModel } from "./model/model.js";

/** Sets `endpoint` on every query and action. */
export function assignEndpoints(queries: readonly QueryModel[], actions: readonly ActionModel[], webhooks: readonly WebhookModel[], app: AppModel | null): void {
  const called = new Set<QueryModel | ActionModel>();
  const targets = new Map<string, QueryModel | ActionModel>([...queries, ...actions].map((t) => [`${t.module}.${t.name}`, t]));
  for (const f of app?.routeFiles ?? []) {
    for (const b of f.blocks) {
      const t = b.step ? targets.get(`${b.step.target.module}.${b.step.target.name}`) : undefined;
      if (t !== undefined) called.add(t);
    }
  }
  const handled = new Map(webhooks.map((w) => [targets.get(`${w.handler.module}.${w.handler.name}`), w]));
  const endpoint = (t: QueryModel | ActionModel, method: "GET" | "POST"): EndpointModel | null => {
    const w = handled.get(t);
    if (w !== undefined) return { kind: "webhook", webhook: { module: w.module, name: w.name } };
    if (!t.private) return { kind: "url", method, path: `/api/${t.module}:${t.name}` };
    return called.has(t) ? { kind: "route files" } : null;
  };
  for (const q of queries) q.endpoint = endpoint(q, "GET");
  for (const a of actions) a.endpoint = endpoint(a, "POST");
}

/**
 * In match order: webhooks (exact paths, before anything a route could shadow), the
 * `/api/<module>:<name>` endpoints (queries, then actions), module routes as declared, route
 * files, pages (each most specific first), then public/ files. The first entry whose method
 * and path match wins.
 */
export function buildRouteTable(
  webhooks: readonly WebhookModel[],
  queries: readonly QueryModel[],
  actions: readonly ActionModel[],
  routes: readonly RouteModel[],
  app: AppModel | null,
): RouteEntryModel[] {
  const url = (kind: "query" | "action", t: QueryModel | ActionModel): RouteEntryModel[] =>
    t.endpoint?.kind === "url" ? [{ method: t.endpoint.method, path: t.endpoint.path, target: { kind: "endpoint", target: { kind, module: t.module, name: t.name } } }] : [];
  return [
    ...webhooks.map((w): RouteEntryModel => ({ method: "POST", path: w.path, target: { kind: "webhook", module: w.module, name: w.name } })),
    ...queries.flatMap((q) => url("query", q)),
    ...actions.flatMap((a) => url("action", a)),
    ...routes.map((r) => entry(r.method, r.path, r.segments, { kind: "route", source: r.source })),
    ...(app?.routeFiles ?? []).flatMap((f) => [...new Set(f.blocks.map((b) => b.method))].map((m) => entry(m, f.path, f.segments, { kind: "file", source: f.source }))),
    ...(app?.pages ?? []).map((p) => entry("GET", p.path, p.segments, { kind: "page", source: p.source })),
    ...(app?.publicFiles ?? []).map((f): RouteEntryModel => ({ method: "GET", path: f.path, target: { kind: "asset", source: f.source } })),
  ];
}

function entry(method: RouteEntryModel["method"], path: string, segments: readonly string[], target: RouteEntryModel["target"]): RouteEntryModel {
  return segments.some((s) => s.startsWith(":")) ? { method, path, segments: [...segments], target } : { method, path, target };
}
