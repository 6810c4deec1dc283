import { analyzeCodes as codes } from "../diagnostics/codes/analyze.js";
import type { Param } from "../parse/ast.js";
import type { ParamModel } from "./model.js";
import { literalDefault, resolveType } from "./resource.js";
import type { Reporter } from "./shared/context.js";

/**
 * Names every object answers to: an argument called `constructor` would read
 * Object.prototype's in a JSON body, so such names are refused at build time.
 */
const RESERVED = new Set([...Object.getOwnPropertyNames(Object.prototype), "prototype"]);

/** Parameters of a query or an action: types resolved, defaults checked against them. */
export function analyzeParams(params: Param[], file: string, r: Reporter): ParamModel[] {
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
    const t = resolveType(p.type, file, r);
    if (!t) continue;
    const nullable = p.type.nullable;
    let def: ParamModel["default"] = undefined;
    if (p.default) {
      def = literalDefault({ ...t, nullable }, p.default);
      if (def === undefined) r.add(codes.badDefault.at(file, p.default.span, p.name.name, `a ${t.type} literal`));
    }
    out.push({
      name: p.name.name,
      type: t.type,
      enumValues: t.enumValues,
      nullable,
      default: def,
      required: !nullable && def === undefined,
    });
  }
  return out;
}
