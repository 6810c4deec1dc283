import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { Model, RecordTypeModel, ShapeModel } from "../../analyze/model/model.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { nullableTs, scalarTs } from "../ts-types.js";

// Record types and list arguments (docs/language.md §2.3 Lists, §2.5 Record types): per
// record type, its interface and a check that walks a value member by member; for every
// list or record argument, the expression that checks it. Paths in messages are built
// as the value is walked, so an error names `user.address.city` or `tags[3]`.

type Out = (string | StatementStructures)[];

/** The TypeScript type of a shaped value. */
export function shapeTs(s: ShapeModel, names: Names): string {
  let ts: string;
  switch (s.kind) {
    case "scalar":
      return nullableTs(scalarTs(s.type, s.enumValues), s.nullable);
    case "list": {
      const item = shapeTs(s.item, names);
      ts = `${/[|&]/.test(item) ? `(${item})` : item}[]`;
      break;
    }
    case "record":
      ts = names.recordType(s.module, s.type);
      break;
  }
  return nullableTs(ts, s.nullable);
}

function isAbsent(s: ShapeModel): boolean {
  return s.kind === "scalar" && s.absent === true;
}

/** Per record type: `interface NewUser` and `checkNewUser(value, path)`. */
export function recordTypeSection(model: Model, t: RecordTypeModel, names: Names): Out {
  const out: Out = [`// ---- type ${t.module}.${t.name} ----`];
  const iface = names.recordType(t.module, t.name);
  out.push({
    kind: StructureKind.Interface,
    name: iface,
    isExported: true,
    docs: [t.doc ?? `A \`${t.name}\` of \`${t.module}\`, checked at the edge by \`${names.recordCheck(t.module, t.name)}\`.`],
    properties: t.members.map((m) => ({ name: m.name, type: shapeTs(m.shape, names), ...(isAbsent(m.shape) ? { hasQuestionToken: true } : {}) })),
  });
  const checks = new ShapeChecks(names, iface);
  const members = t.members.map((m) => {
    const value = `o.${m.name}`;
    const path = `path + ${JSON.stringify(`.${m.name}`)}`;
    // `T??`: absent stays absent (undefined), told apart from null.
    if (isAbsent(m.shape)) return `${m.name}: ${value} === undefined ? undefined : ${checks.value(m.shape, value, path, m.name)},`;
    // Absent and null alike are null for a nullable member without a default.
    if (!m.required && m.default === undefined) return `${m.name}: ${checks.value(m.shape, value, path, m.name)},`;
    const absent = m.required
      ? `rt.shape.missing(path, ${JSON.stringify(m.name)})`
      : m.default !== undefined
        ? JSON.stringify(m.default)
        : "null";
    return `${m.name}: ${value} === undefined ? ${absent} : ${checks.value(m.shape, value, path, m.name)},`;
  });
  out.push(...checks.constants);
  out.push({
    kind: StructureKind.Function,
    name: names.recordCheck(t.module, t.name),
    parameters: [
      { name: "value", type: "unknown" },
      { name: "path", type: "string" },
    ],
    returnType: iface,
    statements: t.members.length
      ? `const o = rt.shape.record(value, path, ${JSON.stringify(t.name)}, ${literal(t.members.map((m) => m.name))});\nreturn {\n${members.join("\n")}\n};`
      : `rt.shape.record(value, path, ${JSON.stringify(t.name)}, []);\nreturn {};`,
  });
  return out;
}

/**
 * Builds check expressions for one declaration (a record type or an endpoint's arguments).
 * Enum checks are made once, as module constants, collected in `constants`.
 */
export class ShapeChecks {
  readonly constants: StatementStructures[] = [];

  constructor(
    private readonly names: Names,
    /** The generated name its checks are named after (an input function's, a record type's): unique in the file. */
    private readonly base: string,
  ) {}

  /** An expression checking `value` (maybe null, or absent when `s` is nullable) against `s`, naming `path` (an expression) in messages. */
  value(s: ShapeModel, value: string, path: string, label: string): string {
    if (s.kind === "list") {
      const list = `rt.shape.list(${value}, ${path}, ${s.max}, ${this.check(s.item, `${label}_item`)})`;
      return s.nullable ? `${value} == null ? null : ${list}` : list;
    }
    if (s.nullable && s.kind === "scalar" && s.type !== "enum") return `${this.check(s, label)}(${value}, ${path})`;
    const check = `${this.nonNull(s, label)}(${value}, ${path})`;
    return s.nullable ? `${value} == null ? null : ${check}` : check;
  }

  /** A function `(value, path) => T` for `s`: a runtime check, a record type's check, or a list of them. */
  check(s: ShapeModel, label: string): string {
    if (s.nullable && s.kind === "scalar" && s.type !== "enum") return s.type === "json" ? "rt.shape.any" : `rt.expect.${s.type}OrNull`;
    const inner = this.nonNull(s, label);
    return s.nullable ? `rt.shape.orNull(${inner})` : inner;
  }

  private nonNull(s: ShapeModel, label: string): string {
    switch (s.kind) {
      case "scalar":
        if (s.type === "json") return "rt.shape.any";
        if (s.type === "enum") return this.enumCheck(s.enumValues, label);
        return `rt.expect.${s.type}`;
      case "record":
        return this.names.recordCheck(s.module, s.type);
      case "list": {
        const item = this.check(s.item, `${label}_item`);
        return `(v: unknown, p: string) => rt.shape.list(v, p, ${s.max}, ${item})`;
      }
    }
  }

  private enumCheck(values: string[], label: string): string {
    const name = this.names.shapeEnum(`${this.base}.${label}`, `${this.base}_${label}`);
    if (!this.constants.some((c) => c.kind === StructureKind.VariableStatement && c.declarations[0].name === name)) {
      this.constants.push({
        kind: StructureKind.VariableStatement,
        declarationKind: VariableDeclarationKind.Const,
        declarations: [{ name, initializer: `rt.shape.oneOf(${literal(values)})` }],
      });
    }
    return name;
  }
}
