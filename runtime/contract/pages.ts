// What a generated server hands the runtime for its app folder (docs/language.md §4–5): route-file
// blocks as functions, pages with their templates and loaders, the layout, and public/.
// Everything here was decided at build time; the runtime parses templates once at start.

import type { RequestView } from "../core/answer/index.js";
import type { ShapedAnswer } from "./answers.js";
import type { CallContext, Database, HttpMethod, Requirement } from "./server.js";
import type { RateLimitSpec } from "./limits.js";
import type { TakesFiles } from "./uploads.js";

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

export interface RouteBlockSpec extends TakesFiles {
  method: HttpMethod;
  /** Null for the method's default block; else the name `?handler=` chooses. */
  handler: string | null;
  run: RouteBlockRun;
  /** The `requires` of the action the block invokes: checked before a stored Idempotency-Key answer is replayed. */
  requires?: Requirement;
  /** The invoked action handles credentials (ActionModel.credentials): never recorded under an Idempotency-Key. */
  credentials?: true;
  /** The block says `respond`: JSON callers get its answer, and errors in the app's error shape. */
  shaped?: boolean;
  /** The invoked action's answers carry a token or a session: every answer of the block is `Cache-Control: no-store`. */
  noStore?: true;
  /** The block's own `limit`s, then those of the action or query it calls (runtime/limits). */
  limits?: RateLimitSpec<RouteInput>[];
}

export interface RouteFileSpec {
  /** `/api/task_tracker/:id`, for logs: the route table (ServerSpec.routes) matches it. */
  path: string;
  blocks: RouteBlockSpec[];
}

/** A compiled page.jq: every output of the program for one input. */
export type PageLoader = (input: unknown, $params: Record<string, string>, $query: Record<string, string>) => unknown[];

export interface PageSpec {
  /** `/tasks/:id`, for logs: the route table (ServerSpec.routes) matches it. */
  path: string;
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

/** A file of public/, written beside the server at build time and read once at start. */
export interface PublicFileSpec {
  /** URL path: `/style.css`. */
  path: string;
  /** Relative to `AppSpec.publicRoot`: `public/style.css`. */
  file: string;
  contentType: string;
}

export interface AppSpec {
  /** `app/layout.html`, or svc's default layout (templates/pages/layout.html) for an app without one. */
  layout: string;
  /** The content of an error page, rendered inside the layout (templates/pages/error.html). */
  errorPage: string;
  publicFiles: PublicFileSpec[];
  /**
   * The URL public files are read relative to: the generated module's own (`import.meta.url`
   * of server.js, beside which svc build writes public/), or a folder URL ending in `/` that a
   * host serving from memory (svc dev, svc-server) puts here. Only file: URLs can be read.
   */
  publicRoot: string;
}
