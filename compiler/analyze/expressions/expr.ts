import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import type { BinaryExpr, CallExpr, Expr, ObjectEntry } from "../../parse/ast.js";
import { identityCodes } from "../../diagnostics/codes/identity.js";
import type { ActionModel, BuiltinName, ExpectKind, IrBinaryOp, IrExpr, ParamModel, Rehash, ScalarType, ValueType } from "../model/model.js";
import { recordStatement } from "../sql/record-sql.js";
import { jobCodes } from "../../diagnostics/codes/jobs.js";
import { BUILTINS, type BuiltinChecks, CONTEXT_BUILTINS, argumentName, builtinArgKind, builtinType, claimValueType, isClaims, nullSafe } from "./builtins.js";
import { isListBuiltin, listArg, listBuiltinType } from "./list-builtins.js";
import { compositionCodes } from "../../diagnostics/codes/composition.js";
import { callAction, callFn } from "./calls.js";
import { shapeType } from "../declarations/record-types.js";
import { fieldNames, fieldType, passwordField } from "./member-types.js";
import { recordOp } from "./record-ops.js";
import { hasCall } from "./absent.js";
import { expressionCodes } from "../../diagnostics/codes/expressions.js";
import type { ModuleScope, Scope } from "./scope.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import { NULL_TYPE, UNKNOWN, assignable, describe, isNullable, isNumeric, isStringy, scalar, withNullable } from "../shared/types.js";

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
  /** Set once the body uses `auth` or a built-in that needs the call's context. */
  usesContext = false;
  /** Set once the body calls issue_token, start_session or end_session, or an action that does. */
  issuesCredentials = false;
  /** Set once the body calls verify_password (throttled: the server keeps counters). */
  verifiesPassword = false;
  /** While analyzing verify_password's first argument: a password field may be read there only. */
  private passwordAllowed = false;
  /** The password field the last member expression read, for verify_password's check. */
  private lastPassword: string | null = null;
  /** verify_password's account, for the sign-in throttle: the resource and its row's primary key, read as the password was. */
  private lastAccount: { resource: string; key: IrExpr } | null = null;

  constructor(private readonly m: ModuleScope) {}

  /** What the built-ins' type rules report through. */
  private readonly checks: BuiltinChecks = {
    report: (d) => this.report(d),
    expect: (value, type, what, span) => this.expect(value, type, what, span),
    file: () => this.m.file,
  };

  expr(e: Expr, scope: Scope): IrExpr {
    const ir = this.lower(e, scope);
    this.m.typed?.push({ file: this.m.file, span: e.span, type: ir.type });
    return ir;
  }

  private lower(e: Expr, scope: Scope): IrExpr {
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
        if (!b && e.name === "auth") {
          this.report(identityCodes.authWithoutIdentity.at(this.m.file, e.span));
          return { kind: "literal", value: null, type: UNKNOWN };
        }
        if (b?.kind === "caller") {
          this.usesContext = true;
          return { kind: "caller", type: b.type };
        }
        if (!b) {
          const candidates = [...scope.visible(), ...this.m.queries.keys(), ...(this.m.actions?.names() ?? []), ...(this.m.fns?.names() ?? []), ...Object.keys(BUILTINS)];
          this.report(codes.unknownName.at(this.m.file, e.span, e.name, closest(e.name, candidates)));
          return { kind: "literal", value: null, type: UNKNOWN };
        }
        if (b.kind === "param" && b.absent) return { kind: "param", name: e.name, type: b.type, absent: true };
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
        const number = this.checked(operand, "float", false);
        this.expectNumber(number, "the operand of `-`", e.operand.span);
        return { kind: "unary", op: "neg", operand: number, type: number.type };
      }
      case "Binary":
        return this.binary(e, scope);
      case "Call":
        return this.call(e, scope);
      case "RecordOp":
        return recordOp(this, this.m, e, scope);
    }
  }

  /** Narrowing helper: `x == null` / `x != null` on a parameter or variable. */
  nullTest(e: Expr): { name: string; isNull: boolean } | null {
    if (e.kind !== "Binary" || (e.op !== "==" && e.op !== "!=")) return null;
    const [a, b] = [e.left, e.right];
    const name = a.kind === "Name" && b.kind === "Null" ? a.name : b.kind === "Name" && a.kind === "Null" ? b.name : null;
    return name === null ? null : { name, isNull: e.op === "==" };
  }

  report(d: Parameters<ModuleScope["reporter"]["add"]>[0]): void {
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

  /**
   * A value read from json meeting a slot of type `target`: wrapped in a run-time check
   * (the client chose it); any other value is returned as it is, its type checked at build.
   */
  checked(value: IrExpr, target: ScalarType, orNull: boolean): IrExpr {
    const t = value.type;
    if (t.kind !== "unknown" || t.from === undefined || target === "json") return value;
    const as: ExpectKind = target === "enum" ? "text" : target;
    return { kind: "expect", value, as, orNull, path: t.from, type: scalar(target === "enum" ? "text" : target, orNull) };
  }

  private member(objectExpr: Expr, property: string, span: Expr["span"], scope: Scope): IrExpr {
    const object = this.expr(objectExpr, scope);
    const t = object.type;
    const optional = isNullable(t);
    this.lastPassword = null;
    const password = passwordField(this.m, t, property);
    if (password !== null) {
      if (this.passwordAllowed) this.lastPassword = password;
      else this.report(identityCodes.passwordRead.at(this.m.file, span, password.split(".")[0], property));
    }
    const claims = this.m.identity.claims;
    if (claims !== null && isClaims(object)) {
      if (!Object.hasOwn(claims, property)) {
        this.report(codes.unknownField.at(this.m.file, span, property, "auth.claims", closest(property, Object.keys(claims))));
        return { kind: "member", object, property, optional, type: UNKNOWN };
      }
      // A json claim is whatever the token carried: checked where it meets a typed slot.
      const type = claimValueType(claims[property]);
      return { kind: "member", object, property, optional, type: type.kind === "unknown" ? { kind: "unknown", from: `auth.claims.${property}` } : type };
    }
    const base = jsonPath(object);
    if (base !== null) return { kind: "member", object, property, optional, type: { kind: "unknown", from: `${base}.${property}` } };
    const found = fieldType(this.m, t, property);
    if (found === "unknown-field") {
      const names = fieldNames(this.m, t);
      this.report(codes.unknownField.at(this.m.file, span, property, describe(withNullable(t, false)), closest(property, names)));
      return { kind: "member", object, property, optional, type: UNKNOWN };
    }
    const absent = t.kind === "object" && t.fields.some((f) => f.name === property && f.absent === true);
    const type = optional ? withNullable(found, true) : found;
    return absent ? { kind: "member", object, property, optional, type, absent: true } : { kind: "member", object, property, optional, type };
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
    let left = this.expr(e.left, scope);
    let right = this.expr(e.right, scope);
    const op = BINARY[e.op];
    // `==` and `!=` compare any JSON value safely; the other operators need text or numbers.
    if (op !== "eq" && op !== "ne" && op !== "or" && op !== "and") {
      const stringy = isStringy(left.type) || isStringy(right.type);
      const target: ScalarType = stringy && (op === "add" || op === "lt" || op === "le" || op === "gt" || op === "ge") ? "text" : "float";
      // Concatenation reads null as "", as it does for any nullable text.
      const orNull = target === "text" && op === "add";
      left = this.checked(left, target, orNull);
      right = this.checked(right, target, orNull);
    }
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
    const action = this.m.actions?.has(name) ?? false;
    if (this.m.pure && (query || action)) {
      this.report(compositionCodes.impureFn.at(this.m.file, e.callee.span, this.m.pure, `call the ${query ? "query" : "action"} \`${name}\``));
      return { kind: "literal", value: null, type: UNKNOWN };
    }
    if (query) return this.queryCall(e, scope);
    if (action) return callAction(this, this.m, e, scope);
    if (this.m.jobs?.has(name)) {
      this.report(jobCodes.jobCalled.at(this.m.file, e.callee.span, name));
      return { kind: "literal", value: null, type: UNKNOWN };
    }
    if (name === "job_id" && this.m.job === undefined) this.report(jobCodes.jobIdOutside.at(this.m.file, e.span));
    if (this.m.fns?.has(name)) return callFn(this, this.m, e, scope);
    if (!(name in BUILTINS)) {
      const candidates = [...this.m.queries.keys(), ...(this.m.actions?.names() ?? []), ...(this.m.fns?.names() ?? []), ...Object.keys(BUILTINS)];
      this.report(codes.unknownName.at(this.m.file, e.callee.span, name, closest(name, candidates)));
      return { kind: "literal", value: null, type: UNKNOWN };
    }
    const builtin = name as BuiltinName;
    const [min, max] = BUILTINS[builtin].arity;
    if (e.args.some((a) => a.name !== null)) {
      this.report(codes.badCallArgs.at(this.m.file, e.span, `\`${name}\` takes positional arguments, not named ones`));
    }
    if (e.args.length < min || e.args.length > max) {
      this.report(codes.badCallArgs.at(this.m.file, e.span, `\`${name}\` takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? "" : "s"}, found ${e.args.length}`));
    }
    // verify_password hashes, asynchronously, and may write an upgraded hash: an action's work.
    if ((CONTEXT_BUILTINS.has(builtin) || builtin === "verify_password") && this.m.pure) {
      this.report(compositionCodes.impureFn.at(this.m.file, e.callee.span, this.m.pure, `call \`${name}\``));
      return { kind: "literal", value: null, type: UNKNOWN };
    }
    if (CONTEXT_BUILTINS.has(builtin)) {
      this.usesContext = true;
      this.issuesCredentials = true;
      if (builtin === "issue_token" && !this.m.identity.issue) this.report(identityCodes.issueWithoutKey.at(this.m.file, e.callee.span));
      if ((builtin === "start_session" || builtin === "end_session") && !this.m.identity.sessions) {
        this.report(identityCodes.sessionsOff.at(this.m.file, e.callee.span, builtin));
      }
      if (builtin === "revoke" && !this.m.identity.revoke) this.report(identityCodes.revokeWithoutStore.at(this.m.file, e.callee.span));
    }
    if (builtin === "has") {
      const arg = e.args[0] ? this.expr(e.args[0].value, scope) : null;
      return hasCall(arg, { file: this.m.file, span: e.args[0]?.span ?? e.span }, (d) => this.report(d));
    }
    let rehash: Rehash | undefined;
    const args = e.args.map((a, i) => {
      if (builtin !== "verify_password" || i !== 0) return this.expr(a.value, scope);
      const stored = this.storedPassword(a.value, scope);
      rehash = stored.rehash;
      return stored.value;
    });
    // contains(text, part) is a text builtin; contains(list, item), unique, sort and join walk a list.
    if (isListBuiltin(builtin) && args.length > 0 && !(builtin === "contains" && isTextLike(args[0].type))) {
      const list = listArg(builtin, args[0], e, this.m);
      args[0] = list.arg;
      if (builtin === "join" && args[1]) args[1] = this.checked(args[1], "text", true);
      return { kind: "builtin", name: builtin, args, type: listBuiltinType(builtin, list.item, args, e, this.m) };
    }
    const checkedArgs = args.map((a, i) => this.builtinArg(builtin, i, a));
    // Constant bounds the wrong way round would fail every call: said at build time.
    const [lo, hi] = checkedArgs;
    if (builtin === "random_int" && lo?.kind === "literal" && hi?.kind === "literal" && typeof lo.value === "number" && typeof hi.value === "number" && lo.value > hi.value) {
      this.report(expressionCodes.randomBounds.at(this.m.file, e.span, lo.value, hi.value));
    }
    const type = builtinType(builtin, checkedArgs, e, this.checks);
    // In an action, the sign-in throttle wraps the check (runtime/limits): it needs the call's context.
    if (builtin === "verify_password" && !this.m.pure) {
      this.usesContext = true;
      this.verifiesPassword = true;
      // The account the password belongs to (null for a null stored value): `"account"`, `user?.id`.
      const account = this.lastAccount;
      this.lastAccount = null;
      const extra: IrExpr[] =
        account === null
          ? [{ kind: "literal", value: null, type: UNKNOWN }, { kind: "literal", value: null, type: UNKNOWN }]
          : [{ kind: "literal", value: account.resource, type: scalar("text") }, account.key];
      return { kind: "builtin", name: builtin, args: [...checkedArgs, ...extra], type, throttled: true, ...(rehash ? { rehash } : {}) };
    }
    return rehash ? { kind: "builtin", name: builtin, args: checkedArgs, rehash, type } : { kind: "builtin", name: builtin, args: checkedArgs, type };
  }

  /** Builtins are null-safe, so a json member may be null; anything else of the wrong type is a 400. */
  private builtinArg(name: BuiltinName, index: number, arg: IrExpr): IrExpr {
    const kind = builtinArgKind(name, index);
    if (kind !== undefined) return this.checked(arg, kind === "number" ? "float" : kind, nullSafe(name));
    if (name === "len" && arg.type.kind === "unknown" && arg.type.from !== undefined) {
      return { kind: "expect", value: arg, as: "sized", orNull: false, path: arg.type.from, type: UNKNOWN };
    }
    if (name === "verify_password" && index === 1) return this.checked(arg, "text", true);
    // A token's or session's subject is never null, whatever the json held.
    if ((name === "issue_token" || name === "start_session" || name === "revoke") && index === 0) return this.checked(arg, "text", false);
    // Roles read out of json are checked item by item: a token must not carry a number as a role.
    if ((name === "issue_token" || name === "start_session") && index === 1 && arg.type.kind === "unknown" && arg.type.from !== undefined) {
      return { kind: "expect", value: arg, as: "textList", orNull: true, path: arg.type.from, type: { kind: "array", item: scalar("text"), nullable: true } };
    }
    return arg;
  }

  /**
   * verify_password's first argument: a password field (of a row that may be null), or null.
   * Read from a named row, a match against a weak hash is written back stronger (`rehash`).
   */
  private storedPassword(e: Expr, scope: Scope): { value: IrExpr; rehash?: Rehash } {
    this.passwordAllowed = true;
    this.lastPassword = null;
    const value = this.expr(e, scope);
    this.passwordAllowed = false;
    const password = this.lastPassword as string | null;
    this.lastPassword = null;
    this.lastAccount = null;
    if (value.kind !== "member" || password === null) {
      if (!(value.kind === "literal" && value.value === null)) {
        this.report(identityCodes.verifyArgument.at(this.m.file, e.span, describe(value.type)));
      }
      return { value };
    }
    {
      // The account the throttle counts failures against: the row's resource and primary key.
      const resource = password.split(".")[0];
      // A key of several fields counts failures against the first: it names the account well enough for a throttle.
      const pk = this.m.resources.get(resource)?.primaryKey[0];
      const key: IrExpr | null =
        pk === undefined ? null : { kind: "member", object: value.object, property: pk, optional: isNullable(value.object.type), type: UNKNOWN };
      if (key !== null) this.lastAccount = { resource, key };
    }
    const [resource, field] = password.split(".");
    const r = this.m.resources.get(resource);
    if (r === undefined) return { value };
    if (value.object.kind !== "local") {
      this.report(identityCodes.verifyWithoutUpgrade.at(this.m.file, e.span, resource, field));
      return { value };
    }
    const statement = recordStatement(r, "rehash", [field]);
    if (!this.m.statements.has(statement.name)) this.m.statements.set(statement.name, statement);
    return { value, rehash: { statement: statement.name, row: value.object, key: r.primaryKey } };
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

  /** `name: value` arguments of a query or action call, checked against its parameters. */
  namedArgs(what: string, params: readonly ParamModel[], e: CallExpr, scope: Scope, shaped = false): { name: string; value: IrExpr }[] {
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
      // An action's list or record parameter is typed in its body, where nothing checks it
      // again: the value must have the type, and one read from json is not known to.
      if (shaped && p.shape) {
        const expected = shapeType(p.shape, this.m.types);
        const fromJson = value.type.kind === "unknown" && value.type.from !== undefined;
        if (fromJson) this.report(codes.typeMismatch.at(this.m.file, a.value.span, `argument \`${p.name}\``, describe(expected), "a value read from json"));
        else this.expect(value, expected, `argument \`${p.name}\``, a.value.span);
        args.push({ name: p.name, value });
        continue;
      }
      this.expect(value, scalar(p.type, p.nullable, p.enumValues), `argument \`${p.name}\``, a.value.span);
      // A value that may be null reaching a parameter that may not: the callee's SQL and its
      // generated signature both count on a value, so the caller narrows it first.
      if (!p.nullable && value.type.kind === "scalar" && value.type.nullable && assignable(value.type, scalar(p.type, true, p.enumValues))) {
        this.report(codes.typeMismatch.at(this.m.file, a.value.span, `argument \`${p.name}\``, `${describe(scalar(p.type, false, p.enumValues))} (not null)`, describe(value.type)));
      }
      args.push({ name: p.name, value: this.checked(value, p.type, p.nullable) });
    }
    for (const p of params) {
      if (p.required && !args.some((a) => a.name === p.name)) {
        this.report(codes.badCallArgs.at(this.m.file, e.span, `${what} needs the argument \`${p.name}\``));
      }
    }
    return args;
  }
}

/** The member path a member read from `object` extends, when `object` is json: `payload`, `payload.issue`. */
function jsonPath(object: IrExpr): string | null {
  const t = object.type;
  if (t.kind === "unknown") return t.from ?? null;
  if (t.kind === "scalar" && t.type === "json") return written(object);
  return null;
}

/** An expression as the path a message names: `payload`, `task.attributes`. */
function written(e: IrExpr): string {
  if (e.kind === "param" || e.kind === "local") return e.name;
  if (e.kind === "caller") return "auth";
  if (e.kind === "member") return `${written(e.object)}.${e.property}`;
  return "a json value";
}

/** What contains(text, part) takes first: text, null, or a value of no known type (already reported). */
function isTextLike(t: ValueType): boolean {
  return isStringy(t) || t.kind === "null" || (t.kind === "unknown" && t.from === undefined);
}
