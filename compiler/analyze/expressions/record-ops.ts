// Record operations in action bodies (docs/language.md §2.3): `get r(key)`, `insert r { … }`,
// `update r(key) { … }`, `delete r(key)`.

import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import { compositionCodes } from "../../diagnostics/codes/composition.js";
import { keyCodes } from "../../diagnostics/codes/keys.js";
import type { Expr, ObjectEntry, RecordOpExpr } from "../../parse/ast.js";
import type { ExprAnalyzer } from "./expr.js";
import type { IrExpr, RecordWrite, ResourceModel, ValueType } from "../model/model.js";
import { identityKey, recordStatement, recordStatementName } from "../sql/record-sql.js";
import type { ModuleScope, Scope } from "./scope.js";
import { UNKNOWN, isNullable, scalar } from "../shared/types.js";
import { expressionCodes } from "../../diagnostics/codes/expressions.js";
import { absentInside, isAbsentRef } from "./absent.js";

/**
 * `get`, `insert`, `update` or `delete` of a resource: typed, its writes checked against the
 * fields, and its statement registered once by name for the module.
 */
export function recordOp(x: ExprAnalyzer, m: ModuleScope, e: RecordOpExpr, scope: Scope): IrExpr {
  if (m.pure) {
    x.report(compositionCodes.impureFn.at(m.file, e.span, m.pure, `run \`${e.op} ${e.resource.name}\``));
    return { kind: "literal", value: null, type: UNKNOWN };
  }
  const r = m.resources.get(e.resource.name);
  if (!r) {
    x.report(codes.unknownResource.at(m.file, e.resource.span, e.resource.name, closest(e.resource.name, m.resources.keys())));
    return { kind: "literal", value: null, type: UNKNOWN };
  }
  // The parser guarantees the shape: a key for get/update/delete, fields for insert/update.
  const key = e.op === "insert" ? [] : keyArgs(x, m, r, e, scope);
  const wantsFields = e.op === "insert" || e.op === "update";
  const writes = wantsFields && e.fields ? fieldWrites(x, m, r, e.fields, scope, e.op) : [];
  if (e.op === "insert") {
    const missing = r.fields.filter((f) => !f.generated && !f.nullable && !f.default && !writes.some((w) => w.field === f.name));
    if (missing.length) x.report(codes.requiredFieldMissing.at(m.file, e.span, r.name, missing.map((f) => f.name)));
  }

  const rowType: ValueType = { kind: "row", resource: r.name, nullable: e.op !== "insert" };
  const fieldsSorted = writes.map((w) => w.field).sort();
  // An insert's statement is named after the fields only when it gives an `id(int)` key itself.
  const identity = identityKey(r);
  const named = e.op === "insert" ? fieldsSorted.filter((f) => f === identity) : fieldsSorted;
  // An update given a `T??` value leaves the field as it is when the value is absent.
  const op = e.op === "update" && writes.some((w) => w.absent) ? "patch" : e.op;
  const statement = recordStatement(r, op, named);
  if (!m.statements.has(statement.name)) m.statements.set(statement.name, statement);
  const name = recordStatementName(r.name, op, named);
  switch (e.op) {
    case "get":
    case "delete":
      return { kind: "record", op: e.op, resource: r.name, statement: name, key, type: rowType };
    case "insert":
      return { kind: "record", op: "insert", resource: r.name, statement: name, fields: writes, type: rowType };
    case "update":
      return { kind: "record", op: op === "patch" ? "patch" : "update", resource: r.name, statement: name, key, fields: sortWrites(writes), type: rowType };
  }
}

/**
 * The key of `get`, `update` or `delete`, one value per key field in key order:
 * `(expr)` for a key of one field, `(a: x, b: y)` naming each field (any key). Reports
 * a wrong number or a wrong name (SVC2108) and values of the wrong type.
 */
