// Which actions write (docs/language.md §3, Requests from other sites). A GET is answered to
// any site's links, images and prefetches, with the SameSite=Lax cookie, so the cross-site
// rule guards every other method and a GET must not reach a write: the routes and route-file
// blocks that would are build errors (route.ts, route-file.ts) unless written `unsafe`.
// An action writes when its body, in any branch, runs a record insert, update or delete, an
// `sql { … }` that is not a SELECT, or starts or ends a session, or calls an action that
// writes. Queries only read (SVC3008) and fns touch no database (SVC2073).

import { crossSiteCodes } from "../../diagnostics/codes/cross-site.js";
import type { Span } from "../../parse/ast.js";
import type { ActionModel, HttpMethod, IrExpr, IrStmt, StatementModel, WriteModel } from "../model/model.js";
import type { Reporter } from "../shared/context.js";
import { forEachChild } from "../transactions/transaction.js";

/**
 * Sets `writes` on each of a module's actions (calls stay inside a module). Cycles were
 * reported where they were found (SVC2072); one here is cut, not followed.
 */
export function markWrites(actions: ReadonlyMap<string, ActionModel>, statements: ReadonlyMap<string, StatementModel>): void {
  const done = new Map<string, WriteModel | null>();
  const visiting = new Set<string>();
  const writesOf = (action: ActionModel): WriteModel | null => {
    const known = done.get(action.name);
    if (known !== undefined) return known;
    if (visiting.has(action.name)) return null;
    visiting.add(action.name);
    const found = firstWrite(action.body, statements, (name) => {
      const callee = actions.get(name);
      return callee === undefined ? null : writesOf(callee);
    });
    visiting.delete(action.name);
    done.set(action.name, found);
    if (found !== null) action.writes = found;
    return found;
  };
  for (const action of actions.values()) writesOf(action);
}

/** The first write in `body`, in source order; `callee` answers for a called action. */
/** Built-ins that write svc's own tables: a session row, or revocations and the sessions they end. */
const SESSION_WRITES: ReadonlySet<string> = new Set(["start_session", "end_session", "revoke"]);

function firstWrite(
  body: readonly IrStmt[],
  statements: ReadonlyMap<string, StatementModel>,
  callee: (name: string) => WriteModel | null,
): WriteModel | null {
  let found: WriteModel | null = null;
  const visit = (e: IrExpr): void => {
    if (found !== null) return;
    if (e.kind === "record" && e.op !== "get") found = { what: `${e.op} ${e.resource}`, through: [] };
    else if (e.kind === "builtin" && SESSION_WRITES.has(e.name)) found = { what: `${e.name}()`, through: [] };
    else if (e.kind === "enqueue") found = { what: `enqueue ${e.job}`, through: [] };
    else if (e.kind === "action") {
      const inner = callee(e.action);
      if (inner !== null) found = { what: inner.what, through: [e.action, ...inner.through] };
    }
    // Arguments run before the call or operation that takes them, but any write will do.
    forEachChild(e, visit);
  };
  const walk = (stmts: readonly IrStmt[]): void => {
    for (const s of stmts) {
      if (found !== null) return;
      switch (s.kind) {
        case "let":
          visit(s.value);
          break;
        case "expr":
          visit(s.expr);
          break;
        case "yield":
          visit(s.value);
          break;
        case "emit":
          visit(s.data);
          if (found === null) found = { what: `emit ${s.event}`, through: [] };
          break;
        case "return":
          if (s.value !== null) visit(s.value);
          break;
        case "fail":
          visit(s.message);
          break;
        case "sql":
          s.args.forEach(visit);
          if (found === null && statements.get(s.statement)?.sql.readonly !== true) found = { what: "sql { … }", through: [] };
          break;
        case "if":
          visit(s.cond);
          walk(s.then);
          walk(s.else);
          break;
        case "for":
          visit(s.list);
          walk(s.body);
          break;
      }
    }
  };
  walk(body);
  return found;
}

/** A GET route or block, as the check below reports it. */
export interface SafeMethodUse {
  file: string;
  method: HttpMethod;
  /** `unsafe` as written, or null. */
  unsafe: Span | null;
  /** The invoked action, or null for a query or no step. */
  action: ActionModel | null;
  /** Where the target is named, for the error. */
  targetSpan: Span;
  /** How the message names the route or block: `route GET "/confirm/:token"`. */
  what: string;
  /** The same, written with `unsafe`, for the hint. */
  allow: string;
}

/**
 * A GET that reaches a write is SVC7020 unless written `unsafe`; `unsafe` where it allows
 * nothing is SVC7021. True when the route or block is unsafe as written and allowed.
 */
export function checkSafeMethod(use: SafeMethodUse, r: Reporter): boolean {
  const write = use.action?.writes;
  if (use.unsafe !== null) {
    if (use.method !== "GET") r.add(crossSiteCodes.needlessUnsafe.at(use.file, use.unsafe, use.what, "method"));
    else if (write === undefined) r.add(crossSiteCodes.needlessUnsafe.at(use.file, use.unsafe, use.what, "reads"));
    return use.method === "GET" && write !== undefined;
  }
  if (use.method === "GET" && write !== undefined) {
    r.add(crossSiteCodes.getWrites.at(use.file, use.targetSpan, use.what, use.action!.name, write, use.allow));
  }
  return false;
}
