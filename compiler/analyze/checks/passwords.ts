// Password fields never leave the server (docs/language.md §6): SQL may not name a password column
// (queries are answers, and a `sql { … }` write would skip the hash), so record operations
// are the only way to read or write one; an action's answer may not carry a row that holds
// one. Together with SVC7010 (a password field read anywhere but in verify_password) this
// keeps a hash out of every answer, log line and error.

import { identityCodes } from "../../diagnostics/codes/identity.js";
import type { SqlBody } from "../../parse/ast.js";
import type { ActionModel, ResourceModel, ValueType } from "../model/model.js";
import type { Reporter } from "../shared/context.js";
import { spanIn } from "../sql/span.js";
import { tokenize } from "../sql/tokens.js";
import { walkBody } from "../transactions/transaction.js";

/** Reports every place `body` names a password column, or selects `*` of a table with one. */
export function checkPasswordSql(body: SqlBody, resources: ReadonlyMap<string, ResourceModel>, file: string, r: Reporter): void {
  const guarded = [...resources.values()].filter((x) => x.fields.some((f) => f.password));
  if (guarded.length === 0) return;
  const tokens = tokenize(body.text);
  const names = (t: { kind: string; text: string; value: string }) => (t.kind === "quoted" ? t.value : t.text).toLowerCase();
  const named = guarded.filter((res) => tokens.some((t) => (t.kind === "word" || t.kind === "quoted") && names(t) === res.name.toLowerCase()));
  for (const res of named) {
    const columns = res.fields.filter((f) => f.password).map((f) => f.name.toLowerCase());
    tokens.forEach((t, i) => {
      const isName = t.kind === "word" || t.kind === "quoted";
      const star = t.text === "*" && (i === 0 || tokens[i - 1].value === "SELECT" || tokens[i - 1].text === "," || tokens[i - 1].text === ".");
      if (isName && columns.includes(names(t))) {
        r.add(identityCodes.passwordInSql.at(file, spanIn(body, t.start, t.end), res.name, names(t)));
      } else if (star) {
        const column = res.fields.find((f) => f.password)!.name;
        r.add(identityCodes.passwordInSql.at(file, spanIn(body, t.start, t.end), res.name, column));
      }
    });
  }
}

/** The first password field a value of type `t` would carry in an answer, if any. */
export function passwordIn(t: ValueType, resources: ReadonlyMap<string, ResourceModel>): { resource: string; field: string } | null {
  switch (t.kind) {
    case "row":
    case "rows": {
      const f = resources.get(t.resource)?.fields.find((x) => x.password);
      return f ? { resource: t.resource, field: f.name } : null;
    }
    case "object":
      for (const f of t.fields) {
        const found = passwordIn(f.type, resources);
        if (found) return found;
      }
      return null;
    case "array":
      return passwordIn(t.item, resources);
    default:
      return null;
  }
}

/**
 * Marks each action that hashes or verifies a password, in its body or through an action it
 * calls (`ActionModel.passwords`): its transaction does that work outside, then runs again.
 */
export function markPasswordWork(actions: readonly ActionModel[]): void {
  const byName = new Map(actions.map((a) => [`${a.module}.${a.name}`, a]));
  const memo = new Map<ActionModel, boolean>();
  const works = (a: ActionModel): boolean => {
    const known = memo.get(a);
    if (known !== undefined) return known;
    memo.set(a, false); // a call cycle adds nothing new
    let found = false;
    walkBody(a.body, (e) => {
      if (e.kind === "builtin" && e.name === "verify_password") found = true;
      else if (e.kind === "record" && (e.op === "insert" || e.op === "update") && e.fields.some((w) => w.check === "password" || w.check === "passwordOrNull")) found = true;
      else if (e.kind === "action") {
        const callee = byName.get(`${e.module}.${e.action}`);
        if (callee !== undefined && works(callee)) found = true;
      }
    });
    memo.set(a, found);
    return found;
  };
  for (const a of actions) if (works(a)) a.passwords = true;
}
