// Serving pages and HTML answers: a page with its data, a failed form post answered with
// the page it came from (422, `error` set), and error pages in the layout. Every HTML
// response carries the security headers and `Vary: X-Up-Target` (Unpoly may cache a
// fragment answer per target; these pages answer every target with the whole document).

import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { failureOf, sendWhole } from "../core/answer/index.js";
import { Fail, HttpError } from "../core/errors.js";
import { parseQueryString } from "../core/query-string.js";
import type { CallContext } from "../contract/index.js";
import { HTML_SECURITY_HEADERS, HTML_TYPE } from "../core/answer/index.js";
import { type CompiledPage, type PageExtras, type Renderer, errorHtml, renderPage } from "./render.js";
import { failedFormHeaders, sameSiteReferer } from "./route-request.js";
import type { HtmlBytes } from "./templates.js";

/** The page the route table has at a path, with its parameters; null when none. */
export type PageAt = (path: string) => { page: CompiledPage; params: Record<string, string> } | null;

export class Pages {
  constructor(
    readonly renderer: Renderer,
    private readonly pageAt: PageAt,
    readonly maxBodySize: number,
  ) {}

  get db() {
    return this.renderer.db;
  }

  /** GET of a page: 200 with the document, or an error page with the status the data gave. */
  async serve(res: ServerResponse, page: CompiledPage, params: Record<string, string>, rawQuery: string, ctx: CallContext): Promise<void> {
    noStoreWhenSignedIn(res, ctx);
    let html: HtmlBytes;
    try {
      const query = parseQueryString(rawQuery);
      html = await renderPage(this.renderer, page, params, query, ctx, null);
    } catch (err) {
      this.sendError(res, err, ctx);
      return;
    }
    sendHtml(res, 200, html);
  }

  /**
   * A form post failed: 422 with the page it came from (its Referer) rendered again with
   * the message as `error` and the sent fields as `form`. Without such a page, or when
   * that page itself cannot be rendered, an error page says what went wrong.
   */
  async sendFailedForm(req: IncomingMessage, res: ServerResponse, err: unknown, body: Record<string, unknown>, ctx: CallContext): Promise<void> {
    noStoreWhenSignedIn(res, ctx);
    // Authorization failures answer as the action's own endpoint does (401/403 with
    // WWW-Authenticate), not as a form to fix and resubmit; an action's own `fail 401`
    // (a wrong password on a sign-in form) is a form to fix, though it carries a challenge too.
    if (!(err instanceof HttpError) || err.status >= 500 || (err.headers?.["WWW-Authenticate"] !== undefined && !(err instanceof Fail))) {
      this.sendError(res, err, ctx);
      return;
    }
    const location = sameSiteReferer(req);
    const found = location === null ? null : this.findPage(location);
    if (found !== null && location !== null) {
      const extras: PageExtras = { error: err.message, form: { ...body } };
      try {
        const html = await renderPage(this.renderer, found.page, found.params, found.query, ctx, extras);
        // A limit's 429 keeps its status and Retry-After: the form is shown again, with the wait.
        if (err.status === 429) sendHtml(res, 429, html, { ...failedFormHeaders(req, location), ...err.headers });
        else sendHtml(res, 422, html, failedFormHeaders(req, location));
        return;
      } catch {
        // The page is gone too (a deleted task's page answers 404): say what failed instead.
      }
    }
    if (err.status === 429) sendHtml(res, 429, errorHtml(this.renderer, 429, STATUS_CODES[429] ?? "Too Many Requests", err.message, ctx.caller), err.headers ?? {});
    else sendHtml(res, 422, errorHtml(this.renderer, 422, STATUS_CODES[422] ?? "Unprocessable Content", err.message, ctx.caller));
  }

  /** An error as an HTML page: an HttpError keeps its status and message; anything else is a logged 500. */
  sendError(res: ServerResponse, err: unknown, ctx: CallContext): void {
    noStoreWhenSignedIn(res, ctx);
    const { status, message, headers } = failureOf(err, this.renderer.log, { request_id: ctx.requestId, path: ctx.req.url });
    const reason = STATUS_CODES[status] ?? "Error";
    sendHtml(res, status, errorHtml(this.renderer, status, reason, message, ctx.caller), headers);
  }

  /** The 404 page, for a browser asking for a path nothing answers. */
  sendNotFound(res: ServerResponse): void {
    sendHtml(res, 404, errorHtml(this.renderer, 404, "Not Found", "There is no page here."));
  }

  private findPage(location: string): { page: CompiledPage; params: Record<string, string>; query: Record<string, string> } | null {
    const q = location.indexOf("?");
    const path = q === -1 ? location : location.slice(0, q);
    try {
      const found = this.pageAt(path);
      if (found === null) return null;
      return { page: found.page, params: found.params, query: parseQueryString(q === -1 ? "" : location.slice(q + 1)) };
    } catch {
      return null;
    }
  }
}

/**
 * A page rendered for a caller shows what is theirs (their name, their data): no cache, shared
 * or the browser's, may keep it for whoever asks next (docs/auth.md).
 */
function noStoreWhenSignedIn(res: ServerResponse, ctx: CallContext): void {
  if (ctx.caller !== null && ctx.caller !== undefined && !res.headersSent) res.setHeader("Cache-Control", "no-store");
}

/** Writes a whole HTML document with the security headers. */
export function sendHtml(res: ServerResponse, status: number, html: HtmlBytes, headers?: Record<string, string>): void {
  sendWhole(res, status, { type: HTML_TYPE, content: html.bytes, length: html.length }, { ...HTML_SECURITY_HEADERS, ...headers, Vary: "X-Up-Target" });
}
