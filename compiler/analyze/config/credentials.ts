// The credentials a server reads at start (docs/language.md §6): every webhook's secret, the
// `[auth]` token list, `[auth.jwt]` keys and `[server] metrics_token`, each with where it comes from. `[deploy] token`
// is not among them: `svc deploy` reads it, never the server.

import type { ProjectConfig } from "../../project/config/schema.js";
import type { AuthModel, CredentialModel, EventsModel, WebhookModel } from "../model/model.js";
import { sessionStore } from "../stores/session-store.js";
import { DEFAULT_SESSION_LIFETIME_S } from "../../project/config/auth.js";

const DEFAULT_JWT_LIFETIME_S = 3600;
const DEFAULT_COOKIE = "svc_session";

/** Sorted by name; a credential without a svc.toml entry is read from `SVC_CREDENTIAL_<NAME>`. */
export function credentialModels(config: ProjectConfig, webhooks: readonly WebhookModel[], events: EventsModel | null): CredentialModel[] {
  const names = new Set(webhooks.map((w) => w.credential));
  // Event subscribers' signing secrets (docs/language.md §2.9).
  for (const s of events?.subscribers ?? []) names.add(s.secret);
  const { bearer, jwt } = config.auth;
  if (bearer !== undefined) names.add(bearer.credential);
  if (jwt?.secret !== undefined) names.add(jwt.secret.credential);
  if (jwt?.private_key !== undefined) names.add(jwt.private_key.credential);
  if (config.server.metrics_token !== undefined) names.add(config.server.metrics_token);
  return [...names]
    .sort()
    .map((name) =>
      Object.hasOwn(config.credentials, name)
        ? { name, from: config.credentials[name], declared: true }
        : { name, from: { env: `SVC_CREDENTIAL_${name.toUpperCase()}` }, declared: false },
    );
}

export function authModel(config: ProjectConfig): AuthModel | null {
  const { bearer, schemes, jwt, sessions } = config.auth;
  const out: AuthModel = {};
  if (bearer !== undefined) out.bearer = { credential: bearer.credential };
  if (schemes !== undefined && schemes.length > 0) out.schemes = schemes;
  if (jwt !== undefined && (jwt.secret ?? jwt.private_key ?? jwt.jwks_url) !== undefined) {
    out.jwt = {
      ...(jwt.secret && { secret: jwt.secret.credential }),
      ...(jwt.private_key && { privateKey: jwt.private_key.credential }),
      ...(jwt.jwks_url && { jwksUrl: jwt.jwks_url }),
      ...(jwt.jwks_cooldown !== undefined && { jwksCooldownMs: jwt.jwks_cooldown * 1000 }),
      ...(jwt.issuer && { issuer: jwt.issuer }),
      ...(typeof jwt.audience === "string" && jwt.audience !== "" && { audience: jwt.audience }),
      ...(jwt.leeway !== undefined && { leewayS: jwt.leeway }),
      lifetimeS: jwt.lifetime ?? DEFAULT_JWT_LIFETIME_S,
      rolesClaim: jwt.roles_claim ?? "roles",
      ...(jwt.claims && Object.keys(jwt.claims).length > 0 && { claims: jwt.claims }),
    };
  }
  if (sessions !== undefined) {
    out.sessions = sessionStore(sessions.lifetime ?? DEFAULT_SESSION_LIFETIME_S, sessions.cookie ?? DEFAULT_COOKIE, sessions.idle);
  }
  return Object.keys(out).length === 0 ? null : out;
}

/** What the project has that says who is calling, for the checks of `auth`, `requires` and the builtins. */
export interface IdentityFeatures {
  /** Any mechanism at all: `auth` and `requires` are allowed. */
  any: boolean;
  /** A signing key: `issue_token` is allowed. */
  issue: boolean;
  sessions: boolean;
  /** Something `revoke` can end: sessions, or JWTs. */
  revoke: boolean;
  claims: Record<string, import("../model/model.js").ClaimType> | null;
  /** What a 401 answers in `WWW-Authenticate`: the first accepted scheme word, `Bearer` by default. */
  challenge: string;
}

export function identityFeatures(auth: AuthModel | null): IdentityFeatures {
  return {
    any: auth !== null && (auth.bearer !== undefined || auth.jwt !== undefined || auth.sessions !== undefined),
    issue: auth?.jwt?.secret !== undefined || auth?.jwt?.privateKey !== undefined,
    sessions: auth?.sessions !== undefined,
    revoke: auth?.sessions !== undefined || auth?.jwt !== undefined,
    claims: auth?.jwt?.claims ?? null,
    challenge: auth?.schemes?.[0] ?? "Bearer",
  };
}
