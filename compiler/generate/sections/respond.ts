// What a route answers when it says `respond` (docs/language.md §2.4, §4), and the app's error
// bodies (svc.toml [errors]): each compiled here into plain code that builds the JSON text,
// so no template is interpreted per request.

import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { ErrorShapeModel, Model, ResponseModel, RouteExprModel, RouteModel } from "../../analyze/model/model.js";
import { camelCase } from "../../analyze/shared/names.js";
import { key, literal } from "../literal.js";
import type { Names } from "../names.js";
import { streamConst } from "./stream.js";

type Out = (string | StatementStructures)[];

/** `respondPostApiUsers`: the function that answers one module route. */
export function respondFunctionName(names: Names, route: RouteModel): string {
  const base = camelCase(`respond_${route.method.toLowerCase()}_${route.path.replace(/[^A-Za-z0-9]+/g, "_")}`);
  return names.app(`respond:${route.method}:${route.path}`, base);
}

/** One function per module route with `respond`: `(result, input) => answer`. */
export function respondSection(model: Model, names: Names): Out {
  const out: Out = [];
  const shaped = model.routes.filter((r) => r.respond !== undefined);
  if (shaped.length > 0) out.push("// ---- route answers ----");
  for (const route of shaped) {
    const respond = route.respond!;
    if (respond.stream) out.push(streamConst(model, names, route));
    const statements: string[] = [];
    if (respond.notFoundOnNull) statements.push(`if (result === null) throw new rt.HttpError(404, "not found");`);
    statements.push(`return ${answerLiteral(respond, "result")};`);
    const uses = (v: RouteExprModel | null): boolean => v !== null && reads(v, REQUEST);
    const values = [...(respond.body ? [respond.body] : []), ...respond.headers.map((h) => h.value)];
    const usesResult = respond.notFoundOnNull || (respond.stream === undefined && (!respond.empty && respond.body === null) || values.some((v) => reads(v, RESULT)));
    out.push({
      kind: StructureKind.Function,
      name: respondFunctionName(names, route),
      docs: [`${route.method} ${route.path}, a route of module ${route.module}.`],
      parameters: [
        { name: usesResult ? "result" : "_result", type: "unknown" },
        { name: uses(respond.body) || respond.headers.some((h) => uses(h.value)) ? "input" : "_input", type: "rt.RespondInput" },
      ],
      returnType: "rt.ShapedAnswer",
      statements: statements.join("\n"),
    });
  }
  if (model.errorShape) out.push(errorShapeConst(model.errorShape));
  return out;
}

/**
 * `{ status, body, headers }` as TypeScript. `whole` is what the body is when the respond
 * names none: the route's result (module routes) or its route data (route files).
 */
export function answerLiteral(respond: ResponseModel, whole: string): string {
  const source = respond.body === null ? whole : valueExpr(respond.body);
  // A streamed answer's body is written by runtime/core/answer/stream; this makes its head.
  const body = respond.empty || respond.stream
    ? "null"
    : respond.media?.escape === "html"
      ? respond.body === null ? `rt.answerHtml(${whole})` : htmlExpr(respond.body)
      : respond.media?.encoding === "text"
      ? `rt.answerText(${source})`
      : `JSON.stringify(${source}) ?? "null"`;
  const type = respond.media === undefined ? "" : `, type: ${JSON.stringify(respond.media.contentType)}`;
  const headers =
    respond.headers.length === 0
      ? "null"
      : `[${respond.headers.map((h) => `[${JSON.stringify(h.name)}, rt.headerText(${valueExpr(h.value)})]`).join(", ")}]`;
  return `{ status: ${respond.status}, body: ${body}, headers: ${headers}${type} }`;
}

/** A `respond html` body: its own literals as markup, every other value escaped (runtime/core/answer/text.ts). */
function htmlExpr(v: RouteExprModel): string {
  if (v.kind === "literal" && typeof v.value === "string") return literal(v.value);
  if (v.kind === "concat") return v.parts.map(htmlExpr).join(" + ");
  return `rt.answerHtml(${valueExpr(v)})`;
}

/** Does a route value read any of these kinds of value (`result`, the request, the caller)? */
export function reads(v: RouteExprModel, kinds: ReadonlySet<RouteExprModel["kind"]>): boolean {
  if (kinds.has(v.kind)) return true;
  switch (v.kind) {
    case "concat":
      return v.parts.some((p) => reads(p, kinds));
    case "member":
      return reads(v.object, kinds);
    case "object":
      return v.entries.some((e) => reads(e.value, kinds));
    case "list":
      return v.items.some((i) => reads(i, kinds));
    default:
      return false;
  }
}

