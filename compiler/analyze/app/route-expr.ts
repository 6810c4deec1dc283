// Values in route files: literals, `input.query|body|params|headers.<name>`, `input.base_url`,
// `result.<field>` (in a redirect or respond, after an invoke or fetch) and `+`, which joins
// text. A `respond` (in a route file or on a module route) may also build objects and lists
// and read `records` (after `query`). Anything else has no meaning there and is reported
// where it is written.

import { appCodes as codes } from "../../diagnostics/codes/app.js";
import { identityCodes } from "../../diagnostics/codes/identity.js";
import type { Expr, Span } from "../../parse/ast.js";
import type { RouteExprModel } from "../model/app-model.js";
import type { ResourceModel, QueryModel, ValueType } from "../model/model.js";
import { respondCodes } from "../../diagnostics/codes/respond.js";
import type { Reporter } from "../shared/context.js";
import { closest } from "../../diagnostics/did-you-mean.js";

export interface RouteExprScope {
  file: string;
  method: string;
  /** Path parameters of the route file's folder. */
  params: readonly string[];
  path: string;
  /** What `result` holds here: the type an invoke or fetch gives, or null where there is no result. */
  result: ValueType | null;
  resources: ReadonlyMap<string, ResourceModel>;
  queries: ReadonlyMap<string, QueryModel>;
  /** The project says who is calling: `auth` is known. */
  identity: boolean;
  r: Reporter;
  /** A module route's respond reads less of the request than a route file, and reports with its own code. */
  moduleRoute?: boolean;
  /** In a respond: objects, lists, `records` and members past `result.field` are values. */
  respond?: boolean;
  /** `records` exists: the block's step is a `query`. */
  records?: boolean;
}

const SOURCES = ["query", "body", "params", "headers"] as const;
const MODULE_ROUTE_SOURCES: readonly string[] = ["params", "headers"];

/** Null (after reporting) when the expression has no meaning in a route file. */
export function routeExpr(e: Expr, s: RouteExprScope): RouteExprModel | null {
  switch (e.kind) {
    case "String":
    case "Int":
    case "Float":
    case "Bool":
      return { kind: "literal", value: e.value };
    case "Null":
      return { kind: "literal", value: null };
    case "Binary": {
      if (e.op !== "+") return unsupported(`the operator \`${e.op}\``, e.span, s);
      const left = routeExpr(e.left, s);
      const right = routeExpr(e.right, s);
      if (!left || !right) return null;
      const parts = [left, right].flatMap((p) => (p.kind === "concat" ? p.parts : [p]));
      return { kind: "concat", parts };
    }
    case "Member":
    case "Name":
      return reference(e, s);
    case "Unary":
      // `-1` is a number, not an operation.
      if (e.op === "-" && (e.operand.kind === "Int" || e.operand.kind === "Float")) return { kind: "literal", value: -e.operand.value };
      return unsupported(describeKind(e), e.span, s);
    case "Object":
    case "Array":
      if (!s.respond) return unsupported(describeKind(e), e.span, s);
      return e.kind === "Object" ? objectValue(e, s) : listValue(e, s);
    default:
      return unsupported(describeKind(e), e.span, s);
  }
}

/** `a.b.c` → ["a", "b", "c"]; null when something other than names and dots is in it. */
function path(e: Expr): string[] | null {
  if (e.kind === "Name") return [e.name];
  if (e.kind === "Member") {
    const head = path(e.object);
    return head ? [...head, e.property.name] : null;
  }
  return null;
}

function objectValue(e: Extract<Expr, { kind: "Object" }>, s: RouteExprScope): RouteExprModel | null {
  const entries: { key: string; value: RouteExprModel }[] = [];
  let ok = true;
  for (const entry of e.entries) {
    const value = routeExpr(entry.value, s);
    if (value) entries.push({ key: entry.key.name, value });
    else ok = false;
  }
  return ok ? { kind: "object", entries } : null;
}

function listValue(e: Extract<Expr, { kind: "Array" }>, s: RouteExprScope): RouteExprModel | null {
  const items = e.items.map((item) => routeExpr(item, s));
  return items.every((i) => i !== null) ? { kind: "list", items: items as RouteExprModel[] } : null;
}

/** A name a module route's answer does not have (SVC7104). */
function unknownValue(problem: string, span: Span, s: RouteExprScope, near: string | null = null): null {
  s.r.add(respondCodes.unknownValue.at(s.file, span, problem, near));
  return null;
}

