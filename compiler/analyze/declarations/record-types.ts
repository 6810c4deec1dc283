import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import { listCodes } from "../../diagnostics/codes/lists.js";
import { expressionCodes } from "../../diagnostics/codes/expressions.js";
import { uploadCodes } from "../../diagnostics/codes/uploads.js";
import type { Decl, TypeDecl, TypeRef } from "../../parse/ast.js";
import type { RecordTypeModel, ShapeModel, ValueType } from "../model/model.js";
import { RESERVED } from "../shared/names.js";
import { literalDefault, resolveType } from "./resource.js";
import { type Reporter, place } from "../shared/context.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import { SCALAR_TYPES, scalar, withNullable } from "../shared/types.js";

// Lists (`list<text> max 20`) and record types (`type NewUser { … }`) of arguments
// (docs/language.md §2.3 Lists, §2.5 Record types): their written types resolved to the
// shapes the edge checks, and the value types the analyzer types expressions with.

/** Items a list argument may hold when its type says no `max`. */
export const DEFAULT_LIST_MAX = 100;
/** The largest `max` a list may declare: the body limit bounds bytes, this bounds the work per item. */
export const LIST_MAX_LIMIT = 10_000;

const BUILT_IN = new Set<string>([...SCALAR_TYPES, "list"]);

/** The record types of one module, by name. */
export type TypeTable = ReadonlyMap<string, RecordTypeModel>;

/** Types refused for containing themselves, per table: a use of one is not reported again as unknown. */
const refused = new WeakMap<TypeTable, Set<string>>();

/** Is this written type a list or a record type, rather than a single value? */
export function isShaped(t: TypeRef, types: TypeTable): boolean {
  return t.name.name === "list" || t.item !== undefined || types.has(t.name.name) || refused.get(types)?.has(t.name.name) === true;
}

/**
 * The record types a module declares. Names are registered first, so a member may name a
 * type declared further down; a type that contains itself is refused, since its values
 * would be typed without end.
 */
export function analyzeTypes(module: string, decls: readonly { decl: Decl; file: string }[], r: Reporter): Map<string, RecordTypeModel> {
  const out = new Map<string, RecordTypeModel>();
  const found: { decl: TypeDecl; file: string }[] = [];
  for (const { decl, file } of decls) {
    if (decl.kind !== "Type") continue;
    if (BUILT_IN.has(decl.name.name)) {
      r.add(listCodes.typeName.at(file, decl.name.span, decl.name.name));
      continue;
    }
    const other = found.find((f) => f.decl.name.name === decl.name.name);
    if (other) {
      r.add(codes.duplicateDeclaration.at(file, decl.name.span, "type", decl.name.name, place(other.file, other.decl.name.span)));
      continue;
    }
    found.push({ decl, file });
    out.set(decl.name.name, { module, name: decl.name.name, doc: decl.doc, members: [] });
  }
  for (const { decl, file } of found) {
    const t = out.get(decl.name.name)!;
    const seen = new Set<string>();
    for (const m of decl.members) {
      if (seen.has(m.name.name)) {
        r.add(codes.duplicateField.at(file, m.name.span, m.name.name));
        continue;
      }
      seen.add(m.name.name);
      if (RESERVED.has(m.name.name)) {
        r.add(codes.reservedParamName.at(file, m.name.span, m.name.name));
        continue;
      }
      const shape = resolveShape(m.type, file, r, out, module);
      if (!shape) continue;
      // `bio: text??`: a member the client may leave out, told apart from null.
      if (m.type.absent) {
        if (shape.kind !== "scalar") r.add(expressionCodes.absentNotHere.at(file, m.type.span, "on a list or record member"));
        else if (m.default) r.add(expressionCodes.absentNotHere.at(file, m.type.span, "with a default"));
        else shape.absent = true;
      }
      let def: RecordTypeModel["members"][number]["default"] = undefined;
      if (m.default) {
        def = shape.kind === "scalar" ? literalDefault(shape, m.default) : undefined;
        if (def === undefined) r.add(codes.badDefault.at(file, m.default.span, m.name.name, shape.kind === "scalar" ? `a ${shape.type} literal` : "left out (a list or record member has no default; make it nullable)"));
      }
      t.members.push({ name: m.name.name, shape, default: def, required: !shape.nullable && def === undefined });
    }
  }
  for (const { decl, file } of found) {
    const path = cycle(decl.name.name, out, []);
    if (path) {
      r.add(listCodes.recursiveType.at(file, decl.name.span, decl.name.name, path));
      if (!refused.has(out)) refused.set(out, new Set());
      refused.get(out)!.add(decl.name.name);
    }
  }
  for (const name of refused.get(out) ?? []) out.delete(name);
  return out;
}

