// What an operation answers when it succeeds: the envelope (runtime/core/answer/envelope.ts) with status
// 200, or what a route's `respond` shapes (status, body, headers). Both are described here and
// nowhere else, so openapi.json and the client follow them together.

import type { Model, QueryModel, ResponseModel, RouteBlockModel, RouteExprModel, RouteModel, TargetRef, ValueType } from "../../analyze/model/model.js";
import type { Names } from "../names.js";
import { ANY, CALLER_SCHEMA, FILE_ANSWER, orNull, ref, type Schema, valueSchema } from "./schema.js";
import { answersFile } from "../../analyze/config/uploads.js";

export interface Answer {
  status: number;
  /** The body's schema: for an envelope, the schema of `data`; null for a 204. */
  schema: Schema | null;
  /** Wrapped as `{"ok": true, "data": …}`; false for `respond`, whose errors take `[errors]`. */
  envelope: boolean;
  /** Response headers a `respond` sets. */
  headers: string[];
  /** The Content-Type of a `respond text|html|csv|type "…"`; absent for JSON. */
  mediaType?: string;
  /** The body is that media type's text, not JSON (the generated client hands it over as a string). */
  text?: true;
  /** The answer is a stored file's bytes, not JSON (an action that returns a `file`, docs/language.md §2.7). */
  file?: true;
}

/** An action that returns a `file` answers the file: its bytes, ETag and Content-Disposition. */
function fileAnswer(model: Model, t: TargetRef): Answer | null {
  if (t.kind !== "action") return null;
  const a = model.actions.find((x) => x.module === t.module && x.name === t.name);
  return a !== undefined && answersFile(a) ? { status: 200, schema: FILE_ANSWER, envelope: false, headers: ["ETag", "Content-Disposition"], file: true } : null;
}

/** The rows of a query as JSON: a list, or one row or null. */
export function queryResultSchema(q: QueryModel, names: Names): Schema {
  const row = ref(q.rowResource ? names.rowType(q.rowResource) : names.queryRowType(q.module, q.name));
  return q.one ? orNull(row) : { type: "array", items: row };
}

/** What a query or action returns, as the endpoint sends it. */
export function targetSchema(model: Model, names: Names, t: TargetRef): Schema {
  if (t.kind === "query") {
    const q = model.queries.find((x) => x.module === t.module && x.name === t.name);
    return q ? queryResultSchema(q, names) : ANY;
  }
  const a = model.actions.find((x) => x.module === t.module && x.name === t.name);
  return a ? valueSchema(a.returns, names, model) : ANY;
}

/** `/api/<module>:<name>`: the endpoint's result in the envelope. */
export function endpointAnswer(model: Model, names: Names, t: TargetRef): Answer {
  const file = fileAnswer(model, t);
  if (file !== null) return file;
  return { status: 200, schema: targetSchema(model, names, t), envelope: true, headers: [] };
}

/** A module `route`: the target's envelope, or what its `respond` shapes. */
export function routeAnswer(model: Model, names: Names, route: RouteModel): Answer {
  if (!route.respond || fileAnswer(model, route.target) !== null) return endpointAnswer(model, names, route.target);
  let result = targetType(model, route.target);
  // A route to a `one` query answers 404 for no row, so its result is never null.
  if (route.respond.notFoundOnNull) result = nonNull(result);
  return shaped(model, names, route.respond, { result, records: null, data: valueSchema(result, names, model) });
}

/** A route-file block's route data: `{records}`, `{result}` or `{}`, in the envelope. */
export function blockAnswer(model: Model, names: Names, block: RouteBlockModel): Answer {
  const step = block.step;
  const empty: Schema = { type: "object", additionalProperties: false };
  let data = empty;
  let result: ValueType | null = null;
  let records: ValueType | null = null;
  if (step !== null) {
    let schema = targetSchema(model, names, step.target);
    // A fetch that finds nothing is a 404, so its result is never null.
    if (step.op === "fetch") schema = withoutNull(schema);
    const key = step.op === "query" ? "records" : "result";
    data = { type: "object", properties: { [key]: schema }, required: [key] };
    const type = targetType(model, step.target);
    if (step.op === "query") records = type;
    else result = step.op === "fetch" ? nonNull(type) : type;
  }
  if (block.respond) return shaped(model, names, block.respond, { result, records, data });
  return { status: 200, schema: data, envelope: true, headers: [] };
}

interface Scope {
  result: ValueType | null;
  records: ValueType | null;
  /** The body when `respond` names none: the result, or a block's route data. */
  data: Schema;
}

function shaped(model: Model, names: Names, r: ResponseModel, scope: Scope): Answer {
  if (r.media !== undefined && !r.empty) {
    // A text answer is a string in its media type; a JSON media type keeps the value's schema.
    const schema = r.media.encoding === "text" ? { type: "string" } : r.body === null ? scope.data : exprSchema(model, names, r.body, scope);
    const answer: Answer = { status: r.status, schema, envelope: false, headers: r.headers.map((h) => h.name), mediaType: r.media.contentType };
    if (r.media.encoding === "text") answer.text = true;
    return answer;
  }
  const schema = r.empty ? null : r.body === null ? scope.data : exprSchema(model, names, r.body, scope);
  return { status: r.status, schema, envelope: false, headers: r.headers.map((h) => h.name) };
}

