// Values in route files: literals, `input.query|body|params.<name>`, `result.<field>` (in a
// redirect, after an invoke or fetch) and `+`, which joins text. Anything else has no
// meaning in a route file and is reported where it is written.

import { appCodes as codes } from "../diagnostics/codes/app.js";
import { identityCodes } from "../diagnostics/codes/identity.js";
import type { Expr, Span } from "../parse/ast.js";
import type { RouteExprModel } from "./app-model.js";
import type { ResourceModel, QueryModel, ValueType } from "./model.js";
import type { Reporter } from "./shared/context.js";
import { closest } from "../diagnostics/did-you-mean.js";

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
}

const SOURCES = ["query", "body", "params"] as const;

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

function reference(e: Expr, s: RouteExprScope): RouteExprModel | null {
  const parts = path(e);
  if (!parts) return unsupported(describeKind(e), e.span, s);
  const written = parts.join(".");
  if (parts[0] === "input") {
    const from = parts[1] as (typeof SOURCES)[number];
    if (parts.length !== 3 || !SOURCES.includes(from)) {
      s.r.add(codes.badInput.at(s.file, e.span, written));
      return null;
    }
    const name = parts[2];
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
      s.r.add(codes.badResult.at(s.file, e.span, "`result` is only known in a redirect after `invoke` or `fetch`", null));
      return null;
    }
    if (parts.length === 1) return { kind: "result", field: null };
    if (parts.length > 2) return unsupported(`\`${written}\``, e.span, s);
    const fields = fieldsOf(s.result, s);
    if (fields !== null && !fields.includes(parts[1])) {
      s.r.add(codes.badResult.at(s.file, e.span, `the result has no field \`${parts[1]}\``, closest(parts[1], fields)));
      return null;
    }
    return { kind: "result", field: parts[1] };
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
  if (v.kind === "concat") return "text";
  if (v.kind !== "literal") return null;
  const x = v.value;
  if (x === null) return "null";
  if (typeof x === "string") return "text";
  if (typeof x === "boolean") return "bool";
  return Number.isInteger(x) ? "int" : "float";
}