/** The chain of type names by which `name` contains itself, or null. */
function cycle(name: string, types: TypeTable, via: string[]): string[] | null {
  const t = types.get(name);
  if (!t) return null;
  if (via.includes(name)) return via[0] === name ? [...via, name] : null;
  for (const m of t.members) {
    for (const inner of recordsIn(m.shape)) {
      const found = cycle(inner, types, [...via, name]);
      if (found) return found;
    }
  }
  return null;
}

function recordsIn(s: ShapeModel): string[] {
  if (s.kind === "record") return [s.type];
  if (s.kind === "list") return recordsIn(s.item);
  return [];
}

/** A written type as a shape: a scalar, `list<T> [max N]`, or a record type of the module; reports and returns null when it is none. */
export function resolveShape(t: TypeRef, file: string, r: Reporter, types: TypeTable, module: string): ShapeModel | null {
  const name = t.name.name;
  if (name === "list") {
    if (!t.item) {
      r.add(listCodes.listItemType.at(file, t.span, "`list` needs its item type: `list<text>`"));
      return null;
    }
    const item = resolveShape(t.item, file, r, types, module);
    if (!item) return null;
    if (t.item.absent) r.add(expressionCodes.absentNotHere.at(file, t.item.span, "on a list item (an item is there or not)"));
    let max = DEFAULT_LIST_MAX;
    if (t.max) {
      if (t.max.value < 1 || t.max.value > LIST_MAX_LIMIT) r.add(listCodes.listBound.at(file, t.max.span, t.max.value));
      else max = t.max.value;
    }
    return { kind: "list", item, max, nullable: t.nullable };
  }
  if (t.item) {
    r.add(listCodes.listItemType.at(file, t.span, `\`${name}\` takes no item type; only \`list\` does`));
    return null;
  }
  if (types.has(name)) return { kind: "record", module, type: name, nullable: t.nullable };
  if (refused.get(types)?.has(name)) return null;
  if (!BUILT_IN.has(name)) {
    r.add(codes.unknownType.at(file, t.name.span, name, closest(name, [...BUILT_IN, ...types.keys()])));
    return null;
  }
  const s = resolveType(t, file, r);
  if (s?.type === "file") {
    r.add(uploadCodes.fileInShape.at(file, t.name.span, "a list item or a record member"));
    return null;
  }
  return s ? { kind: "scalar", type: s.type, enumValues: s.enumValues, nullable: t.nullable } : null;
}

/** The value type of a shape: what member access, `for` and builtins see. */
export function shapeType(s: ShapeModel, types: TypeTable): ValueType {
  switch (s.kind) {
    case "scalar":
      return scalar(s.type, s.nullable, s.enumValues);
    case "list":
      return withNullable({ kind: "array", item: shapeType(s.item, types) }, s.nullable);
    case "record": {
      const t = types.get(s.type);
      const fields = (t?.members ?? []).map((m) =>
        m.shape.kind === "scalar" && m.shape.absent ? { name: m.name, type: shapeType(m.shape, types), absent: true as const } : { name: m.name, type: shapeType(m.shape, types) },
      );
      return withNullable({ kind: "object", module: s.module, type: s.type, fields }, s.nullable);
    }
  }
}

/** How a shape reads in a message: `list<text>`, `NewUser?`. */
export function describeShape(s: ShapeModel): string {
  const base = s.kind === "scalar" ? s.type : s.kind === "list" ? `list<${describeShape(s.item)}>` : s.type;
  return s.nullable ? `${base}?` : base;
}