/** A respond value as JSON, typed from the model: what a `+`, an input or a header gives is text. */
function exprSchema(model: Model, names: Names, e: RouteExprModel, scope: Scope): Schema {
  switch (e.kind) {
    case "literal":
      return e.value === null ? { type: "null" } : { type: typeof e.value === "number" ? (Number.isInteger(e.value) ? "integer" : "number") : typeof e.value };
    case "input":
    case "header":
    case "baseUrl":
    case "concat":
      return { type: "string" };
    case "caller":
      return e.path.length === 0 ? CALLER_SCHEMA : e.path[0] === "id" ? { type: "string" } : e.path[0] === "roles" && e.path.length === 1 ? { type: "array", items: { type: "string" } } : ANY;
    case "records":
      return scope.records ? valueSchema(scope.records, names, model) : ANY;
    case "result":
    case "member": {
      const t = exprType(model, e, scope);
      return t ? valueSchema(t, names, model) : ANY;
    }
    case "object": {
      const properties: Schema = {};
      const required: string[] = [];
      for (const { key, value } of e.entries) {
        properties[key] = exprSchema(model, names, value, scope);
        // A member or header that is absent is left out of the object (§2.4).
        if (!mayBeAbsent(model, value, scope)) required.push(key);
      }
      return { type: "object", properties, required };
    }
    case "list": {
      // An absent member or header is null in a list (§2.4).
      const items = e.items.map((x) => (mayBeAbsent(model, x, scope) ? orNull(exprSchema(model, names, x, scope)) : exprSchema(model, names, x, scope)));
      const distinct = [...new Map(items.map((x) => [JSON.stringify(x), x])).values()];
      const bases = [...new Set(items.map((x) => JSON.stringify(withoutNull(x))))];
      // `["a", input.headers.x]`: text or null, not a choice of two texts.
      if (bases.length === 1 && distinct.length > 1) return { type: "array", items: orNull(withoutNull(items[0])) };
      return { type: "array", items: distinct.length === 1 ? distinct[0] : distinct.length === 0 ? ANY : { anyOf: distinct } };
    }
  }
}

/** A header, a query value, the caller, or a member the type does not promise. */
function mayBeAbsent(model: Model, e: RouteExprModel, scope: Scope): boolean {
  if (e.kind === "header" || e.kind === "caller") return true;
  if (e.kind === "input") return e.from !== "params";
  if (e.kind === "member" || (e.kind === "result" && e.field !== null)) return exprType(model, e, scope) === null;
  return false;
}

/** The type of `result`, `result.x` and deeper members; null where the model cannot say. */
function exprType(model: Model, e: RouteExprModel, scope: Scope): ValueType | null {
  if (e.kind === "result") return e.field === null || scope.result === null ? scope.result : memberType(model, scope.result, e.field);
  if (e.kind === "member") {
    const object = exprType(model, e.object, scope);
    return object ? memberType(model, object, e.name) : null;
  }
  return null;
}

function memberType(model: Model, t: ValueType, name: string): ValueType | null {
  switch (t.kind) {
    case "object": {
      const fields = t.module !== undefined && t.type !== undefined && t.fields.length === 0 ? recordFields(model, t.module, t.type) : t.fields;
      return fields.find((f) => f.name === name)?.type ?? null;
    }
    case "row": {
      const f = model.resources.find((r) => r.name === t.resource)?.fields.find((x) => x.name === name && !x.password);
      return f ? { kind: "scalar", type: f.type, enumValues: f.enumValues, nullable: f.nullable } : null;
    }
    case "queryRow": {
      const q = model.queries.find((x) => x.name === t.query);
      if (q?.rowResource) return memberType(model, { kind: "row", resource: q.rowResource, nullable: false }, name);
      const c = q?.columns.find((x) => x.name === name);
      if (!c) return null;
      return c.type === "unknown" ? { kind: "unknown" } : { kind: "scalar", type: c.type, enumValues: c.enumValues, nullable: c.nullable };
    }
    case "caller":
      return name === "id" ? { kind: "scalar", type: "text", enumValues: [], nullable: false } : null;
    default:
      return null;
  }
}

function recordFields(model: Model, module: string, type: string): { name: string; type: ValueType }[] {
  const t = (model.types ?? []).find((x) => x.module === module && x.name === type);
  return (t?.members ?? []).map((m) => ({ name: m.name, type: m.shape.kind === "scalar" ? { kind: "scalar", type: m.shape.type, enumValues: m.shape.enumValues, nullable: m.shape.nullable } : { kind: "unknown" } }));
}

/** What a query or action returns, as a value type. */
function targetType(model: Model, t: TargetRef): ValueType {
  if (t.kind === "query") {
    const q = model.queries.find((x) => x.module === t.module && x.name === t.name);
    if (!q) return { kind: "unknown" };
    if (q.rowResource) return q.one ? { kind: "row", resource: q.rowResource, nullable: true } : { kind: "rows", resource: q.rowResource };
    return q.one ? { kind: "queryRow", query: q.name, nullable: true } : { kind: "queryRows", query: q.name };
  }
  return model.actions.find((x) => x.module === t.module && x.name === t.name)?.returns ?? { kind: "unknown" };
}

function nonNull(t: ValueType): ValueType {
  return "nullable" in t && t.nullable ? { ...t, nullable: false } : t;
}

function withoutNull(s: Schema): Schema {
  if (Array.isArray(s.anyOf)) {
    const rest = (s.anyOf as Schema[]).filter((x) => x.type !== "null");
    if (rest.length === 1) return rest[0];
  }
  if (Array.isArray(s.type)) {
    const types = (s.type as string[]).filter((x) => x !== "null");
    const out: Schema = { ...s, type: types.length === 1 ? types[0] : types };
    if (Array.isArray(s.enum)) out.enum = (s.enum as unknown[]).filter((x) => x !== null);
    return out;
  }
  return s;
}
