// One page (docs/language.md §5): the route file's GET block gives the route data, page.jq turns it
// into the view ($params and $query bound), the template renders the view, and the layout
// wraps it with the title and Unpoly. Also the error pages, in the same layout.

import { HttpError, SvcError } from "../core/errors.js";
import { type JqRunner, JqWebFailure, runCompiled } from "../jq/index.js";
import type { Logger } from "../core/log.js";
import { RequestView } from "../core/answer/index.js";
import type { SiteOptions } from "../contract/index.js";
import type { CallContext, Caller, Database } from "../contract/index.js";
import type { UnpolyAssets } from "../assets/index.js";
import { type HtmlBytes, type Template, parseTemplate, renderHtmlBytes, renderText } from "./templates.js";
import type { PageSpec, RouteInput, Spans } from "../contract/index.js";
import { viewUnder } from "../lang/trace-context.js";

export interface Renderer {
  db: Database;
  log: Logger;
  layout: Template;
  /** The content of an error page, inside the layout. */
  errorContent: Template;
  unpoly: UnpolyAssets;
  /** jq-web, loading since start; null when no page needs it. */
  jq: Promise<JqRunner> | null;
  /** Where `input.base_url` comes from. */
  site: SiteOptions;
  /** Traced: a `page` span around each render and a `jq` span around its loader; null otherwise. */
  spans: Spans | null;
}

export interface CompiledPage {
  spec: PageSpec;
  template: Template;
  title: Template | null;
}

/** What a failed form post adds to the view of the page it came from. */
export interface PageExtras {
  /** The failure's message: the form shows it. */
  error: string;
  /** The fields that were sent, so the form can keep what the user typed. */
  form: Record<string, unknown>;
}

const NO_BODY: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

export function compilePage(spec: PageSpec): CompiledPage {
  return { spec, template: parseTemplate(spec.template), title: spec.title === null ? null : parseTemplate(spec.title) };
}

/**
 * The whole HTML document of a page. Throws what the route file throws (an HttpError 404
 * from `fetch`, a 400 for a bad query-string value) and an Error when page.jq fails.
 */
export function renderPage(
  r: Renderer,
  page: CompiledPage,
  params: Record<string, string>,
  query: Record<string, string>,
  ctx: CallContext,
  extras: PageExtras | null,
): Promise<HtmlBytes> {
  if (r.spans === null) return renderIn(r.db, r, page, params, query, ctx, extras);
  const attributes = { "svc.page": page.spec.path, "svc.page.source": page.spec.source };
  // The page's span is a child of the request's, and the statements of its route file its children.
  const db = viewUnder(r.db, ctx.span);
  return r.spans.within(`page ${page.spec.path}`, attributes, db, (under) => renderIn(under, r, page, params, query, ctx, extras)) as Promise<HtmlBytes>;
}

/** The page rendered with `db`: the renderer's, or when traced a view under the page's span. */
async function renderIn(
  db: Database,
  r: Renderer,
  page: CompiledPage,
  params: Record<string, string>,
  query: Record<string, string>,
  ctx: CallContext,
  extras: PageExtras | null,
): Promise<HtmlBytes> {
  let data: Record<string, unknown> = {};
  if (page.spec.data !== null) {
    const input: RouteInput = { query, body: NO_BODY, params, form: false, view: new RequestView(ctx.req, r.site) };
    data = (await page.spec.data(db, input, ctx)).data;
  }
  let view =
    r.spans === null || (page.spec.load === null && page.spec.jq === null)
      ? await runLoader(r, page.spec, data, params, query)
      : await r.spans.within(`jq ${page.spec.path}`, loaderAttributes(page.spec), db, () => runLoader(r, page.spec, data, params, query));
  if (extras !== null) view = { ...view, error: extras.error, form: extras.form };
  // `auth` (the caller, or null) is in every view, so a page and the layout can show who is signed in.
  const auth = ctx.caller ?? null;
  view = { ...view, auth };
  const content = renderHtmlBytes(page.template, view);
  const title = page.title === null ? "" : renderText(page.title, view);
  return layoutHtml(r, title, content, auth);
}

export function layoutHtml(r: Renderer, title: string, content: HtmlBytes, auth: Caller | null = null): HtmlBytes {
  return renderHtmlBytes(r.layout, { title, content, auth, unpoly_js: r.unpoly.jsPath, unpoly_css: r.unpoly.cssPath });
}

/** An error page in the layout: the status, its reason phrase and the message. */
export function errorHtml(r: Renderer, status: number, reason: string, message: string, auth: Caller | null | undefined = null): HtmlBytes {
  const content = renderHtmlBytes(r.errorContent, { status, reason, message });
  return layoutHtml(r, `${status} ${reason}`, content, auth ?? null);
}

/** A jq span says which of page.jq's two engines ran it (compiled to JavaScript, or jq-web). */
function loaderAttributes(spec: PageSpec): Record<string, string> {
  return { "svc.page": spec.path, "svc.jq.engine": spec.load !== null ? "compiled" : "jq-web" };
}

/** The view: page.jq's one output, an object; the route data itself without page.jq. */
async function runLoader(
  r: Renderer,
  spec: PageSpec,
  data: Record<string, unknown>,
  params: Record<string, string>,
  query: Record<string, string>,
): Promise<Record<string, unknown>> {
  let outputs: unknown[];
  if (spec.load !== null) outputs = runCompiled(spec.load, data, params, query);
  else if (spec.jq !== null && r.jq !== null) outputs = await runFallback(await r.jq, spec.jq, data, params, query);
  else return data;
  const view = outputs[0];
  if (outputs.length !== 1 || view === null || typeof view !== "object" || Array.isArray(view)) {
    const got = outputs.length !== 1 ? `${outputs.length} results` : `a ${view === null ? "null" : Array.isArray(view) ? "list" : typeof view}`;
    throw new SvcError("SVC_ERR_PAGE_DATA", `${spec.source}: page.jq must give one object for the template, but gave ${got}`);
  }
  return view as Record<string, unknown>;
}

/**
 * page.jq on jq-web. A program past its time bound, or refused because too many wait, is a
 * 503 (the server is fine; this page could not be made in time); a crash of jq-web stays
 * an internal error (500), logged with jq-web's message.
 */
async function runFallback(
  jq: JqRunner,
  program: string,
  data: Record<string, unknown>,
  params: Record<string, string>,
  query: Record<string, string>,
): Promise<unknown[]> {
  try {
    return await jq(program, data, { params, query });
  } catch (e) {
    if (e instanceof JqWebFailure && e.reason !== "crash") throw new HttpError(503, "this page took too long to prepare; try again later", { code: "SVC_ERR_PAGE_TIMEOUT", cause: e });
    throw e;
  }
}
