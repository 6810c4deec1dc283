import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import { expressionCodes } from "../../diagnostics/codes/expressions.js";
import type { Param } from "../../parse/ast.js";
import type { ParamModel } from "../model/model.js";
import { type TypeTable, isShaped, resolveShape } from "./record-types.js";
import { literalDefault, resolveType } from "./resource.js";
import type { Reporter } from "../shared/context.js";
import { RESERVED } from "../shared/names.js";

/**
 * Parameters of a query or an action: types resolved, defaults checked against them.
 * With `types` (the module's record types), a parameter may be a list or a record.
 */
export function analyzeParams(
  params: Param[],
  file: string,
  r: Reporter,
  types?: { module: string; table: TypeTable },
  absentAllowed = false,
): ParamModel[] {
  const out: ParamModel[] = [];
  const seen = new Set<string>();
  for (const p of params) {
    if (seen.has(p.name.name)) {
      r.add(codes.duplicateField.at(file, p.name.span, p.name.name));
      continue;
    }
    seen.add(p.name.name);
    if (RESERVED.has(p.name.name)) {
      r.add(codes.reservedParamName.at(file, p.name.span, p.name.name));
      continue;
    }
    // `T??`: only an action's single-value parameter, without a default, may be absent.
    if (p.type.absent) {
      const where = !absentAllowed ? "on a query parameter" : p.default ? "with a default" : types && isShaped(p.type, types.table) ? "on a list or record argument" : null;
      if (where !== null) r.add(expressionCodes.absentNotHere.at(file, p.type.span, where));
    }
    if (types && isShaped(p.type, types.table)) {
      const shape = resolveShape(p.type, file, r, types.table, types.module);
      if (!shape) continue;
      if (p.default) r.add(codes.badDefault.at(file, p.default.span, p.name.name, "left out: a list or record argument has no default (make it nullable: absent is null)"));
      const nullable = shape.nullable;
      out.push({ name: p.name.name, type: "json", enumValues: [], nullable, default: undefined, required: !nullable, shape });
      continue;
    }
    const t = resolveType(p.type, file, r);
    if (!t) continue;
    const nullable = p.type.nullable;
    let def: ParamModel["default"] = undefined;
    if (p.default) {
      def = literalDefault({ ...t, nullable }, p.default);
      if (def === undefined) r.add(codes.badDefault.at(file, p.default.span, p.name.name, `a ${t.type} literal`));
    }
    const param: ParamModel = {
      name: p.name.name,
      type: t.type,
      enumValues: t.enumValues,
      nullable,
      default: def,
      required: !nullable && def === undefined,
    };
    if (p.type.absent && absentAllowed && def === undefined) param.absent = true;
    out.push(param);
  }
  return out;
}
