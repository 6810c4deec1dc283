import { analyzeCodes as codes } from "../diagnostics/codes/analyze.js";
import type { BinaryExpr, CallExpr, Expr, ObjectEntry, RecordOpExpr } from "../parse/ast.js";
import type { ActionModel, BuiltinName, IrBinaryOp, IrExpr, ParamModel, RecordWrite, ResourceModel, ValueType } from "./model.js";
import { BUILTINS, arity, builtinType } from "./builtins.js";
import { recordStatement, recordStatementName } from "./record-sql.js";
import type { ModuleScope, Scope } from "./scope.js";
import { closest } from "./shared/names.js";
import { NULL_TYPE, UNKNOWN, assignable, describe, isNullable, isNumeric, isStringy, scalar, withNullable } from "./shared/types.js";


const BINARY: Record<BinaryExpr["op"], IrBinaryOp> = {
  or: "or",
  and: "and",
  "==": "eq",
  "!=": "ne",
  "<": "lt",
  "<=": "le",
  ">": "gt",
  ">=": "ge",
  "+": "add",
  "-": "sub",
  "*": "mul",
  "/": "div",
};

const BOOL = scalar("bool");

/** Resolves and types one expression of an action body. Reports problems and keeps going. */
export class ExprAnalyzer {
  constructor(private readonly m: ModuleScope) {}

  expr(e: Expr, scope: Scope): IrExpr {
    switch (e.kind) {
      case "String":
        return { kind: "literal", value: e.value, type: scalar("text") };
      case "Int":
        return { kind: "literal", value: e.value, type: scalar("int") };
      case "Float":
        return { kind: "literal", value: e.value, type: scalar("float") };
      case "Bool":
        return { kind: "literal", value: e.value, type: BOOL };
      case "Null":
        return { kind: "literal", value: null, type: NULL_TYPE };
      case "Name": {
        const b = scope.lookup(e.name);
        if (!b) {
          const candidates = [...scope.visible(), ...this.m.queries.keys(), ...this.m.actionNames, ...Object.keys(BUILTINS)];
          this.report(codes.unknownName.at(this.m.file, e.span, e.name, closest(e.name, candidates)));
          return { kind: "literal", value: null, type: UNKNOWN };
        }
        return { kind: b.kind, name: e.name, type: b.type };
      }
      case "Member":
        return this.member(e.object, e.property.name, e.property.span, scope);
      case "Object":
        return this.object(e.entries, scope);
      case "Array": {
        const items = e.items.map((i) => this.expr(i, scope));
        return { kind: "array", items, type: { kind: "array", item: items[0]?.type ?? UNKNOWN } };
      }
      case "Unary": {
        const operand = this.expr(e.operand, scope);
        if (e.op === "not") {
          this.expect(operand, BOOL, "the operand of `not`", e.operand.span);
          return { kind: "unary", op: "not", operand, type: BOOL };
        }
        this.expectNumber(operand, "the operand of `-`", e.operand.span);
        return { kind: "unary", op: "neg", operand, type: operand.type };
      }
      case "Binary":
        return this.binary(e, scope);
      case "Call":
        return this.call(e, scope);
      case "RecordOp":
        return this.recordOp(e, scope);
    }
  }

  /** Narrowing helper: `x == null` / `x != null` on a parameter or variable. */
  nullTest(e: Expr): { name: string; isNull: boolean } | null {
    if (e.kind !== "Binary" || (e.op !== "==" && e.op !== "!=")) return null;
    const [a, b] = [e.left, e.right];
    const name = a.kind === "Name" && b.kind === "Null" ? a.name : b.kind === "Name" && a.kind === "Null" ? b.name : null;
    return name === null ? null : { name, isNull: e.op === "==" };
  }

  private report(d: Parameters<ModuleScope["reporter"]["add"]>[0]): void {
    this.m.reporter.add(d);
  }

  expect(value: IrExpr, type: ValueType, what: string, span: Expr["span"]): void {
    if (!assignable(value.type, type)) {
      this.report(codes.typeMismatch.at(this.m.file, span, what, describe(type), describe(value.type)));
    }
  }

  private expectNumber(value: IrExpr, what: string, span: Expr["span"]): void {
    if (value.type.kind === "unknown") return;
    if (!isNumeric(value.type) || isNullable(value.type)) {
      this.report(codes.typeMismatch.at(this.m.file, span, what, "a number (not null)", describe(value.type)));
    }
  }

