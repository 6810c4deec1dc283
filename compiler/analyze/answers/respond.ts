// `respond [status] [body] (header "Name" = value)*` on a module route or in a route-file
// block (docs/language.md §2.4, §4): the success status, the body without the envelope and
// the headers, resolved here so the generator writes one plain function per route.

import { respondCodes as codes } from "../../diagnostics/codes/respond.js";
import type { RespondClause } from "../../parse/ast.js";
import { type ResponseModel, SUCCESS_STATUSES, type SuccessStatus } from "../model/model.js";
import { type RouteExprScope, routeExpr, staticKind } from "../app/route-expr.js";
import { checkTextBody, mediaOn204, respondMedia } from "./respond-media.js";
import { analyzeStream, streams } from "./respond-stream.js";
import { place } from "../shared/context.js";

/** RFC 9110 §5.6.2: a header name is a token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Headers the server writes itself: a route setting one would break framing, content type or request ids. */
const SERVER_HEADERS = new Set(["content-type", "content-length", "transfer-encoding", "connection", "keep-alive", "x-request-id"]);

/** Null (after reporting) when anything in the clause is wrong. */
/** `routeData` where the body without one is a block's route data, else what `result` holds. */
/** `action`: the route's target is an action, whose answer is never streamed. */
export function analyzeRespond(clause: RespondClause, scope: RouteExprScope, notFoundOnNull: boolean, routeData = false, action = false): ResponseModel | null {
  const { file, r } = scope;
  const before = r.diagnostics.length;
  const written = clause.status?.value ?? 200;
  if (!(SUCCESS_STATUSES as readonly number[]).includes(written)) {
    r.add(codes.badStatus.at(file, clause.status!.span, String(written)));
  }
  const status = written as SuccessStatus;
  const empty = status === 204;
  if (empty && clause.body) r.add(codes.bodyOn204.at(file, clause.body.span));
  const inRespond: RouteExprScope = { ...scope, respond: true };
  const body = clause.body && !empty ? routeExpr(clause.body, inRespond) : null;
  let media: ResponseModel["media"];
  let stream: ResponseModel["stream"] | null = null;
  if (clause.media !== null && empty) mediaOn204(clause.media, scope);
  else if (clause.media !== null) {
    media = respondMedia(clause.media, file, scope) ?? undefined;
    const target = routeData ? "block" : action ? "action" : "query";
    if (streams(clause.media, clause.body, target)) stream = analyzeStream(clause.media, clause.body, target, scope);
    else if (media?.encoding === "text" && (body !== null || clause.body === null)) {
      checkTextBody(clause.media, body, routeData ? "routeData" : scope.result, clause.body?.span ?? clause.media.span, inRespond);
    }
  }

  const headers: ResponseModel["headers"] = [];
  const seen = new Set<string>();
  for (const h of clause.headers) {
    const name = h.name.value;
    const lower = name.toLowerCase();
    if (!TOKEN.test(name)) {
      r.add(codes.badHeader.at(file, h.name.span, `"${name}" is not a header name`));
      continue;
    }
    if (SERVER_HEADERS.has(lower)) {
      r.add(codes.badHeader.at(file, h.name.span, `the server sets "${name}" itself`));
      continue;
    }
    if (seen.has(lower)) {
      r.add(codes.badHeader.at(file, h.name.span, `header "${name}" is given twice`));
      continue;
    }
    seen.add(lower);
    const value = routeExpr(h.value, inRespond);
    if (!value) continue;
    if (value.kind === "object" || value.kind === "list") {
      r.add(codes.badHeader.at(file, h.value.span, `the value of header "${name}" must be text, not ${value.kind === "object" ? "an object" : "a list"}`));
      continue;
    }
    if (staticKind(value) === "null") {
      r.add(codes.badHeader.at(file, h.value.span, `header "${name}" is always null: leave it out`));
      continue;
    }
    headers.push({ name, value });
  }
  if (r.diagnostics.length > before) return null;
  const model: ResponseModel = { status, body, empty, headers, notFoundOnNull, source: place(file, clause.span) };
  if (media !== undefined) model.media = media;
  if (stream !== null) model.stream = stream;
  return model;
}
