// svc types as JSON Schema (the dialect OpenAPI 3.1 uses). One place decides how a type
// travels as JSON, so openapi.json and the client (which types itself from these schemas)
// cannot disagree.

import type { ColumnModel, FieldModel, Model, ParamModel, ScalarType, ShapeModel, ValueType } from "../../analyze/model/model.js";
import type { Names } from "../names.js";

/** A JSON Schema object; key order is the order properties are set in, which is the order printed. */
export type Schema = { [key: string]: unknown };

const COMPONENTS = "#/components/schemas/";

export function ref(name: string): Schema {
  return { $ref: COMPONENTS + name };
}

/** The component a `$ref` names, or null. */
export function refName(s: Schema): string | null {
  return typeof s.$ref === "string" && s.$ref.startsWith(COMPONENTS) ? s.$ref.slice(COMPONENTS.length) : null;
}

/** Any JSON value: an untyped `json`, or what the checker could not type. */
export const ANY: Schema = {};

export function isAny(s: Schema): boolean {
  return Object.keys(s).length === 0 || (Object.keys(s).length === 1 && typeof s.description === "string");
}

export function scalarSchema(type: ScalarType | "unknown", enumValues: readonly string[], nullable: boolean): Schema {
  const base = ((): Schema => {
    switch (type) {
      case "id":
      case "text":
        return { type: "string" };
      case "timestamp":
        return { type: "string", format: "date-time" };
      case "int":
        return { type: "integer" };
      case "float":
        return { type: "number" };
      case "bool":
        return { type: "boolean" };
      case "enum":
        return { type: "string", enum: [...enumValues] };
      case "file":
        return { type: "object", description: "a stored file: name, type, size, sha256" };
      case "json":
      case "unknown":
        return {};
    }
  })();
  return nullable ? orNull(base) : base;
}

/** `T | null`: a type list where the schema has one type, else `anyOf`. */
export function orNull(s: Schema): Schema {
  if (isAny(s)) return s;
  if (typeof s.type === "string") {
    const out: Schema = { ...s, type: [s.type, "null"] };
    if (Array.isArray(s.enum)) out.enum = [...(s.enum as unknown[]), null];
    return out;
  }
  if (Array.isArray(s.type) && s.type.includes("null")) return s;
  return { anyOf: [s, { type: "null" }] };
}

export function fieldSchema(f: FieldModel | ColumnModel | ParamModel): Schema {
  const s = scalarSchema(f.type, f.enumValues, f.nullable);
  const doc = "doc" in f ? f.doc : null;
  return doc ? { ...s, description: doc } : s;
}

/** An argument: its shape when it is a list or a record, else its scalar type. */
/** A `file` argument: one part of a multipart/form-data body (docs/language.md §2.7). */
export const FILE_UPLOAD: Schema = { type: "string", contentMediaType: "application/octet-stream", description: "a file: one part of a multipart/form-data body" };

/** What an action that returns a `file` answers: the stored bytes, with their own Content-Type. */
export const FILE_ANSWER: Schema = { type: "string", contentMediaType: "application/octet-stream", description: "the stored file's bytes, served with its media type" };

/** Whether a schema is a file's bytes: the body is then multipart, or the answer not JSON. */
export function isFileSchema(s: Schema): boolean {
  return typeof s.contentMediaType === "string";
}

export function paramSchema(p: ParamModel, names: Names): Schema {
  if (p.type === "file") return p.nullable ? { ...FILE_UPLOAD, type: ["string", "null"] } : FILE_UPLOAD;
  const s = p.shape ? shapeSchema(p.shape, names) : scalarSchema(p.type, p.enumValues, p.nullable);
  return p.default === undefined || p.default === null ? s : { ...s, default: p.default };
}

export function shapeSchema(s: ShapeModel, names: Names): Schema {
  switch (s.kind) {
    case "scalar":
      return scalarSchema(s.type, s.enumValues, s.nullable);
    case "list": {
      const list: Schema = { type: "array", items: shapeSchema(s.item, names), maxItems: s.max };
      return s.nullable ? orNull(list) : list;
    }
    case "record": {
      const r = ref(names.recordType(s.module, s.type));
      return s.nullable ? orNull(r) : r;
    }
  }
}

/** What an analyzed value is as JSON. */
export function valueSchema(t: ValueType, names: Names, model: Model): Schema {
  switch (t.kind) {
    case "scalar":
      return scalarSchema(t.type, t.enumValues, t.nullable);
    case "row":
      return nullableIf(ref(names.rowType(t.resource)), t.nullable);
    case "rows":
      return { type: "array", items: ref(names.rowType(t.resource)) };
    case "queryRow":
    case "queryRows": {
      const q = model.queries.find((x) => x.name === t.query);
      const row = q ? ref(q.rowResource ? names.rowType(q.rowResource) : names.queryRowType(q.module, q.name)) : ANY;
      return t.kind === "queryRows" ? { type: "array", items: row } : nullableIf(row, t.nullable);
    }
    case "object": {
      if (t.module !== undefined && t.type !== undefined) return nullableIf(ref(names.recordType(t.module, t.type)), t.nullable === true);
      const properties: Schema = {};
      for (const f of t.fields) properties[f.name] = valueSchema(f.type, names, model);
      // Every member of an object literal is always written: a null value is sent as null.
      return { type: "object", properties, required: t.fields.map((f) => f.name), additionalProperties: false };
    }
    case "array":
      return nullableIf({ type: "array", items: valueSchema(t.item, names, model) }, t.nullable === true);
    case "caller":
      return nullableIf(ref(callerSchemaName(names)), t.nullable);
    case "null":
      return { type: "null" };
    case "unknown":
      return ANY;
  }
}

function nullableIf(s: Schema, nullable: boolean): Schema {
  return nullable ? orNull(s) : s;
}

export function callerSchemaName(names: Names): string {
  return names.app("schema:Caller", "Caller");
}

/** `ErrorEnvelope`: not `Error`, which the client would shadow. */
export function errorSchemaName(names: Names): string {
  return names.app("schema:ErrorEnvelope", "ErrorEnvelope");
}

/** `auth` as an answer carries it (runtime/contract/server.ts Caller). */
export const CALLER_SCHEMA: Schema = {
  type: "object",
  description: "The caller: who the credential names, their roles and the token's claims.",
  properties: { id: { type: "string" }, roles: { type: "array", items: { type: "string" } }, claims: { type: "object" } },
  required: ["id", "roles", "claims"],
};
