// The route table and each query's and action's endpoint (docs/language.md §2.4, "Routes"):
// decided once in analysis (route-table.ts); the generator, OpenAPI and the language server
// print these decisions and never make them again. Re-exported by model.ts.

import type { HttpMethod, TargetRef } from "./model.js";

/**
 * How a query or an action is called with a request's input (§2.3, Private queries and
 * actions); null on the model when nothing calls it so (a private one no route file calls).
 */
export type EndpointModel =
  /** At `GET /api/<module>:<name>` (a query) or `POST` (an action), and wherever routes and route files call it. */
  | { kind: "url"; method: "GET" | "POST"; path: string }
  /** Private: only the route files that call it reach it. */
  | { kind: "route files" }
  /** A webhook's handler: run only through its webhook, after the signature is checked. */
  | { kind: "webhook"; webhook: { module: string; name: string } };

/** One entry of the route table: the first entry whose method and path match a request wins. */
export interface RouteEntryModel {
  method: HttpMethod;
  path: string;
  /** Present when the path has parameters: the router then matches it segment by segment. */
  segments?: string[];
  target: RouteEntryTarget;
}

/** What an entry runs, named by what the model carries: a target, or the `source` of a route, route file, page or file. */
export type RouteEntryTarget =
  | { kind: "webhook"; module: string; name: string }
  /** `/api/<module>:<name>`. */
  | { kind: "endpoint"; target: TargetRef }
  /** A module `route` (`Model.routes`, by its source). */
  | { kind: "route"; source: string }
  /** The blocks of a route file at this method (`AppModel.routeFiles`, by source). */
  | { kind: "file"; source: string }
  | { kind: "page"; source: string }
  /** A file of public/ (`AppModel.publicFiles`, by source). */
  | { kind: "asset"; source: string };
