// Public by default, and hard to get wrong (docs/language.md §2.3, Private queries and actions): a query or an action
// that nobody marked is an endpoint, as it always was, so the compiler warns when such an
// endpoint answers with a field whose name says it is a secret or personal.

import { compositionCodes } from "../../diagnostics/codes/composition.js";
import type { Decl } from "../../parse/ast.js";
import type { ActionModel, QueryModel, ResourceModel, ValueType, WebhookModel } from "../model/model.js";
import type { Reporter } from "../shared/context.js";

/** Words that, as a whole part of a field name (`password_hash`, `apiKey`), mark a secret: no caller should get it. */
const SECRET = new Set(["password", "passwd", "pwd", "hash", "salt", "secret", "apikey", "otp"]);
/**
 * Words that mark what only its owner should get (`email`, `reset_token`). An action answers
 * the caller who just proved who they are or sent the value (sign-up returns your e-mail,
 * log-in your token); a query answers anyone who asks, about anyone.
 */
const PERSONAL = new Set(["email", "mail", "token", "phone"]);

/** `password_hash`, `resetToken`, `api_key` → does any word (or joined pair) name a secret, or with `personal` a personal value? */
export function looksSensitive(name: string, personal: boolean): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const hit = (w: string) => SECRET.has(w) || (personal && PERSONAL.has(w));
  return words.some((w, i) => hit(w) || hit(w + (words[i + 1] ?? "")));
}

/** Field names an answer of this type carries, nested objects and lists included. */
function answerFields(t: ValueType, queries: ReadonlyMap<string, QueryModel>, resources: ReadonlyMap<string, ResourceModel>): string[] {
  switch (t.kind) {
    case "row":
    case "rows":
      // A password field in an answer is already an error (SVC7008): the warning would say it twice.
      return resources.get(t.resource)?.fields.filter((f) => !f.password).map((f) => f.name) ?? [];
    case "queryRow":
    case "queryRows":
      return queries.get(t.query)?.columns.map((c) => c.name) ?? [];
    case "object":
      return t.fields.flatMap((f) => [f.name, ...answerFields(f.type, queries, resources)]);
    case "array":
      return answerFields(t.item, queries, resources);
    default:
      return [];
  }
}

export function warnSensitiveEndpoints(
  module: string,
  decls: { decl: Decl; file: string }[],
  queries: ReadonlyMap<string, QueryModel>,
  actions: ReadonlyMap<string, ActionModel>,
  webhooks: WebhookModel[],
  resources: ReadonlyMap<string, ResourceModel>,
  r: Reporter,
): void {
  for (const { decl, file } of decls) {
    if ((decl.kind !== "Query" && decl.kind !== "Action") || decl.visibility) continue;
    let answer: string[];
    if (decl.kind === "Query") {
      const q = queries.get(decl.name.name);
      if (!q) continue;
      answer = q.columns.map((c) => c.name);
    } else {
      const a = actions.get(decl.name.name);
      // A webhook's handler has no endpoint of its own (§2.4).
      if (!a || webhooks.some((w) => w.handler.module === a.module && w.handler.name === a.name)) continue;
      answer = answerFields(a.returns, queries, resources);
    }
    const sensitive = [...new Set(answer.filter((f) => looksSensitive(f, decl.kind === "Query")))];
    if (sensitive.length) r.add(compositionCodes.sensitivePublic.at(file, decl.name.span, decl.kind.toLowerCase(), decl.name.name, `${decl.kind === "Query" ? "GET" : "POST"} /api/${module}:${decl.name.name}`, sensitive));
  }
}
