import { expressionCodes } from "../../diagnostics/codes/expressions.js";
import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import { identityCodes } from "../../diagnostics/codes/identity.js";
import { keyCodes } from "../../diagnostics/codes/keys.js";
import { listCodes } from "../../diagnostics/codes/lists.js";
import { transactionCodes } from "../../diagnostics/codes/transactions.js";
import type { Expr, FieldDecl, IndexDecl, ResourceDecl, TypeRef } from "../../parse/ast.js";
import type { DefaultLiteral, DefaultValue, FieldModel, IndexModel, JsonValue, KeyGeneration, ResourceModel, ScalarType } from "../model/model.js";
import type { Reporter } from "../shared/context.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import { SCALAR_TYPES } from "../shared/types.js";

/** A resource without its DDL: the SQL phase renders DDL per dialect from this. */
export type ResourceShape = Omit<ResourceModel, "ddl">;

export function analyzeResource(module: string, decl: ResourceDecl, file: string, r: Reporter): ResourceShape {
  const fields: FieldModel[] = [];
  const seen = new Set<string>();
  for (const f of decl.fields) {
    if (seen.has(f.name.name)) {
      r.add(codes.duplicateField.at(file, f.name.span, f.name.name));
      continue;
    }
    seen.add(f.name.name);
    const field = analyzeField(f, file, r);
    if (field) fields.push(field);
  }

  const primaryKey = resourceKey(decl, fields, file, r);

  const indexes: IndexModel[] = [];
  for (const idx of decl.indexes) {
    let ok = true;
    for (const c of idx.columns) {
      if (!seen.has(c.name.name)) {
        r.add(codes.unknownIndexColumn.at(file, c.name.span, c.name.name, decl.name.name, closest(c.name.name, seen)));
        ok = false;
      }
    }
    if (!ok) continue;
    const columns = idx.columns.map((c) => ({ name: c.name.name, desc: c.desc }));
    const suffix = idx.unique ? "key" : "idx";
    const index: IndexModel = { name: [decl.name.name, ...columns.map((c) => c.name), suffix].join("_"), unique: idx.unique, columns };
    if (idx.fail) {
      const fail = uniqueFail(idx, decl.name.name, file, r);
      if (fail) index.fail = fail;
    }
    indexes.push(index);
  }

  return {
    module,
    name: decl.name.name,
    doc: decl.doc,
    at: { file, span: decl.name.span },
    primaryKey,
    fields,
    indexes,
  };
}

/**
 * `unique (username) fail 422 "username has already been taken"`: a violation answers as the
 * app's own `fail` would (docs/language.md §2.1). The status defaults to 409 and the message to
 * svc's (`user.username already exists`).
 */
function uniqueFail(idx: IndexDecl, resource: string, file: string, r: Reporter): IndexModel["fail"] | null {
  const fail = idx.fail!;
  if (!idx.unique) {
    r.add(transactionCodes.uniqueFailOnIndex.at(file, fail.span));
    return null;
  }
  const status = fail.status === null ? 409 : fail.status.value;
  if (![400, 409, 422].includes(status)) {
    r.add(transactionCodes.uniqueFailStatus.at(file, fail.status?.span ?? fail.span, status));
    return null;
  }
  const names = idx.columns.map((c) => c.name.name);
  const message = fail.message?.value ?? (names.length === 1 ? `${resource}.${names[0]} already exists` : `${resource} (${names.join(", ")}) already exists`);
  return { status, message };
}

function analyzeField(f: FieldDecl, file: string, r: Reporter): FieldModel | null {
  if (f.type.name.name === "list" || f.type.item) {
    r.add(listCodes.notASingleValue.at(file, f.type.span, `field \`${f.name.name}\``, f.type.name.name));
    return null;
  }
  // `password` is text in the table, hashed on every write and never read back out.
  if (f.type.name.name === "password") {
    if (f.default) r.add(identityCodes.passwordDefault.at(file, f.default.span, f.name.name));
    return { name: f.name.name, type: "text", password: true, enumValues: [], nullable: f.type.nullable, default: null, doc: f.doc };
  }
  if (f.type.name.name === "id") return idField(f, file, r);
  const type = resolveType(f.type, file, r);
  if (!type) return null;
  if (f.type.absent) r.add(expressionCodes.absentNotHere.at(file, f.type.span, "on a resource field (a column is null or a value)"));
  const field: FieldModel = {
    name: f.name.name,
    type: type.type,
    enumValues: type.enumValues,
    nullable: f.type.nullable,
    default: null,
    doc: f.doc,
  };
  if (f.default) field.default = fieldDefault(f.name.name, field, f.default, file, r);
  return field;
}