  private member(objectExpr: Expr, property: string, span: Expr["span"], scope: Scope): IrExpr {
    const object = this.expr(objectExpr, scope);
    const t = object.type;
    const optional = isNullable(t);
    const found = this.fieldType(t, property);
    if (found === "unknown-field") {
      const names = this.fieldNames(t);
      this.report(codes.unknownField.at(this.m.file, span, property, describe(withNullable(t, false)), closest(property, names)));
      return { kind: "member", object, property, optional, type: UNKNOWN };
    }
    return { kind: "member", object, property, optional, type: optional ? withNullable(found, true) : found };
  }

  private fieldType(t: ValueType, property: string): ValueType | "unknown-field" {
    switch (t.kind) {
      case "row": {
        const f = this.m.resources.get(t.resource)?.fields.find((x) => x.name === property);
        return f ? scalar(f.type, f.nullable, f.enumValues) : "unknown-field";
      }
      case "queryRow": {
        const c = this.m.queries.get(t.query)?.columns.find((x) => x.name === property);
        if (!c) return "unknown-field";
        return c.type === "unknown" ? UNKNOWN : scalar(c.type, c.nullable, c.enumValues);
      }
      case "object": {
        const f = t.fields.find((x) => x.name === property);
        return f ? f.type : "unknown-field";
      }
      case "scalar":
        return t.type === "json" ? UNKNOWN : "unknown-field";
      case "unknown":
        return UNKNOWN;
      default:
        return "unknown-field";
    }
  }

  private fieldNames(t: ValueType): string[] {
    if (t.kind === "row") return this.m.resources.get(t.resource)?.fields.map((f) => f.name) ?? [];
    if (t.kind === "queryRow") return this.m.queries.get(t.query)?.columns.map((c) => c.name) ?? [];
    if (t.kind === "object") return t.fields.map((f) => f.name);
    return [];
  }

  private object(entries: ObjectEntry[], scope: Scope): IrExpr {
    const out: { key: string; value: IrExpr }[] = [];
    for (const en of entries) {
      if (out.some((o) => o.key === en.key.name)) {
        this.report(codes.duplicateField.at(this.m.file, en.key.span, en.key.name));
        continue;
      }
      out.push({ key: en.key.name, value: this.expr(en.value, scope) });
    }
    return { kind: "object", entries: out, type: { kind: "object", fields: out.map((o) => ({ name: o.key, type: o.value.type })) } };
  }

  private binary(e: BinaryExpr, scope: Scope): IrExpr {
    const left = this.expr(e.left, scope);
    const right = this.expr(e.right, scope);
    const op = BINARY[e.op];
    switch (op) {
      case "or":
      case "and":
        this.expect(left, BOOL, `the left side of \`${e.op}\``, e.left.span);
        this.expect(right, BOOL, `the right side of \`${e.op}\``, e.right.span);
        return { kind: "binary", op, left, right, type: BOOL };
      case "eq":
      case "ne":
        this.checkEnumLiteral(left, e.right, right);
        this.checkEnumLiteral(right, e.left, left);
        this.checkComparable(left, right, e);
        return { kind: "binary", op, left, right, type: BOOL };
      case "lt":
      case "le":
      case "gt":
      case "ge":
        this.checkOrdered(left, right, e);
        return { kind: "binary", op, left, right, type: BOOL };
      case "add":
        if (isStringy(left.type) || isStringy(right.type)) {
          return { kind: "binary", op: "concat", left, right, type: scalar("text") };
        }
        return this.arithmetic(op, left, right, e);
      default:
        return this.arithmetic(op, left, right, e);
    }
  }

  private arithmetic(op: IrBinaryOp, left: IrExpr, right: IrExpr, e: BinaryExpr): IrExpr {
    this.expectNumber(left, `the left side of \`${e.op}\``, e.left.span);
    this.expectNumber(right, `the right side of \`${e.op}\``, e.right.span);
    const bothInt = left.type.kind === "scalar" && left.type.type === "int" && right.type.kind === "scalar" && right.type.type === "int";
    return { kind: "binary", op, left, right, type: scalar(bothInt && op !== "div" ? "int" : "float") };
  }

  /** `task.status == "opn"` is a build error: the enum does not list it. */
  private checkEnumLiteral(enumSide: IrExpr, literalAst: Expr, literal: IrExpr): void {
    const t = enumSide.type;
    if (t.kind !== "scalar" || t.type !== "enum" || literal.kind !== "literal" || typeof literal.value !== "string") return;
    if (!t.enumValues.includes(literal.value)) {
      const field = enumSide.kind === "member" ? enumSide.property : "this value";
      this.report(codes.enumValueUnknown.at(this.m.file, literalAst.span, literal.value, field, t.enumValues));
    }
  }

