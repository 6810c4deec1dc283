// `respond text …`, `respond html …`, `respond csv …` and `respond type "media/type" …`
// (docs/language.md §2.4 "Answers of any media type"): the Content-Type decided here, at build
// time, and the body checked to be text wherever the types say what it is.

import { answerCodes as codes } from "../../diagnostics/codes/answers.js";
import { respondCodes } from "../../diagnostics/codes/respond.js";
import type { RespondMedia, Span } from "../../parse/ast.js";
import type { RouteExprModel } from "../model/app-model.js";
import type { ResponseModel, ValueType } from "../model/model.js";
import type { RouteExprScope } from "../app/route-expr.js";

const NAMED: Record<Exclude<RespondMedia["kind"], "type">, string> = {
  text: "text/plain; charset=utf-8",
  html: "text/html; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  ndjson: "application/x-ndjson",
};

/** RFC 9110 §8.3.1: `type/subtype` of tokens, then `; name=value` parameters (a token or a quoted string). */
const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:\\s*;\\s*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\x00-\\x1f\\x7f]*"))*$`);

/** What a JSON media type looks like: application/json, or any `+json` suffix (RFC 6839). */
function isJson(type: string): boolean {
  const essence = type.split(";")[0].trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json");
}

/** The answer's media, or null (after reporting) when the written type is not one. */
export function respondMedia(media: RespondMedia, file: string, scope: RouteExprScope): NonNullable<ResponseModel["media"]> | null {
  // `html` escapes every value it did not write itself; `type "text/html"` is the way to send markup a value holds.
  if (media.kind === "html") return { contentType: NAMED.html, encoding: "text", escape: "html" };
  if (media.kind !== "type") return { contentType: NAMED[media.kind], encoding: "text" };
  const written = media.type!.value.trim();
  if (!MEDIA_TYPE.test(written) || written.includes("*")) {
    scope.r.add(codes.badMediaType.at(file, media.type!.span, media.type!.value));
    return null;
  }
  if (isJson(written)) return { contentType: written, encoding: "json" };
  // A text body goes out as UTF-8: a text/* type says so, unless it names its charset itself.
  const charset = /;\s*charset=/i.test(written);
  const contentType = written.toLowerCase().startsWith("text/") && !charset ? `${written}; charset=utf-8` : written;
  return { contentType, encoding: "text" };
}

/**
 * A text answer's body must be text: reported (SVC7112) where the types say it is not. A
 * value only the request decides (an input, a json member) is written as text at run time.
 */
export function checkTextBody(
  media: RespondMedia,
  body: RouteExprModel | null,
  whole: ValueType | "routeData" | null,
  span: Span,
  scope: RouteExprScope,
): void {
  const what = media.kind === "type" ? `type "${media.type!.value}"` : media.kind;
  const problem = body === null ? (whole === "routeData" ? "the route data (an object)" : whole === null ? null : typeProblem(whole)) : valueProblem(body, scope);
  if (problem !== null) scope.r.add(codes.textBodyNotText.at(scope.file, span, what, problem));
}

/** 204 has no body, so no media either. */
export function mediaOn204(media: RespondMedia, scope: RouteExprScope): void {
  scope.r.add(respondCodes.bodyOn204.at(scope.file, media.span));
}

function valueProblem(v: RouteExprModel, s: RouteExprScope): string | null {
  switch (v.kind) {
    case "literal":
      if (typeof v.value === "string") return null;
      return v.value === null ? "null" : typeof v.value === "boolean" ? "true or false" : "a number";
    case "object":
      return "an object";
    case "list":
      return "a list";
    case "records":
      return "a list of rows";
    case "caller":
      return v.path.length === 0 ? "the caller (an object)" : v.path[0] === "roles" ? "a list" : null;
    case "result": {
      if (s.result === null) return null;
      if (v.field === null) return typeProblem(s.result);
      const t = fieldType(s.result, v.field, s);
      return t === null ? null : typeProblem(t);
    }
    default:
      // input.*, headers, base_url and `+` are text; members past result.field are known at run time.
      return null;
  }
}

function typeProblem(t: ValueType): string | null {
  switch (t.kind) {
    case "scalar":
      return t.type === "text" || t.type === "id" || t.type === "enum" || t.type === "timestamp" ? null : t.type === "json" ? null : `a value of type ${t.type}`;
    case "row":
    case "queryRow":
      return "a row";
    case "object":
      return "an object";
    case "rows":
    case "queryRows":
    case "array":
      return "a list";
    case "caller":
      return "the caller (an object)";
    case "null":
      return "null";
    case "unknown":
      return null;
  }
}

function fieldType(t: ValueType, field: string, s: RouteExprScope): ValueType | null {
  if (t.kind === "row") {
    const f = s.resources.get(t.resource)?.fields.find((x) => x.name === field);
    return f ? { kind: "scalar", type: f.type, enumValues: f.enumValues, nullable: f.nullable } : null;
  }
  if (t.kind === "queryRow") {
    const q = s.queries.get(t.query) ?? [...s.queries.values()].find((x) => x.name === t.query);
    const c = q?.columns.find((x) => x.name === field);
    return c && c.type !== "unknown" ? { kind: "scalar", type: c.type, enumValues: c.enumValues, nullable: c.nullable } : null;
  }
  if (t.kind === "object") return t.fields.find((f) => f.name === field)?.type ?? null;
  return null;
}