/** What a value reads of the request: the input, a header, the base URL. */
export const REQUEST: ReadonlySet<RouteExprModel["kind"]> = new Set(["input", "header", "baseUrl"]);
const RESULT: ReadonlySet<RouteExprModel["kind"]> = new Set(["result"]);

function isInput(v: RouteExprModel, from: "query" | "body" | "params"): boolean {
  return v.kind === "input" && v.from === from;
}

/** A route-file or respond value as TypeScript. Path parameters are always strings; anything else may be absent. */
export function valueExpr(v: RouteExprModel): string {
  switch (v.kind) {
    case "literal":
      return literal(v.value);
    case "input":
      return `input.${v.from}.${v.name}`;
    case "result":
      return v.field === null ? "result" : `rt.member(result, ${JSON.stringify(v.field)})`;
    case "records":
      return "records";
    case "caller":
      // Only route-file blocks reach here with `auth` (a module route's answer has no caller), so `ctx` is in scope.
      return v.path.length === 0 ? "ctx.caller ?? undefined" : `ctx.caller?.${v.path.join("?.")}`;
    case "member":
      return `rt.member(${valueExpr(v.object)}, ${JSON.stringify(v.name)})`;
    case "header":
      return `input.view.header(${JSON.stringify(v.name)})`;
    case "baseUrl":
      return "input.view.baseUrl()";
    case "object":
      return `{ ${v.entries.map((e) => `${key(e.key)}: ${valueExpr(e.value)}`).join(", ")} }`;
    case "list":
      return `[${v.items.map(valueExpr).join(", ")}]`;
    case "concat":
      // Strings, path parameters and the base URL join with +; anything else goes through
      // rt.app.join, where an absent value reads as "" (as `+` on text does in actions).
      return v.parts.every((p) => (p.kind === "literal" && typeof p.value === "string") || isInput(p, "params") || p.kind === "baseUrl")
        ? v.parts.map(valueExpr).join(" + ")
        : `rt.app.join(${v.parts.map(valueExpr).join(", ")})`;
  }
}

/**
 * `[errors] body` as a function from status and message to JSON text: constant parts are
 * written out as JSON once, here; only the placeholders are filled per error.
 */
function errorShapeConst(shape: ErrorShapeModel): StatementStructures {
  const pieces: string[] = [];
  let text = "";
  const flush = () => {
    if (text !== "") pieces.push(JSON.stringify(text));
    text = "";
  };
  const emit = (v: unknown): void => {
    if (typeof v === "string") {
      if (v === "{status}") {
        flush();
        pieces.push("String(status)");
      } else if (/\{(message|status)\}/.test(v)) {
        flush();
        const parts = v.split(/(\{message\}|\{status\})/).filter((p) => p !== "");
        const joined = parts.map((p) => (p === "{message}" ? "message" : p === "{status}" ? "String(status)" : JSON.stringify(p))).join(" + ");
        pieces.push(`JSON.stringify(${joined})`);
      } else {
        text += JSON.stringify(v);
      }
    } else if (Array.isArray(v)) {
      text += "[";
      v.forEach((item, i) => {
        if (i > 0) text += ",";
        emit(item);
      });
      text += "]";
    } else if (v !== null && typeof v === "object") {
      text += "{";
      Object.entries(v).forEach(([k, item], i) => {
        text += `${i > 0 ? "," : ""}${JSON.stringify(k)}:`;
        emit(item);
      });
      text += "}";
    } else {
      text += JSON.stringify(v);
    }
  };
  emit(shape.body);
  flush();
  const usesStatus = pieces.some((p) => p.includes("status"));
  const usesMessage = pieces.some((p) => p.includes("message"));
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    leadingTrivia: "// svc.toml [errors]: the error body of routes that shape their answer.\n",
    declarations: [
      {
        name: "errorShape",
        type: "rt.ErrorShape",
        initializer: `{\nvalidationStatus: ${shape.validationStatus},\nbody: (${usesStatus ? "status" : "_status"}: number, ${usesMessage ? "message" : "_message"}: string): string => ${pieces.join(" + ")},\n}`,
      },
    ],
  };
}