  private checkComparable(left: IrExpr, right: IrExpr, e: BinaryExpr): void {
    const [a, b] = [left.type, right.type];
    if (a.kind === "null" || b.kind === "null" || a.kind === "unknown" || b.kind === "unknown") return;
    if (assignable(a, withNullable(b, true)) || assignable(b, withNullable(a, true))) return;
    this.report(codes.typeMismatch.at(this.m.file, e.span, `both sides of \`${e.op}\``, "of comparable types", `${describe(a)} and ${describe(b)}`));
  }

  private checkOrdered(left: IrExpr, right: IrExpr, e: BinaryExpr): void {
    for (const [v, span] of [[left, e.left.span], [right, e.right.span]] as const) {
      if (v.type.kind === "unknown") continue;
      if (!(isNumeric(v.type) || isStringy(v.type)) || isNullable(v.type)) {
        this.report(codes.typeMismatch.at(this.m.file, span, `a side of \`${e.op}\``, "a number or a string (not null)", describe(v.type)));
      }
    }
  }

  private call(e: CallExpr, scope: Scope): IrExpr {
    const name = e.callee.name;
    const query = this.m.queries.get(name);
    if (query) return this.queryCall(e, scope);
    const action = name in BUILTINS ? undefined : this.m.callee(name);
    if (action) return this.actionCall(e, action, scope);
    if (!(name in BUILTINS)) {
      const candidates = [...this.m.queries.keys(), ...this.m.actionNames, ...Object.keys(BUILTINS)];
      this.report(codes.unknownName.at(this.m.file, e.callee.span, name, closest(name, candidates)));
      return { kind: "literal", value: null, type: UNKNOWN };
    }
    const builtin = name as BuiltinName;
    const [min, max] = arity(builtin);
    if (e.args.some((a) => a.name !== null)) {
      this.report(codes.badCallArgs.at(this.m.file, e.span, `\`${name}\` takes positional arguments, not named ones`));
    }
    if (e.args.length < min || e.args.length > max) {
      this.report(codes.badCallArgs.at(this.m.file, e.span, `\`${name}\` takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? "" : "s"}, found ${e.args.length}`));
    }
    const args = e.args.map((a) => this.expr(a.value, scope));
    return { kind: "builtin", name: builtin, args, type: builtinType(builtin, args, e, this.m.file, (d) => this.report(d)) };
  }

  private queryCall(e: CallExpr, scope: Scope): IrExpr {
    const q = this.m.queries.get(e.callee.name)!;
    const args = this.namedArgs(`query \`${q.name}\``, q.params, e, scope);
    const type: ValueType = q.rowResource
      ? q.one
        ? { kind: "row", resource: q.rowResource, nullable: true }
        : { kind: "rows", resource: q.rowResource }
      : q.one
        ? { kind: "queryRow", query: q.name, nullable: true }
        : { kind: "queryRows", query: q.name };
    return { kind: "query", module: q.module, query: q.name, args, type };
  }

  /**
   * An action called from an action: it runs in the caller's transaction (its function takes
   * the caller's executor), so a `fail` in it undoes the caller's writes too.
   */
  private actionCall(e: CallExpr, callee: ActionModel | "cycle", scope: Scope): IrExpr {
    const caller = this.m.caller;
    if (callee === "cycle") {
      this.report(codes.actionCycle.at(this.m.file, e.callee.span, caller?.name ?? "?", e.callee.name));
      e.args.forEach((a) => this.expr(a.value, scope));
      return { kind: "literal", value: null, type: UNKNOWN };
    }
    // The callee's `requires` is checked where a request comes in, not in its function.
    const need = callee.requires;
    const have = caller?.requires ?? null;
    const met = need === null || (need.kind === "auth" ? have !== null : have?.kind === "role" && have.role === need.role);
    if (!met) {
      const requirement = need!.kind === "auth" ? "auth" : `role "${need!.role}"`;
      this.report(codes.calleeRequires.at(this.m.file, e.callee.span, caller?.name ?? "?", callee.name, requirement));
    }
    const args = this.namedArgs(`action \`${callee.name}\``, callee.params, e, scope);
    return { kind: "action", module: callee.module, action: callee.name, args, type: callee.returns };
  }

