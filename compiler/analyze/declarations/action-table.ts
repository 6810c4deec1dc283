// The actions of one module, analyzed on demand: an action that calls another needs the
// callee's parameters and result type, so the callee is analyzed first, whatever the order
// they are written in. A call to an action that is still being analyzed closes a cycle.

import { compositionCodes } from "../../diagnostics/codes/composition.js";
import type { ActionDecl } from "../../parse/ast.js";
import type { ActionModel } from "../model/model.js";
import type { ActionCalls, CallSite } from "../expressions/scope.js";
import type { Reporter } from "../shared/context.js";

export class ActionTable implements ActionCalls {
  private readonly decls = new Map<string, { decl: ActionDecl; file: string }>();
  private readonly models = new Map<string, ActionModel>();
  /** Actions being analyzed, innermost last. */
  private readonly analyzing: string[] = [];

  constructor(
    decls: { decl: ActionDecl; file: string }[],
    private readonly analyzeOne: (decl: ActionDecl, file: string) => ActionModel,
    private readonly reporter: Reporter,
  ) {
    for (const d of decls) if (!this.decls.has(d.decl.name.name)) this.decls.set(d.decl.name.name, d);
  }

  has(name: string): boolean {
    return this.decls.has(name);
  }

  names(): string[] {
    return [...this.decls.keys()];
  }

  resolve(name: string, at: CallSite | null): ActionModel | null {
    const done = this.models.get(name);
    if (done) return done;
    const cycle = this.analyzing.indexOf(name);
    if (cycle >= 0) {
      if (at) this.reporter.add(compositionCodes.callCycle.at(at.file, at.span, "action", [...this.analyzing.slice(cycle), name]));
      return null;
    }
    const { decl, file } = this.decls.get(name)!;
    this.analyzing.push(name);
    try {
      const model = this.analyzeOne(decl, file);
      this.models.set(name, model);
      return model;
    } finally {
      this.analyzing.pop();
    }
  }

  /** Every action, analyzed, in the order written. */
  all(): Map<string, ActionModel> {
    const out = new Map<string, ActionModel>();
    for (const name of this.decls.keys()) out.set(name, this.resolve(name, null)!);
    return out;
  }
}
