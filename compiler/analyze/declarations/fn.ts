// The fns of one module (docs/language.md §2.3, Functions). A parameter written without a type takes
// the type of its argument, so a fn is lowered once per set of argument types it is called
// with: each set is an instance, checked and generated on its own, and the type of a call
// is the type that instance returns. Instances are made on the first call with their
// types, so a call inside a fn that is itself being lowered with the same name is recursion.

import { expressionCodes } from "../../diagnostics/codes/expressions.js";
import { analyzeCodes } from "../../diagnostics/codes/analyze.js";
import { compositionCodes } from "../../diagnostics/codes/composition.js";
import type { Block, FnDecl } from "../../parse/ast.js";
import { BodyLowering } from "./action.js";
import type { FnModel, ValueType } from "../model/model.js";
import { resolveType } from "./resource.js";
import { Reporter } from "../shared/context.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { mayFail } from "../transactions/transaction.js";
import { type CallSite, type FnCalls, type ModuleScope, Scope } from "../expressions/scope.js";
import { UNKNOWN, scalar } from "../shared/types.js";

interface Declared {
  decl: FnDecl;
  file: string;
  params: { name: string; type: ValueType | null }[];
}

interface Instance {
  model: FnModel;
  /** Reached from an action: generated. An instance made only to check an uncalled fn is not. */
  emitted: boolean;
  /** Instances this one calls, to mark them generated when this one is. */
  calls: Set<string>;
}

export class FnTable implements FnCalls {
  private readonly declared = new Map<string, Declared>();
  private readonly instances = new Map<string, Instance>();
  private readonly byId = new Map<string, Instance>();
  /** What a body says about itself is the same for every instance: said once. */
  private readonly once: Reporter;
  /** Fns being lowered, innermost last: a call to one of them is recursion. */
  private readonly lowering: string[] = [];

  /** `scope` is the module's scope without a file: each fn is lowered in the file it is written in. */
  constructor(
    decls: { decl: FnDecl; file: string }[],
    private readonly scope: Omit<ModuleScope, "file">,
  ) {
    this.once = new OnceReporter(scope.reporter);
    for (const { decl, file } of decls) {
      if (this.declared.has(decl.name.name)) continue; // SVC2002, reported with the other declarations
      const params: Declared["params"] = [];
      for (const p of decl.params) {
        if (p.default) scope.reporter.add(compositionCodes.fnParamDefault.at(file, p.default.span, p.name.name));
        if (params.some((q) => q.name === p.name.name)) {
          scope.reporter.add(analyzeCodes.duplicateField.at(file, p.name.span, p.name.name));
          continue;
        }
        params.push({ name: p.name.name, type: p.type ? this.paramType(p.type, file) : null });
      }
      this.declared.set(decl.name.name, { decl, file, params });
    }
  }

  /** A parameter's written type: a scalar type, or a resource's name for one of its rows. */
  private paramType(t: NonNullable<FnDecl["params"][number]["type"]>, file: string): ValueType {
    if (t.absent) this.scope.reporter.add(expressionCodes.absentNotHere.at(file, t.span, "on a fn parameter (every call gives every argument)"));
    const resource = this.scope.resources.get(t.name.name);
    if (resource && t.values.length === 0) return { kind: "row", resource: resource.name, nullable: t.nullable };
    const r = resolveType(t, file, this.scope.reporter);
    return r ? scalar(r.type, t.nullable, r.enumValues) : UNKNOWN;
  }

  has(name: string): boolean {
    return this.declared.has(name);
  }

  names(): string[] {
    return [...this.declared.keys()];
  }

  params(name: string): { name: string; type: ValueType | null }[] {
    return this.declared.get(name)?.params ?? [];
  }

  instance(name: string, types: ValueType[], at: CallSite, caller: string | null): FnModel | null {
    const d = this.declared.get(name)!;
    const cycle = this.lowering.indexOf(name);
    if (cycle >= 0) {
      this.scope.reporter.add(compositionCodes.callCycle.at(at.file, at.span, "fn", [...this.lowering.slice(cycle), name]));
      return null;
    }
    const key = `${name}(${JSON.stringify(types)})`;
    let found = this.instances.get(key);
    if (!found) {
      found = this.lower(d, types);
      this.instances.set(key, found);
      this.byId.set(found.model.id, found);
    }
    if (caller === null) this.emit(found);
    else this.byId.get(caller)?.calls.add(found.model.id);
    return found.model;
  }

  /** Lowers every fn no action called, with its written types (unknown where none), for its diagnostics. */
  checkUncalled(): void {
    for (const [name, d] of this.declared) {
      if ([...this.instances.values()].some((i) => i.model.name === name)) continue;
      const key = `${name}(unchecked)`;
      this.instances.set(key, this.lower(d, d.params.map((p) => p.type ?? UNKNOWN)));
    }
  }

  /** The instances actions reach, in the order they were first called. */
  models(): FnModel[] {
    return [...this.instances.values()].filter((i) => i.emitted).map((i) => i.model);
  }

  private emit(i: Instance): void {
    if (i.emitted) return;
    i.emitted = true;
    for (const id of i.calls) this.emit(this.byId.get(id)!);
  }

  private lower(d: Declared, types: ValueType[]): Instance {
    const name = d.decl.name.name;
    const count = [...this.instances.values()].filter((i) => i.model.name === name).length;
    const id = `${this.scope.module}.${name}#${count + 1}`;
    const params = d.params.map((p, i) => ({ name: p.name, type: types[i] }));
    const m: ModuleScope = { ...this.scope, reporter: this.once, file: d.file, fns: this, pure: name, caller: { kind: "fn", name, instance: id } };
    const scope = new Scope(null);
    for (const p of params) scope.define(p.name, { kind: "param", type: p.type });
    const model: FnModel = { id, module: this.scope.module, name, doc: d.decl.doc, params, body: [], returns: UNKNOWN, mayFail: false };
    const instance: Instance = { model, emitted: false, calls: new Set() };
    // Registered before lowering, so calls made while lowering record themselves on it.
    this.byId.set(id, instance);
    this.lowering.push(name);
    try {
      const lowering = new BodyLowering(m, name);
      model.body = lowering.block(valueBody(d.decl.body), scope);
      model.returns = lowering.returnType();
      model.mayFail = mayFail(model.body);
    } finally {
      this.lowering.pop();
    }
    return instance;
  }
}

/** A body whose last statement is a bare expression returns it: `fn label(t) { t.title + "!" }`. */
function valueBody(b: Block): Block {
  const last = b.stmts[b.stmts.length - 1];
  if (!last || last.kind !== "ExprStmt") return b;
  return { ...b, stmts: [...b.stmts.slice(0, -1), { kind: "Return", value: last.expr, span: last.span }] };
}

/** Passes each distinct diagnostic on once. */
class OnceReporter extends Reporter {
  private readonly seen = new Set<string>();

  constructor(private readonly to: Reporter) {
    super();
  }

  override add(d: Diagnostic): void {
    const key = JSON.stringify([d.code, d.file, d.span?.start.offset, d.span?.end.offset, d.message]);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.to.add(d);
  }

  override addAll(ds: readonly Diagnostic[]): void {
    for (const d of ds) this.add(d);
  }
}
