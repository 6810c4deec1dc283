// svc.toml `[auth]` (docs/language.md §6, docs/auth.md): bearer token lists, the accepted scheme
// words, `[auth.jwt]` (keys, claims checked and issued) and `[auth.sessions]`. Secrets are
// only ever named (`{ credential = "…" }`); a secret written into svc.toml is refused.

import { identityCodes } from "../../diagnostics/codes/identity.js";
import { configCodes } from "../../diagnostics/codes/config.js";
import type { TomlPath } from "./locate.js";
import { boolean, formatPath, isTable, mapOf, strings, table, text } from "./readers.js";
import { limitCodes } from "../../diagnostics/codes/limits.js";
import { parseRate, type RateModel } from "./rate.js";
import type { ReadContext, Reader, StringCheck } from "./readers.js";
import type { ClaimType, CredentialRef } from "./schema.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** RFC 9110 §11.1: an auth-scheme is a token. */
const SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
/** Ten years: longer is a typo, and would overflow what cookies and JWT libraries accept. */
const MAX_DURATION_S = 10 * 365 * 86400;
export const CLAIM_TYPES: readonly ClaimType[] = ["text", "int", "float", "bool", "json", "list<text>"];

/** `"30s"`, `"15m"`, `"1h"`, `"7d"` → seconds; null when it does not parse (or is 0 where that is not allowed). */
export function parseDuration(value: string, allowZero = false): number | null {
  const m = /^(\d{1,9})([smhd])$/.exec(value.trim());
  if (m === null) return null;
  const seconds = Number(m[1]) * UNITS[m[2]];
  return (seconds > 0 || (allowZero && seconds === 0)) && seconds <= MAX_DURATION_S ? seconds : null;
}

function durationOf(allowZero: boolean): Reader<number> {
  return (ctx, value, path) => {
    const read = text()(ctx, value, path);
    if (read === undefined) return undefined;
    const seconds = parseDuration(read, allowZero);
    if (seconds === null) ctx.diagnostics.push(identityCodes.badDuration.at(ctx.file, ctx.index.best(path), formatPath(path), read));
    return seconds ?? undefined;
  };
}

const duration = durationOf(false);

const schemeWord: StringCheck = (value) =>
  SCHEME.test(value) ? null : { expected: "an auth scheme word", hint: "e.g. Bearer or Token" };

const credentialName: StringCheck = (value) =>
  IDENTIFIER.test(value) ? null : { expected: "a credential name", hint: "letters, digits and _, not starting with a digit" };

/** `{ credential = "name" }`; a plain string here is the secret itself, which is refused. */
function secretRef(example: string): Reader<CredentialRef> {
  const fields = table({ credential: text(credentialName) }, 'a table such as { credential = "name" }');
  return (ctx, value, path) => {
    if (typeof value === "string") {
      ctx.diagnostics.push(identityCodes.secretInToml.at(ctx.file, ctx.index.best(path), formatPath(path)));
      return undefined;
    }
    const read = fields(ctx, value, path);
    if (read === undefined) return undefined;
    if (read.credential !== undefined) return { credential: read.credential };
    if (!Object.hasOwn(value as Record<string, unknown>, "credential")) {
      ctx.diagnostics.push(configCodes.missingKey.at(ctx.file, ctx.index.best(path), formatPath(path), "credential", example));
    }
    return undefined;
  };
}

const claimType: Reader<ClaimType> = (ctx, value, path) => {
  const read = text()(ctx, value, path);
  if (read === undefined) return undefined;
  if ((CLAIM_TYPES as readonly string[]).includes(read)) return read as ClaimType;
  ctx.diagnostics.push(identityCodes.unknownClaimType.at(ctx.file, ctx.index.best(path), String(path[path.length - 1]), read));
  return undefined;
};

function claimName(ctx: ReadContext, key: string, path: TomlPath): boolean {
  if (IDENTIFIER.test(key)) return true;
  ctx.diagnostics.push(
    configCodes.badValue.at(ctx.file, ctx.index.key(path) ?? ctx.index.best(path), formatPath(path), "a claim name", key, "letters, digits and _"),
  );
  return false;
}

const httpsUrl: StringCheck = (value) => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? null : { expected: "an https:// URL" };
  } catch {
    return { expected: "an https:// URL" };
  }
};