function keyArgs(x: ExprAnalyzer, m: ModuleScope, r: ResourceModel, e: RecordOpExpr, scope: Scope): IrExpr[] {
  const fields = r.primaryKey.map((k) => r.fields.find((f) => f.name === k));
  const bad = (problem: string) => x.report(keyCodes.keyArgs.at(m.file, e.span, e.op, r.name, problem, r.primaryKey));
  const typed = (v: Expr, i: number): IrExpr => {
    const field = fields[i];
    const type = field?.type ?? "id";
    const value = x.checked(x.expr(v, scope), type, false);
    x.expect(value, scalar(type, false, field?.enumValues ?? []), `the key of \`${e.op} ${r.name}\``, v.span);
    return value;
  };
  if (e.key) {
    if (r.primaryKey.length !== 1) {
      x.expr(e.key, scope);
      bad(`the key has ${r.primaryKey.length} fields (${r.primaryKey.map((k) => `\`${k}\``).join(", ")}), so each is given by name`);
      return [];
    }
    return [typed(e.key, 0)];
  }
  const given = e.keyFields ?? [];
  const out: (IrExpr | undefined)[] = r.primaryKey.map(() => undefined);
  for (const en of given) {
    const i = r.primaryKey.indexOf(en.key.name);
    if (i < 0) {
      x.expr(en.value, scope);
      bad(`\`${en.key.name}\` is not a key field of \`${r.name}\``);
      continue;
    }
    if (out[i] !== undefined) {
      bad(`\`${en.key.name}\` is given twice`);
      continue;
    }
    out[i] = typed(en.value, i);
  }
  const missing = r.primaryKey.filter((_, i) => out[i] === undefined);
  if (missing.length > 0) bad(`the key field${missing.length > 1 ? "s" : ""} ${missing.map((k) => `\`${k}\``).join(", ")} ${missing.length > 1 ? "are" : "is"} missing`);
  return out.every((v) => v !== undefined) ? (out as IrExpr[]) : [];
}

function fieldWrites(x: ExprAnalyzer, m: ModuleScope, r: ResourceModel, entries: ObjectEntry[], scope: Scope, op: RecordOpExpr["op"]): RecordWrite[] {
  const out: RecordWrite[] = [];
  for (const en of entries) {
    const field = r.fields.find((f) => f.name === en.key.name);
    const value = x.expr(en.value, scope);
    if (!field) {
      x.report(codes.unknownField.at(m.file, en.key.span, en.key.name, r.name, closest(en.key.name, r.fields.map((f) => f.name))));
      continue;
    }
    // An insert gives a natural key (`key (…)`) and may give an `id(int)` key; the other ids are the server's.
    const keyed = r.primaryKey.includes(field.name);
    if (keyed && !(op === "insert" && (field.generated === undefined || field.generated === "identity"))) {
      x.report(codes.keyWrite.at(m.file, en.key.span, field.name));
      continue;
    }
    if (out.some((w) => w.field === field.name)) {
      x.report(codes.duplicateField.at(m.file, en.key.span, field.name));
      continue;
    }
    const target = scalar(field.type, field.nullable, field.enumValues);
    x.expect(value, target, `field \`${r.name}.${field.name}\``, en.value.span);
    if (field.type === "enum" && value.kind === "literal" && typeof value.value === "string" && !field.enumValues.includes(value.value)) {
      x.report(codes.enumValueUnknown.at(m.file, en.value.span, value.value, `${r.name}.${field.name}`, field.enumValues));
    }
    // An enum field's own check (oneOf) already refuses anything but its strings.
    const written = field.type === "enum" ? value : x.checked(value, field.type, field.nullable);
    const check: RecordWrite["check"] = field.password ? (field.nullable ? "passwordOrNull" : "password") : writeCheck(field, written);
    // `bio: bio` where bio is `T??`: nothing is written when the call left it out.
    if (isAbsentRef(written)) {
      out.push({ field: field.name, value: written, check, absent: true });
      continue;
    }
    const inside = absentInside(written);
    if (inside !== null && op === "update") x.report(expressionCodes.absentRewritten.at(m.file, en.value.span, inside, `${r.name}.${field.name}`));
    out.push({ field: field.name, value: written, check });
  }
  return out;
}

function sortWrites(ws: RecordWrite[]): RecordWrite[] {
  return [...ws].sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
}

/** The runtime check a written value needs: none when its static type already guarantees the field's rules. */
function writeCheck(field: ResourceModel["fields"][number], value: IrExpr): RecordWrite["check"] {
  const t = value.type;
  if (value.kind === "literal") return "none"; // checked above, at build time
  const mayBeNull = isNullable(t) && !field.nullable;
  const needsEnum =
    field.type === "enum" &&
    !(t.kind === "scalar" && t.type === "enum" && t.enumValues.every((v) => field.enumValues.includes(v)));
  if (needsEnum) return field.nullable ? "enumOrNull" : "enum";
  return mayBeNull ? "notNull" : "none";
}
