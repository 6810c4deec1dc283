import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import { webhookCodes } from "../../diagnostics/codes/webhooks.js";
import type { Expr, WebhookDecl } from "../../parse/ast.js";
import type { ActionModel, ParamModel, WebhookModel } from "../model/model.js";
import { type LocatedRoute, splitPath } from "./route.js";
import { type Reporter, place } from "../shared/context.js";
import { describeShape } from "./record-types.js";
import { closest } from "../../diagnostics/did-you-mean.js";

const PROVIDERS = ["github", "stripe", "slack", "standard", "hmac"] as const;
const KEYS = ["provider", "secret", "path", "handler"];
/** What a handler may declare: its type, and whether the value can be null. */
const HANDLER_PARAMS: Record<string, { type: ParamModel["type"]; nullable: boolean }> = {
  payload: { type: "json", nullable: false },
  event: { type: "text", nullable: true },
  delivery: { type: "text", nullable: true },
};

/**
 * A `webhook` block: provider, a credential for its secret, a path and a handler action.
 * `declaredCredentials` lists svc.toml's [credentials]; null without a svc.toml (module
 * and app mode), where every credential is read from `SVC_CREDENTIAL_<NAME>` as a matter
 * of course.
 */
export function analyzeWebhook(
  module: string,
  decl: WebhookDecl,
  file: string,
  actions: ReadonlyMap<string, ActionModel>,
  r: Reporter,
  declaredCredentials: readonly string[] | null = null,
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
  } else if (declaredCredentials !== null && !declaredCredentials.includes(credential)) {
    r.add(webhookCodes.webhookCredentialUndeclared.at(file, secret.span, credential, closest(credential, declaredCredentials)));
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
        } else if (p.type !== allowed.type || p.shape !== undefined) {
          // A record type refuses members it does not declare, and providers add members at will.
          const found = p.shape ? describeShape(p.shape) : p.type;
          r.add(codes.webhookHandler.at(file, handler.span, `handler parameter \`${p.name}\` must be of type ${allowed.type}${allowed.nullable ? "?" : ""}, not ${found}`));
          ok = false;
        } else if (allowed.nullable && !p.nullable && p.default === undefined) {
          r.add(codes.webhookHandler.at(file, handler.span, `handler parameter \`${p.name}\` must be nullable: not every provider sends one`));
          ok = false;
        }
      }
      if (action.requires !== null) {
        r.add(codes.webhookHandler.at(file, handler.span, `handler \`${action.name}\` has \`requires\`, but providers send no bearer token: a webhook's signature is its authentication`));
        ok = false;
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

/** A webhook's handler runs only for verified deliveries: a declared route to it would skip the check. */
export function checkWebhookHandlers(claims: readonly LocatedRoute[], webhooks: readonly WebhookModel[], r: Reporter): void {
  const handled = new Map(webhooks.map((w) => [`${w.handler.module}.${w.handler.name}`, w.name]));
  for (const { route, file, span, exact } of claims) {
    if (exact || route.target.kind !== "action") continue;
    const webhook = handled.get(`${route.target.module}.${route.target.name}`);
    if (webhook !== undefined) r.add(webhookCodes.routeToWebhookHandler.at(file, span, route.target.name, webhook));
  }
}
