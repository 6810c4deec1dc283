// A request to a route file (docs/language.md §4): choose the block (`?handler=`, else the
// method's default), read the body, run the block, and answer. JSON callers get the
// envelope with the route data; a form post that succeeds gets 303 to its redirect (or
// back to the page it came from), and one that fails gets 422 with that page rendered
// again with `error` set, which is also what Unpoly needs to show the failure in the form.

import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "../core/body.js";
import type { FileParts } from "../uploads/index.js";
import { lingerIfUnread } from "../core/linger.js";
import { RequestView, sendOk, sendShaped, sendShapedError, sendWhole } from "../core/answer/index.js";
import type { ShapedAnswer } from "../contract/index.js";
import { HttpError } from "../core/errors.js";
import { authorizeFirst, callerId, type IdempotencyStore, keptKey, markReplayed, requestText } from "../idempotency/index.js";
import { newArgs, parseQueryString } from "../core/query-string.js";
import type { CallContext } from "../contract/index.js";
import { isUnpolyRequest, unpolyLocation } from "../assets/index.js";
import { mediaType } from "../core/media-type.js";
import { isFormPost, wantsJsonOnly } from "./caller.js";
import { settled } from "../limits/index.js";
import type { AppDeps } from "./app.js";
import type { Pages } from "./pages.js";
import type { RouteBlockSpec, RouteFileSpec, RouteInput, RouteOutcome } from "../contract/index.js";
import { viewUnder } from "../lang/trace-context.js";

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
  const media = mediaType(req.headers["content-type"]);
  const form = method !== "GET" && isFormPost(req, media);
  const html = form && !wantsJsonOnly(req);
  const block = chooseBlock(file, method, query.handler);
  // A token or a session in the answer: no cache may keep it (docs/auth.md), whatever comes of the call.
  if (block.noStore === true) res.setHeader("Cache-Control", "no-store");
  const keys = deps.keys ?? null;
  // A GET only reads: it ignores the header, as a query does. A block whose action handles
  // credentials drops it.
  const key = method !== "GET" && keys !== null ? keptKey(req, block.credentials !== true) : null;
  const call: BlockCall = { pages, deps, req, res, file, block, method, key, json: !html };
  if (!html && block.shaped === true && deps.errors !== null) {
    // A block that shapes its answer answers its errors in the app's error shape too.
    try {
      await answerJson(call, await readInput(call, query, params, form), ctx);
    } catch (err) {
      if (res.headersSent) throw err;
      sendShapedError(res, err, deps.errors, deps.log, { request_id: ctx.requestId, method: req.method, path: file.path });
      lingerIfUnread(req, res);
    }
    return;
  }
  const input = await readInput(call, query, params, form);
  if (!html) {
    await answerJson(call, input, ctx);
    return;
  }
  let location: string;
  try {
    const outcome = await run(call, input, ctx);
    location = outcome.redirect === null ? (sameSiteReferer(req) ?? "/") : siteLocation(outcome.redirect);
  } catch (err) {
    await pages.sendFailedForm(req, res, err, input.body, ctx);
    return;
  }
  if (ctx.cookies !== undefined) res.setHeader("Set-Cookie", ctx.cookies);
  // 303 turns the POST into a GET of the next page (RFC 9110 §15.4.4); fetch follows it,
  // so Unpoly renders that page's fragment.
  sendWhole(res, 303, null, { Location: location });
}

/** One request to one block, as the steps below need it. */
interface BlockCall {
  pages: Pages;
  deps: AppDeps;
  req: IncomingMessage;
  res: ServerResponse;
  file: RouteFileSpec;
  block: RouteBlockSpec;
  method: string;
  /** The Idempotency-Key, or null to run without one. */
  key: string | null;
  /** The caller takes JSON: a block with `respond` answers with it. */
  json: boolean;
}

async function readInput(call: BlockCall, query: Record<string, string>, params: Record<string, string>, form: boolean): Promise<RouteInput> {
  const uploads = call.deps.uploads ?? null;
  const files = uploads !== null && call.block.files !== undefined ? { uploads, accepts: call.block.files } : null;
  const body = call.method === "GET" ? newArgs() : await readRouteBody(call.req, call.pages.maxBodySize, files);
  // Answered meanwhile (the read or write timeout): the block must not run.
  if (call.res.headersSent) throw new HttpError(call.res.statusCode, "already answered", { code: "SVC_ERR_INTERNAL" });
  return { query, body, params, form, view: new RequestView(call.req, call.deps.site) };
}

/** A JSON caller: the envelope with the route data, or the block's own answer. */
async function answerJson(call: BlockCall, input: RouteInput, ctx: CallContext): Promise<void> {
  const outcome = await run(call, input, ctx);
  if (ctx.cookies !== undefined) call.res.setHeader("Set-Cookie", ctx.cookies);
  if (outcome.answer !== undefined) sendShaped(call.res, outcome.answer());
  else sendOk(call.res, outcome.data);
}