/** Plain http reaches a key set safely only on this machine: tests and a provider on loopback. */
function isLoopbackHttp(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** `audience = "my-api"`, or `audience = false`: the explicit choice to accept a provider's tokens for any client. */
const audience: Reader<string | false> = (ctx, value, path) => {
  if (value === false) return false;
  if (typeof value === "boolean") {
    ctx.diagnostics.push(configCodes.wrongType.at(ctx.file, ctx.index.best(path), formatPath(path), "a string, or false", "true", 'e.g. audience = "my-api"'));
    return undefined;
  }
  return text()(ctx, value, path);
};

/** Five minutes: the most clock difference worth forgiving (RFC 7519 §4.1.4 speaks of "a few minutes"). */
const MAX_LEEWAY_S = 300;

const leeway: Reader<number> = (ctx, value, path) => {
  const seconds = durationOf(true)(ctx, value, path);
  if (seconds === undefined || seconds <= MAX_LEEWAY_S) return seconds;
  ctx.diagnostics.push(identityCodes.leewayTooLong.at(ctx.file, ctx.index.best(path), String(value)));
  return undefined;
};

const jwtFields = table({
  secret: secretRef('secret = { credential = "jwt_secret" }'),
  private_key: secretRef('private_key = { credential = "jwt_key" }'),
  jwks_url: text(httpsUrl),
  jwks_cooldown: durationOf(true),
  issuer: text(),
  audience,
  leeway,
  lifetime: duration,
  roles_claim: text(),
  claims: mapOf(claimType, claimName),
});

/**
 * `[auth.jwt]`: one signing key at most, and something to verify with. An outside provider's
 * keys come over https, and its tokens are taken only from its issuer, for this audience
 * (RFC 8725 §3.8, §3.9).
 */
const jwt: Reader<ReturnType<typeof jwtFields> & object> = (ctx, value, path) => {
  const read = jwtFields(ctx, value, path);
  if (read === undefined || !isTable(value)) return read;
  const has = (k: string) => Object.hasOwn(value, k);
  if (has("secret") && has("private_key")) ctx.diagnostics.push(identityCodes.jwtKeys.at(ctx.file, ctx.index.best(path), "both"));
  else if (!has("secret") && !has("private_key") && !has("jwks_url")) {
    ctx.diagnostics.push(identityCodes.jwtKeys.at(ctx.file, ctx.index.best(path), "none"));
  }
  if (read.jwks_url !== undefined) {
    const url = new URL(read.jwks_url);
    if (url.protocol === "http:" && !isLoopbackHttp(url)) {
      ctx.diagnostics.push(identityCodes.jwksOverHttp.at(ctx.file, ctx.index.best([...path, "jwks_url"]), read.jwks_url));
    }
    if (!has("issuer")) ctx.diagnostics.push(identityCodes.providerWithoutIssuer.at(ctx.file, ctx.index.best(path)));
    if (!has("audience")) ctx.diagnostics.push(identityCodes.providerWithoutAudience.at(ctx.file, ctx.index.best(path)));
  }
  return read;
};

const sessionFields = table({
  lifetime: duration,
  idle: duration,
  cookie: text((v) => (/^[A-Za-z0-9_-]+$/.test(v) ? null : { expected: "a cookie name", hint: "letters, digits, - and _" })),
});

/** The default `[auth.sessions] lifetime`: a week. */
export const DEFAULT_SESSION_LIFETIME_S = 7 * 86400;

/** `[auth.sessions]`: an idle timeout, when given, ends sessions before their lifetime does. */
const sessions: Reader<ReturnType<typeof sessionFields> & object> = (ctx, value, path) => {
  const read = sessionFields(ctx, value, path);
  if (read === undefined || read.idle === undefined || !isTable(value)) return read;
  const lifetime = read.lifetime ?? DEFAULT_SESSION_LIFETIME_S;
  if (read.idle >= lifetime) {
    const shown = (v: unknown, fallback: string) => (typeof v === "string" ? v : fallback);
    ctx.diagnostics.push(
      identityCodes.idleNotShorter.at(ctx.file, ctx.index.best([...path, "idle"]), shown(value.idle, `${read.idle}s`), shown(value.lifetime, "7d")),
    );
    return { ...read, idle: undefined };
  }
  return read;
};

/** `"2 per 1m burst 5"`: a rate of [auth.throttle]. */
const rate: Reader<RateModel> = (ctx, value, path) => {
  const read = text()(ctx, value, path);
  if (read === undefined) return undefined;
  const parsed = parseRate(read);
  if (parsed === null) ctx.diagnostics.push(limitCodes.badThrottle.at(ctx.file, ctx.index.best(path), formatPath(path), read));
  return parsed ?? undefined;
};

export const authTable = table({
  bearer: secretRef('bearer = { credential = "api_tokens" }'),
  schemes: strings(schemeWord),
  jwt,
  sessions,
  // The sign-in throttle (docs/auth.md): on by default wherever a password is verified.
  throttle: table({ enabled: boolean(), account: rate, address: rate }),
});