/** Kinds of `id(…)`; a bare `id` is a ULID. */
const ID_KINDS: Record<string, KeyGeneration> = { ulid: "ulid", uuid: "uuid", uuid7: "uuid7", int: "identity" };

/** `id`, `id(uuid)`, `id(uuid7)`, `id(int)`: a key the server (or, for int, the database) makes. */
function idField(f: FieldDecl, file: string, r: Reporter): FieldModel | null {
  const written = f.type.values.map((v) => v.name);
  const kind = written.length === 0 ? "ulid" : written.length === 1 && Object.hasOwn(ID_KINDS, written[0]) ? ID_KINDS[written[0]] : undefined;
  // An unknown kind is reported, and the field read as a ULID key so that nothing else is reported for it.
  if (kind === undefined) r.add(keyCodes.idKind.at(file, f.type.span, `id(${written.join(", ")})`));
  if (f.type.nullable) r.add(keyCodes.keyNullable.at(file, f.type.span, f.name.name));
  return {
    name: f.name.name,
    type: kind === "identity" ? "int" : "id",
    enumValues: [],
    nullable: false,
    default: null,
    doc: f.doc,
    generated: kind ?? "ulid",
  };
}

/** Key field types: values that name a row exactly and compare the same on every backend. */
const KEY_TYPES: ReadonlySet<ScalarType> = new Set(["id", "text", "int", "enum"]);

/** The primary key: the one `id` field, or the fields of the one `key (…)`. Reports every other shape. */
function resourceKey(decl: ResourceDecl, fields: FieldModel[], file: string, r: Reporter): string[] {
  const ids = fields.filter((f) => f.generated !== undefined);
  const [clause, ...more] = decl.keys;
  for (const extra of more) r.add(keyCodes.twoKeys.at(file, extra.span, decl.name.name, "a second `key (…)`"));
  if (ids.length > 1) r.add(codes.resourceKey.at(file, decl.name.span, decl.name.name, ids.length));
  if (clause === undefined) {
    if (ids.length === 0) r.add(codes.resourceKey.at(file, decl.name.span, decl.name.name, 0));
    return ids.length > 0 ? [ids[0].name] : ["id"];
  }
  if (ids.length > 0) {
    r.add(keyCodes.twoKeys.at(file, clause.span, decl.name.name, `\`key (…)\` beside the id field \`${ids[0].name}\``));
    return [ids[0].name];
  }
  const names: string[] = [];
  for (const column of clause.columns) {
    const field = fields.find((f) => f.name === column.name);
    const declared = decl.fields.some((f) => f.name.name === column.name);
    if (!field) {
      // A declared field with a wrong type was reported already.
      if (!declared) r.add(keyCodes.keyUnknownField.at(file, column.span, column.name, decl.name.name, closest(column.name, fields.map((x) => x.name))));
      continue;
    }
    if (names.includes(column.name)) {
      r.add(keyCodes.keyFieldTwice.at(file, column.span, column.name));
      continue;
    }
    if (field.nullable) r.add(keyCodes.keyNullable.at(file, column.span, column.name));
    if (!KEY_TYPES.has(field.type) || field.password) r.add(keyCodes.keyType.at(file, column.span, column.name, field.password ? "password" : field.type));
    names.push(column.name);
  }
  return names.length > 0 ? names : ["id"];
}

