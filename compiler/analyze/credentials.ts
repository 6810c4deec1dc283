// The credentials a server reads at start (docs/language.md §6): every webhook's secret and the
// `[auth]` token list, each with where it comes from. `[deploy] token` is not among them:
// `svc deploy` reads it, never the server.

import type { ProjectConfig } from "../project/config/schema.js";
import type { AuthModel, CredentialModel, WebhookModel } from "./model.js";

/** Sorted by name; a credential without a svc.toml entry is read from `SVC_CREDENTIAL_<NAME>`. */
export function credentialModels(config: ProjectConfig, webhooks: readonly WebhookModel[]): CredentialModel[] {
  const names = new Set(webhooks.map((w) => w.credential));
  if (config.auth.bearer !== undefined) names.add(config.auth.bearer.credential);
  return [...names]
    .sort()
    .map((name) =>
      Object.hasOwn(config.credentials, name)
        ? { name, from: config.credentials[name], declared: true }
        : { name, from: { env: `SVC_CREDENTIAL_${name.toUpperCase()}` }, declared: false },
    );
}

export function authModel(config: ProjectConfig): AuthModel | null {
  return config.auth.bearer === undefined ? null : { bearer: { credential: config.auth.bearer.credential } };
}
