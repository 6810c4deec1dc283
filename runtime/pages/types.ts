// What a generated server hands the runtime for its app folder (docs/language.md §4–5): route-file
// blocks as functions, pages with their templates and loaders, the layout, and public/.
// Everything here was decided at build time; the runtime parses templates once at start.

import type { RequestView, ShapedAnswer } from "../respond.js";
import type { CallContext, Database, HttpMethod } from "../types.js";

/** What a route-file block sees of the request (`input.query.x`, `input.body.x`, `input.params.x`). */
export interface RouteInput {
  query: Record<string, string>;
  /** Strings from a form, JSON values from a JSON body; empty when there is no body. */
  body: Record<string, unknown>;
  params: Record<string, string>;
  /** The body is a form (urlencoded or multipart): its values arrived as text. */
  form: boolean;
  /** `input.headers.x` and `input.base_url`. */
  view: RequestView;
}

export interface RouteOutcome {
  /** The route data: `{records}` after `query`, `{result}` after `invoke` or `fetch`, else `{}`. */
  data: Record<string, unknown>;
  /** Where a successful form post goes (303); null to go back to the page it came from. */
  redirect: string | null;
  /** A block with `respond`: what a JSON caller gets instead of the envelope. */
  answer?: () => ShapedAnswer;
}

export type RouteBlockRun = (db: Database, input: RouteInput, ctx: CallContext) => Promise<RouteOutcome>;

export interface RouteBlockSpec {
  method: HttpMethod;
  /** Null for the method's default block; else the name `?handler=` chooses. */
  handler: string | null;
  run: RouteBlockRun;
  /** The block says `respond`: JSON callers get its answer, and errors in the app's error shape. */
  shaped?: boolean;
}

export interface RouteFileSpec {
  /** `/api/task_tracker/:id` */
  path: string;
  segments: string[];
  blocks: RouteBlockSpec[];
}

/** A compiled page.jq: every output of the program for one input. */
export type PageLoader = (input: unknown, $params: Record<string, string>, $query: Record<string, string>) => unknown[];

export interface PageSpec {
  path: string;
  segments: string[];
  /** `app/tasks/page.html`, for logs. */
  source: string;
  /** Front-matter title: a mustache template rendered with the view, as plain text. */
  title: string | null;
  template: string;
  /** The default GET block of the page's route file; null for a page without `route`. */
  data: RouteBlockRun | null;
  /** page.jq compiled to JavaScript; null when there is none or it runs on jq-web. */
  load: PageLoader | null;
  /** page.jq text for jq-web, when it is outside the compiled subset. */
  jq: string | null;
}

/** A file of public/, embedded at build time. */
export interface PublicFileSpec {
  path: string;
  contentType: string;
  etag: string;
  encoding: "utf8" | "base64";
  body: string;
}

export interface AppSpec {
  /** Most specific first. */
  routeFiles: RouteFileSpec[];
  /** Most specific first. */
  pages: PageSpec[];
  /** `app/layout.html`; null for the built-in one. */
  layout: string | null;
  publicFiles: PublicFileSpec[];
}