  /** `name: value` arguments of a query or action call, checked against its parameters. */
  private namedArgs(what: string, params: readonly ParamModel[], e: CallExpr, scope: Scope): { name: string; value: IrExpr }[] {
    const args: { name: string; value: IrExpr }[] = [];
    for (const a of e.args) {
      if (!a.name) {
        this.report(codes.badCallArgs.at(this.m.file, a.span, `${what} takes named arguments, e.g. \`${params[0]?.name ?? "x"}: …\``));
        continue;
      }
      const p = params.find((x) => x.name === a.name!.name);
      const value = this.expr(a.value, scope);
      if (!p) {
        this.report(codes.badCallArgs.at(this.m.file, a.name.span, `${what} has no parameter \`${a.name.name}\``));
        continue;
      }
      this.expect(value, scalar(p.type, p.nullable, p.enumValues), `argument \`${p.name}\``, a.value.span);
      args.push({ name: p.name, value });
    }
    for (const p of params) {
      if (p.required && !args.some((a) => a.name === p.name)) {
        this.report(codes.badCallArgs.at(this.m.file, e.span, `${what} needs the argument \`${p.name}\``));
      }
    }
    return args;
  }

  private recordOp(e: RecordOpExpr, scope: Scope): IrExpr {
    const r = this.m.resources.get(e.resource.name);
    if (!r) {
      this.report(codes.unknownResource.at(this.m.file, e.resource.span, e.resource.name, closest(e.resource.name, this.m.resources.keys())));
      return { kind: "literal", value: null, type: UNKNOWN };
    }
    const keyField = r.fields.find((f) => f.name === r.primaryKey);
    const keyType = scalar(keyField?.type ?? "id");
    // The parser guarantees the shape: a key for get/update/delete, fields for insert/update.
    let key: IrExpr | null = null;
    if (e.op !== "insert" && e.key) {
      key = this.expr(e.key, scope);
      this.expect(key, keyType, `the key of \`${e.op} ${r.name}\``, e.key.span);
    }
    const wantsFields = e.op === "insert" || e.op === "update";
    const writes = wantsFields && e.fields ? this.writes(r, e.fields, scope) : [];
    if (e.op === "insert") {
      const missing = r.fields.filter((f) => f.name !== r.primaryKey && !f.nullable && !f.default && !writes.some((w) => w.field === f.name));
      if (missing.length) this.report(codes.requiredFieldMissing.at(this.m.file, e.span, r.name, missing.map((f) => f.name)));
    }

    const rowType: ValueType = { kind: "row", resource: r.name, nullable: e.op !== "insert" };
    const fieldsSorted = writes.map((w) => w.field).sort();
    const statement = recordStatement(r, e.op, fieldsSorted);
    if (!this.m.statements.has(statement.name)) this.m.statements.set(statement.name, statement);
    const name = recordStatementName(r.name, e.op, fieldsSorted);
    const k = key ?? { kind: "literal" as const, value: null, type: UNKNOWN };
    switch (e.op) {
      case "get":
      case "delete":
        return { kind: "record", op: e.op, resource: r.name, statement: name, key: k, type: rowType };
      case "insert":
        return { kind: "record", op: "insert", resource: r.name, statement: name, fields: writes, type: rowType };
      case "update":
        return { kind: "record", op: "update", resource: r.name, statement: name, key: k, fields: sortWrites(writes), type: rowType };
    }
  }

  private writes(r: ResourceModel, entries: ObjectEntry[], scope: Scope): RecordWrite[] {
    const out: RecordWrite[] = [];
    for (const en of entries) {
      const field = r.fields.find((f) => f.name === en.key.name);
      const value = this.expr(en.value, scope);
      if (!field) {
        this.report(codes.unknownField.at(this.m.file, en.key.span, en.key.name, r.name, closest(en.key.name, r.fields.map((f) => f.name))));
        continue;
      }
      if (field.name === r.primaryKey) {
        this.report(codes.keyWrite.at(this.m.file, en.key.span, field.name));
        continue;
      }
      if (out.some((w) => w.field === field.name)) {
        this.report(codes.duplicateField.at(this.m.file, en.key.span, field.name));
        continue;
      }
      const target = scalar(field.type, field.nullable, field.enumValues);
      this.expect(value, target, `field \`${r.name}.${field.name}\``, en.value.span);
      if (field.type === "enum" && value.kind === "literal" && typeof value.value === "string" && !field.enumValues.includes(value.value)) {
        this.report(codes.enumValueUnknown.at(this.m.file, en.value.span, value.value, `${r.name}.${field.name}`, field.enumValues));
      }
      out.push({ field: field.name, value, check: writeCheck(field, value) });
    }
    return out;
  }
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