/** Resolve a written type to a scalar type; reports and returns null when it is not one. */
export function resolveType(t: TypeRef, file: string, r: Reporter): { type: ScalarType; enumValues: string[] } | null {
  const name = t.name.name;
  if (name === "id" && t.values.length > 0) {
    const written = `id(${t.values.map((v) => v.name).join(", ")})`;
    const type = t.values[0]?.name === "int" ? "int" : "id";
    r.add(keyCodes.idKindOutsideResource.at(file, t.span, written, type));
    return { type, enumValues: [] };
  }
  if (!(SCALAR_TYPES as readonly string[]).includes(name)) {
    r.add(codes.unknownType.at(file, t.name.span, name, closest(name, SCALAR_TYPES)));
    return null;
  }
  const type = name as ScalarType;
  if (type !== "enum") return { type, enumValues: [] };
  const values = t.values.map((v) => v.name);
  if (values.length === 0) {
    r.add(codes.enumWithoutValues.at(file, t.span, "an enum needs at least one value"));
    return null;
  }
  const dup = values.find((v, i) => values.indexOf(v) !== i);
  if (dup !== undefined) {
    r.add(codes.enumWithoutValues.at(file, t.span, `enum value \`${dup}\` is listed twice`));
    return null;
  }
  return { type, enumValues: values };
}

function fieldDefault(name: string, field: FieldModel, e: Expr, file: string, r: Reporter): DefaultValue | null {
  if (e.kind === "Call" && e.callee.name === "now" && e.args.length === 0) {
    if (field.type === "timestamp") return { kind: "now" };
    r.add(codes.badDefault.at(file, e.span, name, expectedLiteral(field)));
    return null;
  }
  const value = literalDefault(field, e);
  if (value === undefined) {
    r.add(codes.badDefault.at(file, e.span, name, expectedLiteral(field)));
    return null;
  }
  return { kind: "value", value };
}

/**
 * The literal value of a default expression when it fits the declared scalar type;
 * `undefined` when it does not. Shared by resource fields and action/query parameters.
 */
export function literalDefault(t: { type: ScalarType; enumValues: string[]; nullable: boolean }, e: Expr): DefaultLiteral | undefined {
  switch (e.kind) {
    case "Array":
    case "Object":
      return t.type === "json" ? jsonLiteral(e) : undefined;
    case "Null":
      return t.nullable ? null : undefined;
    case "String":
      if (t.type === "enum") return t.enumValues.includes(e.value) ? e.value : undefined;
      if (t.type === "timestamp") return Number.isNaN(Date.parse(e.value)) ? undefined : new Date(e.value).toISOString();
      return t.type === "text" || t.type === "id" || t.type === "json" ? e.value : undefined;
    case "Int":
      return t.type === "int" || t.type === "float" || t.type === "json" ? e.value : undefined;
    case "Float":
      return t.type === "float" || t.type === "json" ? e.value : undefined;
    case "Bool":
      return t.type === "bool" || t.type === "json" ? e.value : undefined;
    case "Unary":
      if (e.op === "-" && (e.operand.kind === "Int" || e.operand.kind === "Float")) {
        const v = literalDefault(t, e.operand);
        return typeof v === "number" ? -v : undefined;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** A constant JSON value (`[]`, `{"a": [1, null]}`); undefined when any part is not a literal. */
function jsonLiteral(e: Expr): JsonValue | undefined {
  switch (e.kind) {
    case "Array": {
      const items = e.items.map(jsonLiteral);
      return items.some((v) => v === undefined) ? undefined : (items as JsonValue[]);
    }
    case "Object": {
      // A key like `__proto__` would set the prototype of the object the generated code builds.
      if (e.entries.some((en) => ["__proto__", "constructor", "prototype"].includes(en.key.name))) return undefined;
      const out: { [key: string]: JsonValue } = {};
      for (const en of e.entries) {
        const v = jsonLiteral(en.value);
        if (v === undefined) return undefined;
        out[en.key.name] = v;
      }
      return out;
    }
    default: {
      const v = literalDefault({ type: "json", enumValues: [], nullable: true }, e);
      return v;
    }
  }
}

/** What a literal of the field's type looks like, for messages; `now` when `now()` is one (a default). */
export function expectedLiteral(f: { type: ScalarType; enumValues: string[] }, now = true): string {
  switch (f.type) {
    case "enum":
      return `one of ${f.enumValues.map((v) => `"${v}"`).join(", ")}`;
    case "timestamp":
      return now ? "an ISO-8601 string or now()" : "an ISO-8601 string";
    case "int":
      return "an integer";
    case "float":
      return "a number";
    case "bool":
      return "true or false";
    default:
      return `a ${f.type} literal`;
  }
}
