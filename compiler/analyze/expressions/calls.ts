// Calls from an action to another action, and to a fn (docs/language.md §2.3: Calling an action, Functions): the
// arguments checked against the callee, the callee resolved (and analyzed, when first
// called), the result typed by what the callee returns.

import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import { compositionCodes } from "../../diagnostics/codes/composition.js";
import type { CallExpr } from "../../parse/ast.js";
import type { ExprAnalyzer } from "./expr.js";
import type { IrExpr, Requirement, ValueType } from "../model/model.js";
import type { ModuleScope, Scope } from "./scope.js";
import { UNKNOWN, scalar } from "../shared/types.js";

const NOTHING: IrExpr = { kind: "literal", value: null, type: UNKNOWN };

/** `create_user(name: n)`: named arguments, defaults filled at build time by the generator. */
export function callAction(x: ExprAnalyzer, m: ModuleScope, e: CallExpr, scope: Scope): IrExpr {
  const name = e.callee.name;
  const a = m.actions!.resolve(name, { file: m.file, span: e.callee.span });
  if (!a) return NOTHING;
  // List and record parameters are checked against their types; one read from json is refused.
  const args = x.namedArgs(`action \`${name}\``, a.params, e, scope, true);
  const caller = m.caller?.kind === "action" ? m.caller : null;
  if (caller && a.requires && !implies(caller.requires, a.requires)) {
    m.reporter.add(compositionCodes.requiresNotChecked.at(m.file, e.callee.span, name, clause(a.requires), caller.name));
  }
  // The callee reads the caller or sets a session: the caller passes its own context on.
  if (a.context === true) x.usesContext = true;
  // Its token or session goes out in the caller's answer.
  if (a.issuesCredentials === true) x.issuesCredentials = true;
  return { kind: "action", module: a.module, action: a.name, args, type: known(a.returns) };
}

/** Does passing `has` guarantee `needs`? */
function implies(has: Requirement | null, needs: Requirement): boolean {
  if (has === null) return false;
  if (needs.kind === "auth") return true;
  return has.kind === "role" && has.role === needs.role;
}

function clause(r: Requirement): string {
  return r.kind === "auth" ? "requires auth" : `requires role ${JSON.stringify(r.role)}`;
}

/**
 * `profile(u, true)` or `profile(u: u, following: true)`: positional arguments fill the
 * parameters in order, named ones by name, and every parameter must be given once.
 */
export function callFn(x: ExprAnalyzer, m: ModuleScope, e: CallExpr, scope: Scope): IrExpr {
  const fns = m.fns!;
  const name = e.callee.name;
  const params = fns.params(name);
  const given: (IrExpr | undefined)[] = params.map(() => undefined);
  const spans: (CallExpr["span"] | undefined)[] = params.map(() => undefined);
  let ok = true;
  e.args.forEach((arg, i) => {
    const value = x.expr(arg.value, scope);
    const at = arg.name ? params.findIndex((p) => p.name === arg.name!.name) : i;
    if (at < 0 || at >= params.length) {
      const problem = arg.name
        ? `fn \`${name}\` has no parameter \`${arg.name.name}\``
        : `fn \`${name}\` takes ${params.length} argument${params.length === 1 ? "" : "s"}, found ${e.args.length}`;
      m.reporter.add(codes.badCallArgs.at(m.file, arg.name?.span ?? arg.span, problem));
      ok = false;
      return;
    }
    if (given[at]) {
      m.reporter.add(codes.badCallArgs.at(m.file, arg.span, `argument \`${params[at].name}\` is given twice`));
      ok = false;
      return;
    }
    given[at] = value;
    spans[at] = arg.value.span;
  });
  const missing = params.filter((_, i) => !given[i]);
  if (missing.length) {
    m.reporter.add(codes.badCallArgs.at(m.file, e.span, `fn \`${name}\` needs the argument${missing.length === 1 ? "" : "s"} ${missing.map((p) => `\`${p.name}\``).join(", ")}`));
    ok = false;
  }
  if (!ok) return NOTHING;
  const args: { name: string; value: IrExpr }[] = [];
  const types: ValueType[] = [];
  params.forEach((p, i) => {
    let value = given[i]!;
    if (p.type) {
      x.expect(value, p.type, `argument \`${p.name}\``, spans[i]!);
      if (p.type.kind === "scalar") value = x.checked(value, p.type.type, p.type.nullable);
    }
    args.push({ name: p.name, value });
    types.push(p.type ?? value.type);
  });
  const callerInstance = m.caller?.kind === "fn" ? m.caller.instance : null;
  const instance = fns.instance(name, types, { file: m.file, span: e.callee.span }, callerInstance);
  if (!instance) return NOTHING;
  return { kind: "fn", fn: instance.id, args, mayFail: instance.mayFail, type: known(instance.returns) };
}

/**
 * A callee whose `return`s disagree on a type answers some JSON value: typed as `json`, a
 * caller may return it or read its members (checked where they meet a typed slot), and using
 * it as a number or text is a build error rather than a guess.
 */
function known(t: ValueType): ValueType {
  return t.kind === "unknown" ? scalar("json", true) : t;
}
