// What an operation answers when it succeeds. Every answer today is the envelope
// (runtime/envelope.ts) with status 200; a route that shapes its own answer (status,
// body, headers) is described here and nowhere else, so openapi.json and the client
// follow it together.

import type { Model, QueryModel, RouteBlockModel, RouteModel, TargetRef } from "../../analyze/model.js";
import type { Names } from "../names.js";
import { ANY, orNull, ref, type Schema, valueSchema } from "./schema.js";

export interface Answer {
  status: number;
  /** The body's schema: for an envelope, the schema of `data`. */
  schema: Schema;
  /** Wrapped as `{"ok": true, "data": …}`. */
  envelope: boolean;
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
  return { status: 200, schema: targetSchema(model, names, t), envelope: true };
}

/** A module `route`: today the target's envelope; the place a route's own answer shape goes. */
export function routeAnswer(model: Model, names: Names, route: RouteModel): Answer {
  return endpointAnswer(model, names, route.target);
}

/** A route-file block's route data: `{records}`, `{result}` or `{}`, in the envelope. */
export function blockAnswer(model: Model, names: Names, block: RouteBlockModel): Answer {
  const step = block.step;
  if (step === null) return { status: 200, schema: { type: "object", additionalProperties: false }, envelope: true };
  let schema = targetSchema(model, names, step.target);
  // A fetch that finds nothing is a 404, so its result is never null.
  if (step.op === "fetch") schema = withoutNull(schema);
  const key = step.op === "query" ? "records" : "result";
  return { status: 200, schema: { type: "object", properties: { [key]: schema }, required: [key] }, envelope: true };
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