async function run(call: BlockCall, input: RouteInput, ctx: CallContext): Promise<RouteOutcome> {
  const keys = call.deps.keys ?? null;
  // Counted before the block runs and outside its transaction: a request that fails still counts.
  const limits = call.block.limits;
  if (limits !== undefined && ctx.limits) await ctx.limits.enforce(limits, input, ctx, call.res);
  return settled(ctx, call.key === null || keys === null ? call.block.run(viewUnder(call.pages.db, ctx.span), input, ctx) : runOnce(keys, call.key, call, input, ctx));
}

/** What is stored for a key: the outcome, with the answer made for a JSON caller of a block with `respond`. */
interface StoredOutcome {
  data: Record<string, unknown>;
  redirect: string | null;
  answer?: ShapedAnswer;
}

/**
 * A block posted with an Idempotency-Key: its target is the block (file path and handler),
 * its request the path parameters, query and body. A replayed outcome answers as the
 * first did: the same data, the same redirect, and for a block with `respond` the same
 * status, body and headers, made once when the block first ran (a JSON caller's answer is
 * part of the fingerprint, so a form post's stored outcome never answers a JSON call).
 */
async function runOnce(keys: IdempotencyStore, key: string, call: BlockCall, input: RouteInput, ctx: CallContext): Promise<RouteOutcome> {
  const { block, file, method, res } = call;
  authorizeFirst(block.requires, ctx);
  const scope = `${method} ${file.path}${block.handler === null ? "" : `?handler=${block.handler}`}`;
  const answers = call.json && block.shaped === true;
  const parts: unknown[] = [input.params, input.query, input.body, input.form];
  if (answers) parts.push("respond");
  let ran: RouteOutcome | null = null;
  const answer = await keys.call(
    { target: scope, key, caller: callerId(ctx), request: requestText(method, file.path, ...parts) },
    async (db) => (ran = await block.run(db, input, ctx)),
    (outcome) => {
      const stored: StoredOutcome = { data: outcome.data, redirect: outcome.redirect };
      // Made inside the transaction: an answer that cannot be made (a bad Host for
      // input.base_url) rolls the block back rather than storing half of it.
      if (answers && outcome.answer !== undefined) stored.answer = outcome.answer();
      return JSON.stringify(stored);
    },
    viewUnder(call.pages.db, ctx.span),
  );
  if (!answer.replayed && ran !== null) return ran;
  if (!res.headersSent) markReplayed(res);
  const stored = JSON.parse(answer.body) as StoredOutcome;
  const replayed: RouteOutcome = { data: stored.data, redirect: stored.redirect };
  const shaped = stored.answer;
  if (shaped !== undefined) replayed.answer = () => shaped;
  return replayed;
}

/**
 * Whether an error before the block runs (the cross-site refusal, a refused credential)
 * keeps the envelope: when the request chooses a block and that block has no `respond`.
 * Errors of the file's path itself (405, an unknown handler) take the app's error shape.
 */
export function blockAnswersEnvelope(file: RouteFileSpec, method: string, rawQuery: string): boolean {
  try {
    const handler = rawQuery === "" ? undefined : parseQueryString(rawQuery).handler;
    return chooseBlock(file, method, handler).shaped !== true;
  } catch {
    // No such block, or a query string it could not choose by: no block answers, the file's path does.
    return false;
  }
}

/** `?handler=name` picks a named block; without it, the method's default block runs. */
function chooseBlock(file: RouteFileSpec, method: string, handler: string | undefined): RouteBlockSpec {
  const blocks = file.blocks.filter((b) => b.method === method);
  if (blocks.length === 0) {
    const allow = [...new Set(file.blocks.map((b) => b.method))];
    throw new HttpError(405, "method not allowed", { code: "SVC_ERR_METHOD_NOT_ALLOWED", headers: { Allow: allow.join(", ") } });
  }
  if (handler !== undefined && handler !== "") {
    const named = blocks.find((b) => b.handler === handler);
    if (named === undefined) throw new HttpError(404, `${method} ${file.path} has no handler "${handler}"`, { code: "SVC_ERR_PAGE_HANDLER" });
    return named;
  }
  const fallback = blocks.find((b) => b.handler === null);
  if (fallback === undefined) {
    const names = blocks.map((b) => b.handler).join(", ");
    throw new HttpError(400, `${method} ${file.path} needs ?handler= with one of: ${names}`, { code: "SVC_ERR_PAGE_HANDLER" });
  }
  return fallback;
}

/** The body as argument values, on a record without Object.prototype (`input.body.constructor` is just a name). */
async function readRouteBody(req: IncomingMessage, maxBodySize: number, files: FileParts | null): Promise<Record<string, unknown>> {
  const input = await readBody(req, maxBodySize, files);
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
    throw new HttpError(400, "the redirect leaves this site", { code: "SVC_ERR_REDIRECT_OFFSITE" });
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
