// The part of the model that describes a project's app folder (docs/language.md §4–5): route
// files, pages, the layout and public/. Plain and serializable like the rest of the model;
// the generator turns it into route-file functions, page specs and the static file table.

import type { CompiledJq } from "../../jq/index.js";
import type { HttpMethod, Literal, Requirement, ResponseModel, TargetRef } from "./model.js";
import type { LimitModel } from "../config/limits.js";
import type { PublicFileModel } from "../../project/public-files.js";

export type { PublicFileModel };

/** A value in a route file, resolved: where it comes from is known at build time. */
export type RouteExprModel =
  | { kind: "literal"; value: Literal }
  /** `input.query.x`, `input.body.x`, `input.params.x`; undefined at run time when absent. */
  | { kind: "input"; from: "query" | "body" | "params"; name: string }
  /** `result` or `result.field` in a redirect: what the block's invoke or fetch returned. */
  | { kind: "result"; field: string | null }
  /** `auth`, `auth.id`, `auth.roles`, `auth.claims.x`: the caller; absent when anonymous. */
  | { kind: "caller"; path: string[] }
  /** `a + b + …`: in route files `+` joins text. */
  | { kind: "concat"; parts: RouteExprModel[] }
  /** `records` after a `query` step (in a respond). */
  | { kind: "records" }
  /** `x.name` past `result.field`, where the type says the member exists or cannot say. */
  | { kind: "member"; object: RouteExprModel; name: string }
  /** `input.headers.x_request_id`: the request header `x-request-id`, or undefined. */
  | { kind: "header"; name: string }
  /** `input.base_url`: scheme and host as the client reached the server (docs/operations.md). */
  | { kind: "baseUrl" }
  /** `{ key: value, … }` in a respond body. */
  | { kind: "object"; entries: { key: string; value: RouteExprModel }[] }
  /** `[a, b]` in a respond body. */
  | { kind: "list"; items: RouteExprModel[] };

export interface RouteArgModel {
  name: string;
  value: RouteExprModel;
}

/** `query M.q {…}` → `{records}`, `invoke M.a {…}` → `{result}`, `fetch M.q {…}` → `{result}` or 404. */
export interface RouteStepModel {
  op: "query" | "invoke" | "fetch";
  target: TargetRef;
  args: RouteArgModel[];
  /** The invoked action's `requires`: checked before the action runs. */
  requires: Requirement | null;
  /** The invoked action's answer carries a token or a session (ActionModel.issuesCredentials). */
  issuesCredentials?: true;
  /** The invoked action handles credentials (ActionModel.credentials); absent otherwise. */
  credentials?: true;
}

export interface RouteBlockModel {
  method: HttpMethod;
  /** Null for the method's default block; else the name `?handler=` chooses. */
  handler: string | null;
  /** `file:line:col` of the block, for generated comments and messages. */
  source: string;
  step: RouteStepModel | null;
  redirect: RouteExprModel | null;
  /** Absent: JSON callers get the envelope with the route data. */
  respond?: ResponseModel;
  /** `unsafe GET { … }`: a GET block that may reach a write (docs/language.md §3); absent otherwise. */
  unsafe?: true;
  /** The block's own `limit …` clauses, then its step's action's, keyed as the block passes arguments (§2.6). */
  limits?: LimitModel[];
}

export interface RouteFileModel {
  /** `app/api/task_tracker/[id]/route.svc` */
  source: string;
  /** `/api/task_tracker/:id` */
  path: string;
  /** `["api", "task_tracker", ":id"]` */
  segments: string[];
  blocks: RouteBlockModel[];
}

export type PageLoaderModel =
  /** page.jq in the compiled subset, analysed: the generator emits it as a JavaScript function. */
  | { source: string; kind: "compiled"; program: string; plan: CompiledJq }
  /** page.jq outside the compiled subset: run by jq-web. */
  | { source: string; kind: "jq"; program: string; reason: string };

export interface PageModel {
  /** `app/tasks/[id]/page.html` */
  source: string;
  path: string;
  segments: string[];
  /** Front-matter `title`, a mustache template rendered with the page's view; null without one. */
  title: string | null;
  /** The mustache template after the front matter. */
  template: string;
  /** The route file whose default GET block supplies the data; null for a page without `route`. */
  route: { source: string; path: string } | null;
  loader: PageLoaderModel | null;
}

export interface LayoutModel {
  source: string;
  template: string;
}

export interface AppModel {
  routeFiles: RouteFileModel[];
  /** In matching order: more specific paths first. */
  pages: PageModel[];
  layout: LayoutModel | null;
  publicFiles: PublicFileModel[];
}
