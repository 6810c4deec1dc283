// SVC2090: an endpoint whose answer has a part with no known type. openapi.json and the
// client describe it as "any JSON value" (docs/openapi.md), which is honest but useless to
// a caller, so `svc check` says where it happens.

import { openapiCodes } from "../../diagnostics/codes/openapi.js";
import type { Decl } from "../../parse/ast.js";
import type { ActionModel, QueryModel, ResourceModel, ValueType, WebhookModel } from "../model/model.js";
import type { Reporter } from "../shared/context.js";

export function warnUntypedAnswers(
  decls: { decl: Decl; file: string }[],
  queries: ReadonlyMap<string, QueryModel>,
  actions: ReadonlyMap<string, ActionModel>,
  webhooks: readonly WebhookModel[],
  allQueries: readonly QueryModel[],
  resources: ReadonlyMap<string, ResourceModel>,
  r: Reporter,
): void {
  for (const { decl, file } of decls) {
    if (decl.kind === "Query") {
      const q = queries.get(decl.name.name);
      if (!q || q.private) continue;
      const where = untypedColumns(q);
      if (where.length) r.add(openapiCodes.untypedAnswer.at(file, decl.name.span, "query", q.name, where));
    } else if (decl.kind === "Action") {
      const a = actions.get(decl.name.name);
      // A webhook's handler answers its provider, not a caller of the API.
      if (!a || a.private || webhooks.some((w) => w.handler.module === a.module && w.handler.name === a.name)) continue;
      const where = untypedParts(a.returns, "result", { queries: allQueries, resources }, new Set());
      if (where.length) r.add(openapiCodes.untypedAnswer.at(file, decl.name.span, "action", a.name, where));
    }
  }
}

function untypedColumns(q: QueryModel): string[] {
  return q.columns.filter((c) => c.type === "unknown" || c.type === "json").map((c) => c.name);
}

/** Paths (`result.payload`, `result[].tag`) of the parts of a value with no known type. */
interface Known {
  queries: readonly QueryModel[];
  resources: ReadonlyMap<string, ResourceModel>;
}

function untypedParts(t: ValueType, path: string, known: Known, seen: Set<string>): string[] {
  switch (t.kind) {
    case "scalar":
      return t.type === "json" ? [path] : [];
    case "unknown":
      return [path];
    case "object":
      return t.fields.flatMap((f) => untypedParts(f.type, `${path}.${f.name}`, known, seen));
    case "array":
      return untypedParts(t.item, `${path}[]`, known, seen);
    case "queryRow":
    case "queryRows": {
      const q = known.queries.find((x) => x.name === t.query);
      if (!q || seen.has(q.name)) return [];
      seen.add(q.name);
      const row = t.kind === "queryRows" ? `${path}[]` : path;
      return untypedColumns(q).map((c) => `${row}.${c}`);
    }
    case "row":
    case "rows": {
      const row = t.kind === "rows" ? `${path}[]` : path;
      const fields = known.resources.get(t.resource)?.fields ?? [];
      return fields.filter((f) => f.type === "json" && !f.password).map((f) => `${row}.${f.name}`);
    }
    default:
      return [];
  }
}
