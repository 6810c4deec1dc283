// What a member read (`task.title`, `auth.roles`, `row.count`) finds on a value of a known
// type: a resource row's fields, a query row's columns, a record's members, the caller's.

import type { QueryModel, ResourceModel, ValueType } from "../model/model.js";
import { UNKNOWN, scalar } from "../shared/types.js";

/** The resources and queries a module sees. */
interface Known {
  resources: ReadonlyMap<string, ResourceModel>;
  queries: ReadonlyMap<string, QueryModel>;
}

/** The type of `property` on a value of type `t`; "unknown-field" when it has no such member. */
export function fieldType(m: Known, t: ValueType, property: string): ValueType | "unknown-field" {
  switch (t.kind) {
    case "row": {
      const f = m.resources.get(t.resource)?.fields.find((x) => x.name === property);
      return f ? scalar(f.type, f.nullable, f.enumValues) : "unknown-field";
    }
    case "queryRow": {
      const c = m.queries.get(t.query)?.columns.find((x) => x.name === property);
      if (!c) return "unknown-field";
      return c.type === "unknown" ? UNKNOWN : scalar(c.type, c.nullable, c.enumValues);
    }
    case "object": {
      const f = t.fields.find((x) => x.name === property);
      return f ? f.type : "unknown-field";
    }
    case "scalar":
      if (t.type === "file") return fileMember(property, t.nullable);
      return t.type === "json" ? UNKNOWN : "unknown-field";
    case "caller":
      if (property === "id") return scalar("text");
      if (property === "roles") return { kind: "array", item: scalar("text") };
      if (property === "claims") return scalar("json");
      return "unknown-field";
    case "unknown":
      return UNKNOWN;
    default:
      return "unknown-field";
  }
}

/** `resource.field` when `property` of a value of type `t` is a password field; else null. */
export function passwordField(m: Known, t: ValueType, property: string): string | null {
  if (t.kind !== "row" && t.kind !== "rows") return null;
  const f = m.resources.get(t.resource)?.fields.find((x) => x.name === property);
  return f?.password ? `${t.resource}.${f.name}` : null;
}

/** The members a value of type `t` has, for "did you mean". */
export function fieldNames(m: Known, t: ValueType): string[] {
  if (t.kind === "row") return m.resources.get(t.resource)?.fields.map((f) => f.name) ?? [];
  if (t.kind === "queryRow") return m.queries.get(t.query)?.columns.map((c) => c.name) ?? [];
  if (t.kind === "object") return t.fields.map((f) => f.name);
  if (t.kind === "caller") return ["id", "roles", "claims"];
  return [];
}

/** The members of a `file` value (docs/language.md §2.7): what the server knows of an upload. */
function fileMember(property: string, nullable: boolean): ValueType | "unknown-field" {
  if (property === "name" || property === "type" || property === "sha256") return scalar("text", nullable);
  if (property === "size") return scalar("int", nullable);
  return "unknown-field";
}