function reference(e: Expr, s: RouteExprScope): RouteExprModel | null {
  const parts = path(e);
  if (!parts) return unsupported(describeKind(e), e.span, s);
  const written = parts.join(".");
  if (parts[0] === "input") {
    if (parts[1] === "base_url" && parts.length === 2) return { kind: "baseUrl" };
    const from = parts[1] as (typeof SOURCES)[number];
    if (s.moduleRoute && (parts.length !== 3 || !MODULE_ROUTE_SOURCES.includes(from))) {
      return unknownValue(`\`${written}\` is not a value a module route's answer can read`, e.span, s);
    }
    if (parts.length !== 3 || !SOURCES.includes(from)) {
      s.r.add(codes.badInput.at(s.file, e.span, written));
      return null;
    }
    const name = parts[2];
    // Header names are case-insensitive and carry dashes, which names cannot.
    if (from === "headers") return { kind: "header", name: name.toLowerCase().replace(/_/g, "-") };
    if (from === "params" && s.moduleRoute && !s.params.includes(name)) {
      return unknownValue(`\`${s.path}\` has no path parameter \`${name}\``, e.span, s, closest(name, s.params));
    }
    if (from === "body" && s.method === "GET") {
      s.r.add(codes.bodyInGet.at(s.file, e.span));
      return null;
    }
    if (from === "params" && !s.params.includes(name)) {
      s.r.add(codes.unknownPathParam.at(s.file, e.span, name, s.path, closest(name, s.params)));
      return null;
    }
    return { kind: "input", from, name };
  }
  if (parts[0] === "result") {
    if (s.result === null) {
      const where = s.respond ? "in a respond" : "in a redirect";
      s.r.add(codes.badResult.at(s.file, e.span, `\`result\` is only known ${where} after \`invoke\` or \`fetch\``, null));
      return null;
    }
    if (parts.length === 1) return { kind: "result", field: null };
    if (parts.length > 2 && !s.respond) return unsupported(`\`${written}\``, e.span, s);
    const list = s.result.kind === "rows" || s.result.kind === "queryRows" || s.result.kind === "array";
    const fields = list ? [] : fieldsOf(s.result, s);
    if (fields !== null && !fields.includes(parts[1])) {
      const problem = list ? `the result is a list: it has no field \`${parts[1]}\`` : `the result has no field \`${parts[1]}\``;
      if (s.moduleRoute) return unknownValue(problem, e.span, s, closest(parts[1], fields));
      s.r.add(codes.badResult.at(s.file, e.span, problem, closest(parts[1], fields)));
      return null;
    }
    let value: RouteExprModel = { kind: "result", field: parts[1] };
    for (const name of parts.slice(2)) value = { kind: "member", object: value, name };
    return value;
  }
  if (parts[0] === "records" && s.respond) {
    if (!s.records) {
      if (s.moduleRoute) return unknownValue("a module route's answer has `result`, not `records` (a list query's rows are `result`)", e.span, s);
      const problem = "`records` is only known after a `query` step";
      s.r.add(codes.badResult.at(s.file, e.span, problem, null));
      return null;
    }
    if (parts.length > 1) return unsupported(`\`${written}\` (records is a list)`, e.span, s);
    return { kind: "records" };
  }
  if (s.moduleRoute) {
    const known = ["result", "input", ...(s.records ? ["records"] : [])];
    return unknownValue(`there is no \`${parts[0]}\` in a route's answer`, e.span, s, closest(parts[0], known));
  }
  if (parts[0] === "auth") return caller(parts, e.span, s);
  return unsupported(`the name \`${parts[0]}\``, e.span, s);
}

/** `auth`, `auth.id`, `auth.roles`, `auth.claims.<name>`: left out (as an absent input is) when anonymous. */
function caller(parts: string[], span: Span, s: RouteExprScope): RouteExprModel | null {
  if (!s.identity) {
    s.r.add(identityCodes.authWithoutIdentity.at(s.file, span));
    return null;
  }
  const field = parts[1];
  const fits = parts.length === 1 || (parts.length === 2 && (field === "id" || field === "roles")) || (parts.length === 3 && field === "claims");
  if (!fits) return unsupported(`\`${parts.join(".")}\` (the caller has id, roles and claims.<name>)`, span, s);
  return { kind: "caller", path: parts.slice(1) };
}

/** The fields a result of type `t` is known to have; null when the type does not say. */
function fieldsOf(t: ValueType, s: RouteExprScope): string[] | null {
  switch (t.kind) {
    case "row":
      return s.resources.get(t.resource)?.fields.map((f) => f.name) ?? null;
    case "queryRow": {
      // Action return types name a query within its module; route files name it `module.query`.
      const q = s.queries.get(t.query) ?? [...s.queries.values()].find((x) => x.name === t.query);
      return q?.columns.map((c) => c.name) ?? null;
    }
    case "object":
      return t.fields.map((f) => f.name);
    default:
      return null;
  }
}

function unsupported(what: string, span: Span, s: RouteExprScope): null {
  if (s.moduleRoute) return unknownValue(`${what} cannot be used in a route's answer`, span, s);
  s.r.add(codes.unsupportedExpression.at(s.file, span, what));
  return null;
}

function describeKind(e: Expr): string {
  switch (e.kind) {
    case "Call":
      return `the call \`${e.callee.name}(…)\``;
    case "RecordOp":
      return `\`${e.op} ${e.resource.name}\``;
    case "Object":
      return "an object";
    case "Array":
      return "a list";
    case "Unary":
      return `the operator \`${e.op}\``;
    default:
      return "this expression";
  }
}

/** What a value is, for a type message; null when only the request decides (input, result). */
export function staticKind(v: RouteExprModel): "text" | "int" | "float" | "bool" | "null" | null {
  if (v.kind === "concat" || v.kind === "baseUrl") return "text";
  if (v.kind === "object" || v.kind === "list") return null;
  if (v.kind !== "literal") return null;
  const x = v.value;
  if (x === null) return "null";
  if (typeof x === "string") return "text";
  if (typeof x === "boolean") return "bool";
  return Number.isInteger(x) ? "int" : "float";
}
