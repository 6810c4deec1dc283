import { analyzeCodes as codes } from "../diagnostics/codes/analyze.js";
import type { Expr, WebhookDecl } from "../parse/ast.js";
import type { ActionModel, WebhookModel } from "./model.js";
import { splitPath } from "./route.js";
import { type Reporter, place } from "./shared/context.js";
import { closest } from "./shared/names.js";

const PROVIDERS = ["github", "stripe", "slack", "standard", "hmac"] as const;
const KEYS = ["provider", "secret", "path", "handler"];
/** What a handler may declare, and whether the value can be null. */
const HANDLER_PARAMS: Record<string, { nullable: boolean }> = {
  payload: { nullable: false },
  event: { nullable: true },
  delivery: { nullable: true },
};

/** A `webhook` block: provider, a credential for its secret, a path and a handler action. */
export function analyzeWebhook(
  module: string,
  decl: WebhookDecl,
  file: string,
  actions: ReadonlyMap<string, ActionModel>,
  r: Reporter,
): WebhookModel | null {
  const fields = new Map<string, Expr>();
  for (const f of decl.fields) {
    if (!KEYS.includes(f.key.name)) {
      const near = closest(f.key.name, KEYS);
      r.add(codes.webhookField.at(file, f.key.span, `unknown webhook field \`${f.key.name}\`${near ? ` (did you mean \`${near}\`?)` : ""}`));
    } else if (fields.has(f.key.name)) {
      r.add(codes.webhookField.at(file, f.key.span, `\`${f.key.name}\` is given twice`));
    } else {
      fields.set(f.key.name, f.value);
    }
  }
  const missing = KEYS.filter((k) => !fields.has(k));
  if (missing.length) {
    r.add(codes.webhookField.at(file, decl.name.span, `webhook \`${decl.name.name}\` needs ${missing.map((k) => `\`${k}\``).join(", ")}`));
    return null;
  }
  let ok = true;

  const provider = fields.get("provider")!;
  if (provider.kind !== "String") {
    r.add(codes.webhookField.at(file, provider.span, "`provider` must be a string"));
    ok = false;
  } else if (!(PROVIDERS as readonly string[]).includes(provider.value)) {
    r.add(codes.webhookProvider.at(file, provider.span, provider.value));
    ok = false;
  }

  const secret = fields.get("secret")!;
  const credential =
    secret.kind === "Member" && secret.object.kind === "Name" && secret.object.name === "credentials" ? secret.property.name : null;
  if (credential === null) {
    r.add(codes.webhookSecret.at(file, secret.span));
    ok = false;
  }

  const path = fields.get("path")!;
  if (path.kind !== "String") {
    r.add(codes.webhookField.at(file, path.span, "`path` must be a string"));
    ok = false;
  } else {
    const segments = splitPath(path.value, (problem) => r.add(codes.badRoutePath.at(file, path.span, problem)));
    if (!segments) ok = false;
    else if (segments.some((s) => s.startsWith(":"))) {
      r.add(codes.badRoutePath.at(file, path.span, "a webhook path has no `:param` segments"));
      ok = false;
    }
  }

  const handler = fields.get("handler")!;
  if (handler.kind !== "Name") {
    r.add(codes.webhookHandler.at(file, handler.span, "`handler` must name an action"));
    ok = false;
  } else {
    const action = actions.get(handler.name);
    if (!action) {
      const near = closest(handler.name, actions.keys());
      r.add(codes.webhookHandler.at(file, handler.span, `\`${handler.name}\` is not an action of this module${near ? ` (did you mean \`${near}\`?)` : ""}`));
      ok = false;
    } else {
      for (const p of action.params) {
        const allowed = HANDLER_PARAMS[p.name];
        if (!allowed) {
          r.add(codes.webhookHandler.at(file, handler.span, `handler \`${action.name}\` takes \`${p.name}\`, but a webhook passes only payload, event and delivery`));
          ok = false;
        } else if (allowed.nullable && !p.nullable && p.default === undefined) {
          r.add(codes.webhookHandler.at(file, handler.span, `handler parameter \`${p.name}\` must be nullable: not every provider sends one`));
          ok = false;
        }
      }
    }
  }

  if (!ok || provider.kind !== "String" || path.kind !== "String" || handler.kind !== "Name" || credential === null) return null;
  return {
    module,
    name: decl.name.name,
    provider: provider.value as WebhookModel["provider"],
    credential,
    path: path.value,
    handler: { kind: "action", module, name: handler.name },
    source: place(file, decl.span),
  };
}
