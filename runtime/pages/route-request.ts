// A request to a route file (docs/language.md §4): choose the block (`?handler=`, else the
// method's default), read the body, run the block, and answer. JSON callers get the
// envelope with the route data; a form post that succeeds gets 303 to its redirect (or
// back to the page it came from), and one that fails gets 422 with that page rendered
// again with `error` set, which is also what Unpoly needs to show the failure in the form.

import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "../body.js";
import { sendOk } from "../envelope.js";
import { lingerIfUnread } from "../linger.js";
import { RequestView, sendShaped, sendShapedError } from "../respond.js";
import { HttpError } from "../errors.js";
import { newArgs } from "../query-string.js";
import type { CallContext } from "../types.js";
import { isUnpolyRequest, unpolyLocation } from "../unpoly.js";
import { isFormPost, isJsonMedia, mediaType, wantsJsonOnly } from "./caller.js";
import { refuseCrossSite } from "./csrf.js";
import type { AppDeps } from "./app.js";
import type { Pages } from "./pages.js";
import type { RouteBlockSpec, RouteFileSpec, RouteInput } from "./types.js";

export async function serveRouteFile(
  pages: Pages,
  deps: AppDeps,
  req: IncomingMessage,
  res: ServerResponse,
  file: RouteFileSpec,
  method: string,
  params: Record<string, string>,
  query: Record<string, string>,
  ctx: CallContext,
): Promise<void> {
  const media = mediaType(req);
  const form = method !== "GET" && isFormPost(req, media);
  const html = form && !wantsJsonOnly(req);
  // Refused before the body is read; the server's error path drains what is left of it.
  if (method !== "GET" && !isJsonMedia(media)) refuseCrossSite(req);
  const block = chooseBlock(file, method, query.handler);
  if (!html && block.shaped === true && deps.errors !== null) {
    // A block that shapes its answer answers its errors in the app's error shape too.
    try {
      await runForJson(pages, deps, req, res, block, method, query, params, form, ctx);
    } catch (err) {
      if (res.headersSent) throw err;
      sendShapedError(res, err, deps.errors, deps.log, { request_id: ctx.requestId, method: req.method, path: file.path });
      lingerIfUnread(req, res);
    }
    return;
  }
  if (!html) {
    await runForJson(pages, deps, req, res, block, method, query, params, form, ctx);
    return;
  }
  const body = method === "GET" ? newArgs() : await readRouteBody(req, pages.maxBodySize);
  // Answered meanwhile (the read or write timeout): the block must not run.
  if (res.headersSent) throw new HttpError(res.statusCode, "already answered");
  const input: RouteInput = { query, body, params, form, view: new RequestView(req, deps.site) };
  let location: string;
  try {
    const outcome = await block.run(pages.db, input, ctx);
    location = outcome.redirect === null ? (sameSiteReferer(req) ?? "/") : siteLocation(outcome.redirect);
  } catch (err) {
    await pages.sendFailedForm(req, res, err, body, ctx);
    return;
  }
  // 303 turns the POST into a GET of the next page (RFC 9110 §15.4.4); fetch follows it,
  // so Unpoly renders that page's fragment.
  res.writeHead(303, { Location: location, "Content-Length": 0 });
  res.end();
}

/** A JSON caller: the envelope with the route data, or the block's own answer. */
async function runForJson(
  pages: Pages,
  deps: AppDeps,
  req: IncomingMessage,
  res: ServerResponse,
  block: RouteBlockSpec,
  method: string,
  query: Record<string, string>,
  params: Record<string, string>,
  form: boolean,
  ctx: CallContext,
): Promise<void> {
  const body = method === "GET" ? newArgs() : await readRouteBody(req, pages.maxBodySize);
  // Answered meanwhile (the read or write timeout): the block must not run.
  if (res.headersSent) throw new HttpError(res.statusCode, "already answered");
  const input: RouteInput = { query, body, params, form, view: new RequestView(req, deps.site) };
  const outcome = await block.run(pages.db, input, ctx);
  if (outcome.answer !== undefined) sendShaped(res, outcome.answer());
  else sendOk(res, outcome.data);
}

/** `?handler=name` picks a named block; without it, the method's default block runs. */
function chooseBlock(file: RouteFileSpec, method: string, handler: string | undefined): RouteBlockSpec {
  const blocks = file.blocks.filter((b) => b.method === method);
  if (blocks.length === 0) {
    const allow = [...new Set(file.blocks.map((b) => b.method))];
    throw new HttpError(405, "method not allowed", { headers: { Allow: allow.join(", ") } });
  }
  if (handler !== undefined && handler !== "") {
    const named = blocks.find((b) => b.handler === handler);
    if (named === undefined) throw new HttpError(404, `${method} ${file.path} has no handler "${handler}"`);
    return named;
  }
  const fallback = blocks.find((b) => b.handler === null);
  if (fallback === undefined) {
    const names = blocks.map((b) => b.handler).join(", ");
    throw new HttpError(400, `${method} ${file.path} needs ?handler= with one of: ${names}`);
  }
  return fallback;
}

/** The body as argument values, on a record without Object.prototype (`input.body.constructor` is just a name). */
async function readRouteBody(req: IncomingMessage, maxBodySize: number): Promise<Record<string, unknown>> {
  const input = await readBody(req, maxBodySize);
  if (input.text) return input.args;
  const body = newArgs() as Record<string, unknown>;
  for (const name of Object.keys(input.args)) body[name] = input.args[name];
  return body;
}

/**
 * A redirect made from request values must stay on this site: a path, never `//host` or a
 * scheme. Characters a header cannot carry are %-encoded.
 */
export function siteLocation(location: string): string {
  if (!location.startsWith("/") || location.startsWith("//") || location.startsWith("/\\")) {
    throw new HttpError(400, "the redirect leaves this site");
  }
  return location.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}

/** The path and query of the Referer when it is a page of this server; null otherwise. */
export function sameSiteReferer(req: IncomingMessage): string | null {
  const referer = req.headers.referer;
  if (referer === undefined) return null;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return null;
  }
  if (url.host.toLowerCase() !== (req.headers.host ?? "").toLowerCase()) return null;
  return url.pathname + url.search;
}

/** Headers of a 422 that answers an Unpoly form post with the page at `location`. */
export function failedFormHeaders(req: IncomingMessage, location: string | null): Record<string, string> {
  return location !== null && isUnpolyRequest(req) ? unpolyLocation(location) : {};
}
